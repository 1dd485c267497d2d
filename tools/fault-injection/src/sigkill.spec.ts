// SIGKILL at seeded random instants across the writer commands, multi-file
// `seed --restart-from-round0` with a check across its files. After every kill:
// each output holds its old bytes or the complete new ones (0 torn, 0 mixed),
// the two-file state is one a plain seed reads correctly, and an uninterrupted
// rerun lands the new bytes (0 lost) and leaves no temp file or lock behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { cleanup, clone, leftovers, pool, printTable, random, run, type Scenario } from './support.js';
import { RESTART, WRITERS, writerTemplates, type Writer } from './writers.js';

/**
 * Kills per single-file writer, and three times that for the multi-file restart: 8 by default (96 in
 * all, each a kill plus a rerun) keeps CI's share small; `OKSTRA_FI_KILLS=20` is the few-hundred sweep.
 */
const PER_WRITER = Number(process.env.OKSTRA_FI_KILLS ?? 8);
const RESTART_KILLS = PER_WRITER * 3;

let templates: Partial<Record<Writer['template'], Scenario>> = {};
beforeAll(async () => {
  templates = await writerTemplates();
}, 300_000);
afterAll(cleanup);

// Times a command records (`startedAt` of a transition) differ run to run: compared as `<time>`.
const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>') : null);

interface Tally {
  tries: number;
  kills: number;
  torn: number;
  mixed: number;
  lost: number;
  leftovers: number;
  crossFile: number;
  hangs: number;
  exit70: number;
  notes: string[];
}

function note(t: Tally, key: 'mixed' | 'crossFile' | 'leftovers', text: string): void {
  t[key]++;
  t.notes.push(text);
}

async function fuzz(w: Writer, trials: number, seed: number): Promise<Tally> {
  const template = templates[w.template]!;
  // The new bytes, from one uninterrupted run on a copy (paths re-rooted per trial).
  const ref = clone(template);
  w.setup?.(ref);
  const refRun = await run(w.bin, w.argv(ref), { cwd: ref.project });
  if (refRun.code !== 0) throw new Error(`${w.name}: reference run exited ${refRun.code}: ${refRun.stderr}`);
  const refOut = w.outputs(ref).map(read);
  const rnd = random(seed);
  const delays = Array.from({ length: trials }, () => Math.floor(refRun.ms * (0.2 + 0.85 * rnd())));
  const t: Tally = { tries: trials, kills: 0, torn: 0, mixed: 0, lost: 0, leftovers: 0, crossFile: 0, hangs: 0, exit70: 0, notes: [] };
  await pool(delays, 4, async (delay) => {
    const s = clone(template);
    w.setup?.(s);
    const outs = w.outputs(s);
    const old = outs.map(read);
    const fresh = refOut.map((b) => (b === null ? null : b.split(ref.tmp).join(s.tmp)));
    const r = await run(w.bin, w.argv(s), { cwd: s.project, killAfterMs: delay });
    if (r.signal === 'SIGKILL' && !r.hung) t.kills++;
    if (r.hung) t.hangs++;
    if (r.code === 70) t.exit70++;
    const now = outs.map(read);
    now.forEach((bytes, i) => {
      if (bytes === null) {
        if (old[i] !== null && w.crossCheck === undefined) note(t, 'mixed', `${w.name}: ${outs[i]} vanished`);
        return;
      }
      try {
        JSON.parse(bytes);
      } catch {
        t.torn++;
        return;
      }
      if (bytes !== old[i] && bytes !== fresh[i]) note(t, 'mixed', `${w.name}: ${outs[i]} is neither old nor new`);
    });
    const cross = w.crossCheck?.(s, now, old);
    if (cross) note(t, 'crossFile', `${w.name}: ${cross}`);
    // The next writer of these files: the new bytes land (a writer that is not idempotent, like apply-round,
    // refuses when the killed one had already landed) and it cleans what the killed one left (its lock).
    const landed = now.every((b, i) => b === fresh[i]);
    const again = await run(w.bin, w.argv(s), { cwd: s.project });
    const after = outs.map(read);
    if ((!landed && again.code !== 0) || again.code === 70 || after.some((b, i) => b !== fresh[i])) {
      t.lost++;
      t.notes.push(`${w.name}: rerun exit ${again.code} ${again.stderr.trim().slice(0, 160)}`);
    }
    const left = leftovers(s.tmp);
    if (left.length) note(t, 'leftovers', `${w.name}: left ${left.join(', ')}`);
    rmSync(s.tmp, { recursive: true, force: true });
  });
  return t;
}

describe('SIGKILL at random instants', () => {
  it('leaves 0 torn, 0 mixed, 0 lost, no leftovers, every multi-file state readable', async () => {
    const tallies: Array<[string, Tally]> = [];
    for (const [i, w] of WRITERS.entries()) tallies.push([w.name, await fuzz(w, PER_WRITER, 1000 + i)]);
    tallies.push([RESTART.name, await fuzz(RESTART, RESTART_KILLS, 4242)]);
    const sum = (k: keyof Tally) => tallies.reduce((n, [, t]) => n + (t[k] as number), 0);
    printTable('SIGKILL fuzz', [
      ...tallies.map(([name, t]) => ({
        test: `kill ${name}`,
        tries: t.tries,
        failures: t.torn + t.mixed + t.lost + t.leftovers + t.crossFile + t.hangs + t.exit70,
        note: `${t.kills} killed mid-run`,
      })),
      {
        test: 'total: torn / mixed / lost / leftovers / cross-file / hangs / exit 70',
        tries: sum('tries'),
        failures: sum('torn') + sum('mixed') + sum('lost') + sum('leftovers') + sum('crossFile') + sum('hangs') + sum('exit70'),
        note: `${sum('torn')} / ${sum('mixed')} / ${sum('lost')} / ${sum('leftovers')} / ${sum('crossFile')} / ${sum('hangs')} / ${sum('exit70')}; ${sum('kills')} killed mid-run`,
      },
    ]);
    expect(tallies.flatMap(([, t]) => t.notes)).toEqual([]);
    expect(sum('torn') + sum('mixed') + sum('lost') + sum('leftovers') + sum('crossFile') + sum('hangs') + sum('exit70')).toBe(0);
  }, 600_000);
});
