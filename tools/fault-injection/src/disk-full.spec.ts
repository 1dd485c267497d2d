// A full disk under every writer (issue 29): a tmpfs with 0–64 KiB or 0–2 inodes
// left, and the file-size limit (`ulimit -f`, EFBIG) — where the machine cannot
// mount, the file-size limit alone, said in the table, never a silent skip.
// Each try: exit 0 or exit 2 (never 70, no stack, no hang); on exit 2 the tree is
// byte-for-byte what it was and nothing is left behind (no temp file, no lock
// directory, no new directory); once the space is freed the same command lands.
// Then killed `seed --restart-from-round0` runs followed by one plain seed: the
// temp files the kills left are gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEMP_MARK } from '@okstra/state-file';
import { changed, cleanup, clone, leftovers, pool, printTable, random, run, snapshot, type Scenario } from './support.js';
import { canMountTmpfs, TinyDisk, type Squeeze } from './tiny-disk.js';
import { RESTART, seedArgs, WRITERS, writerTemplates, type Writer } from './writers.js';

const TMPFS = canMountTmpfs();
/** `OKSTRA_FI_DISK=all`: every squeeze; by default a spread that keeps the suite's CI time small. */
const ALL_SQUEEZES = process.env.OKSTRA_FI_DISK === 'all';
const SQUEEZES: Squeeze[] = [
  ...(TMPFS ? (ALL_SQUEEZES ? [0, 4096, 12 * 1024, 64 * 1024] : [0, 12 * 1024, 64 * 1024]).map((free) => ({ kind: 'bytes', free }) as Squeeze) : []),
  ...(TMPFS ? (ALL_SQUEEZES ? [0, 1, 2] : [1, 2]).map((free) => ({ kind: 'inodes', free }) as Squeeze) : []),
  ...(ALL_SQUEEZES || !TMPFS ? [0, 1, 8, 24] : [0, 8]).map((blocks) => ({ kind: 'fsize', blocks }) as Squeeze),
];
const label = (q: Squeeze) => (q.kind === 'fsize' ? `ulimit -f ${q.blocks}` : q.kind === 'bytes' ? `${q.free / 1024} KiB free` : `${q.free} inodes free`);

const ALL: Writer[] = [...WRITERS, RESTART];

let templates: Partial<Record<Writer['template'], Scenario>> = {};
beforeAll(async () => {
  templates = await writerTemplates();
}, 300_000);
afterAll(cleanup);

interface Outcome {
  writer: string;
  squeeze: string;
  code: number | null;
  rerun: number | null;
  failure?: string;
}

async function attack(w: Writer, q: Squeeze): Promise<Outcome> {
  const disk = new TinyDisk();
  try {
    const s = clone(templates[w.template]!, join(disk.root, 's'));
    w.setup?.(s);
    const before = snapshot(s.tmp);
    disk.squeeze(q);
    const wrap = (argv: string[]) => disk.wrap(argv);
    const r = await run(w.bin, w.argv(s), { cwd: s.project, wrap, timeoutMs: 30_000 });
    const out: Outcome = { writer: w.name, squeeze: label(q), code: r.code, rerun: null };
    const fail = (why: string) => (out.failure ??= `${w.name} @ ${label(q)}: ${why}`);
    const err = r.stderr.trim().split('\n').pop() ?? '';
    if (r.hung) fail('hung');
    else if (r.code !== 0 && r.code !== 2) fail(`exit ${r.code ?? r.signal}: ${err.slice(0, 200)}`);
    else if (/\n\s+at \S/.test(r.stderr)) fail('stack trace');
    const left = leftovers(s.tmp);
    if (left.length) fail(`left ${left.join(', ')}`);
    if (r.code === 2) {
      const diff = changed(before, snapshot(s.tmp));
      if (diff.length) fail(`exit 2 but changed ${diff.join(', ')}`);
      if (!/ENOSPC|EDQUOT|EFBIG|EMFILE|ENFILE/.test(err)) fail(`exit 2 without naming the cause: ${err.slice(0, 200)}`);
      disk.release();
      const again = await run(w.bin, w.argv(s), { cwd: s.project, timeoutMs: 30_000 });
      out.rerun = again.code;
      if (again.code !== 0) fail(`rerun after freeing space exit ${again.code}: ${again.stderr.trim().slice(0, 200)}`);
      const after = leftovers(s.tmp);
      if (after.length) fail(`rerun left ${after.join(', ')}`);
    }
    if (process.env.FI_DEBUG) process.stderr.write(`${w.name} @ ${label(q)}: exit ${r.code} ${err.slice(0, 160)}\n`);
    return out;
  } finally {
    disk.dispose();
  }
}

describe('a full disk under every writer', () => {
  it('exit 0 or exit 2 naming the cause; on exit 2 nothing changed, nothing left, and a rerun lands', async () => {
    const started = Date.now();
    const writers = ALL;
    const cases = writers.flatMap((w) => SQUEEZES.map((q) => ({ w, q })));
    const outcomes = await pool(cases, 3, ({ w, q }) => attack(w, q));
    const failures = outcomes.flatMap((o) => (o.failure ? [o.failure] : []));
    for (const f of failures) process.stderr.write(`FAIL ${f}\n`);
    const count = (code: number) => outcomes.filter((o) => o.code === code).length;
    printTable(`disk full (${TMPFS ? 'tmpfs bytes/inodes + ulimit -f' : 'ulimit -f only: this machine cannot mount a tmpfs'})`, [
      ...writers.map((w) => {
        const mine = outcomes.filter((o) => o.writer === w.name);
        return {
          test: w.name,
          tries: mine.length,
          failures: mine.filter((o) => o.failure).length,
          note: `${mine.filter((o) => o.code === 2).length} refused, ${mine.filter((o) => o.code === 0).length} landed`,
        };
      }),
      {
        test: `total (${SQUEEZES.map(label).join(', ')})`,
        tries: outcomes.length,
        failures: failures.length,
        note: `exit 0: ${count(0)}, exit 2: ${count(2)}, exit 70: ${count(70)}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
      },
    ]);
    expect(failures).toEqual([]);
  }, 400_000);

  it('temp files of killed restarts are removed by the next plain seed', async () => {
    const s = clone(templates.lifecycle!);
    const rnd = random(2929);
    const reference = await run('conv', RESTART.argv(clone(templates.lifecycle!)), { cwd: s.project });
    const kills = 12;
    for (let i = 0; i < kills; i++) {
      await run('conv', RESTART.argv(s), { cwd: s.project, killAfterMs: Math.floor(reference.ms * (0.3 + 0.8 * rnd())) });
    }
    // Plus the shape the kills make most rarely: a dead writer's temp beside a kept copy of another name.
    // On a slow machine every kill may land before the restart made its migration folder: make it here.
    mkdirSync(s.mig, { recursive: true });
    writeFileSync(join(s.mig, `.working-state.restart-000000000000.json${TEMP_MARK}999999-dead`), '{');
    const temps = () => leftovers(s.tmp).filter((p) => p.includes(TEMP_MARK));
    const before = temps().length;
    const plain = await run('conv', seedArgs(s), { cwd: s.project });
    const after = temps();
    printTable('killed restarts, then a plain seed', [
      {
        test: `${kills} killed restarts + 1 planted dead temp, then seed`,
        tries: 1,
        failures: after.length,
        note: `temp files before ${before}, after ${after.length}`,
      },
    ]);
    expect(plain.code).not.toBe(70);
    expect(after).toEqual([]);
    rmSync(s.tmp, { recursive: true, force: true });
  }, 120_000);
});
