// `team dispatch` and `team exec` on a full disk (issue 29), with real tmux on a
// private server per try. dispatch: every pane tmux lists for the run is one the
// manifest records (`starting` or started) — never a running worker nothing
// records; exit 2 only when no pane started; never 70. exec: exit 2 only when the
// provider never started (then nothing changed); after it ran, exit 1 naming what
// could not be written; never 70.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { teamJobPath } from '@okstra/paths';
import { changed, cleanup, clone, EA, leftovers, pool, prepare, printTable, run, scenario, snapshot, type Scenario } from './support.js';
import { canMountTmpfs, TinyDisk, type Squeeze } from './tiny-disk.js';

const TMPFS = canMountTmpfs();
const SQUEEZES: Squeeze[] = [
  ...(TMPFS ? [0, 4096, 8192, 16 * 1024, 32 * 1024, 64 * 1024].map((free) => ({ kind: 'bytes', free }) as Squeeze) : []),
  ...(TMPFS ? [0, 1, 2, 4].map((free) => ({ kind: 'inodes', free }) as Squeeze) : []),
  ...[0, 2, 8, 16].map((blocks) => ({ kind: 'fsize', blocks }) as Squeeze),
];
const label = (q: Squeeze) => (q.kind === 'fsize' ? `ulimit -f ${q.blocks}` : q.kind === 'bytes' ? `${q.free / 1024} KiB free` : `${q.free} inodes free`);
const WORKERS = ['codex', 'grok'];

let template: Scenario;
let stubs: string;
beforeAll(async () => {
  template = scenario();
  await prepare(template);
  // The sample run's cli-wrapper workers, ready for a first dispatch: no records, rows pending.
  const m = JSON.parse(readFileSync(template.manifest, 'utf8'));
  writeFileSync(template.manifest, JSON.stringify({ ...m, workerDispatches: [] }, null, 2));
  const t = JSON.parse(readFileSync(template.teamState, 'utf8'));
  for (const w of t.workers)
    if (WORKERS.includes(w.workerId)) Object.assign(w, { status: 'pending', startedAt: null, endedAt: null, reason: null, attempt: 0 });
  writeFileSync(template.teamState, JSON.stringify(t, null, 2));
  // Provider CLIs on PATH: they read the prompt and end (exec's verdict is then `error`, result missing).
  stubs = mkdtempSync(join(tmpdir(), 'okstra-fi-stubs-'));
  for (const cli of WORKERS) {
    writeFileSync(join(stubs, cli), '#!/bin/sh\ncat > /dev/null\necho stub done\n');
    chmodSync(join(stubs, cli), 0o755);
  }
}, 300_000);
afterAll(() => {
  rmSync(stubs, { recursive: true, force: true });
  cleanup();
});

const tmux = (socket: string, args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const envOf = (s: Scenario, socket: string) => ({ HOME: s.tmp, PATH: `${stubs}:${process.env.PATH}`, OKSTRA_TMUX_SOCKET: socket, TMUX: '', TMUX_PANE: '' });
const dispatchArgs = (s: Scenario) => ['dispatch', '--project-root', s.project, '--run-manifest', s.manifest];

/** `<job file name> <startedAt>` of every okstra pane of the private server. */
function paneKeys(socket: string): string[] {
  const r = tmux(socket, ['list-panes', '-a', '-F', '#{@okstra-job} #{@okstra-started}']);
  return r.status === 0 ? r.stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith(' ')) : [];
}

/** The same keys for the manifest's records of started or starting workers. */
function recordKeys(s: Scenario): string[] {
  const m = JSON.parse(readFileSync(s.manifest, 'utf8'));
  return m.workerDispatches
    .filter((r: { phase?: string }) => r.phase !== 'not-started')
    .map((r: { jobPath: string; startedAt: string }) => `${basename(r.jobPath)} ${r.startedAt}`);
}

interface Outcome {
  what: string;
  code: number | null;
  failure?: string;
}

async function attackDispatch(q: Squeeze, n: number): Promise<Outcome> {
  const disk = new TinyDisk();
  const socket = `okstra-fi-df-${process.pid}-${n}`;
  try {
    const s = clone(template, join(disk.root, 's'));
    const env = envOf(s, socket);
    const before = snapshot(s.tmp);
    disk.squeeze(q);
    const r = await run('team', dispatchArgs(s), { cwd: s.project, env, wrap: (a) => disk.wrap(a), timeoutMs: 30_000 });
    const out: Outcome = { what: `dispatch @ ${label(q)}`, code: r.code };
    const fail = (why: string) => (out.failure ??= `${out.what}: ${why}`);
    const err = r.stderr.trim().split('\n').pop() ?? '';
    if (r.hung || ![0, 1, 2].includes(r.code ?? -1)) fail(`exit ${r.code ?? r.signal}: ${err.slice(0, 200)}`);
    if (/\n\s+at \S/.test(r.stderr)) fail('stack trace');
    const panes = paneKeys(socket);
    const records = recordKeys(s);
    const unrecorded = panes.filter((p) => !records.includes(p));
    if (unrecorded.length) fail(`panes nothing records: ${unrecorded.join(', ')}`);
    if (r.code === 2 && panes.length) fail(`exit 2 but ${panes.length} pane(s) started`);
    // issue 41: an exit 2 leaves nothing — no job file, no record, no run lock.
    if (r.code === 2) {
      const diff = changed(before, snapshot(s.tmp));
      if (diff.length) fail(`exit 2 but changed ${diff.join(', ')}`);
    }
    if (r.code === 0 && records.length !== WORKERS.length) fail(`exit 0 with ${records.length} records`);
    const left = leftovers(s.tmp);
    if (left.length) fail(`left ${left.join(', ')}`);
    if (process.env.FI_DEBUG) process.stderr.write(`${out.what}: exit ${r.code}, ${panes.length} panes, ${records.length} records; ${err.slice(0, 160)}\n`);
    return out;
  } finally {
    tmux(socket, ['kill-server']);
    disk.dispose();
  }
}

async function attackExec(q: Squeeze): Promise<Outcome> {
  const disk = new TinyDisk();
  try {
    const s = clone(template, join(disk.root, 's'));
    // A job file as dispatch writes it, its row in-progress for it: from a dry-run's plan, written by hand.
    const job = teamJobPath(s.ea, 'initial', 'codex', EA);
    const startedAt = '2026-11-30T10:00:00.000Z';
    const t = JSON.parse(readFileSync(s.teamState, 'utf8'));
    const row = t.workers.find((w: { workerId: string }) => w.workerId === 'codex');
    Object.assign(row, { status: 'in-progress', startedAt, attempt: 1 });
    writeFileSync(s.teamState, JSON.stringify(t, null, 2));
    const prompt = join(s.ea, 'prompts', 'codex-prompt-error-analysis-001.md');
    const result = join(s.ea, 'worker-results', 'codex-fi-disk-full.md');
    mkdirSync(join(s.ea, 'state', 'team-jobs'), { recursive: true });
    writeFileSync(
      job,
      JSON.stringify({
        schemaVersion: '1.0',
        dispatchKind: 'initial',
        workerId: 'codex',
        provider: 'codex',
        role: 'analyser',
        model: 'gpt-5.5',
        projectRoot: s.project,
        teamStatePath: s.teamState,
        promptPath: prompt,
        resultPath: result,
        completionPaths: [result],
        promptDelivery: 'stdin',
        command: { file: join(stubs, 'codex'), args: [] },
        rowStartedAt: startedAt,
      }),
    );
    const before = snapshot(s.tmp);
    disk.squeeze(q);
    const r = await run('team', ['exec', '--job', job], { cwd: s.project, wrap: (a) => disk.wrap(a), timeoutMs: 30_000 });
    const out: Outcome = { what: `exec @ ${label(q)}`, code: r.code };
    const fail = (why: string) => (out.failure ??= `${out.what}: ${why}`);
    const err = r.stderr.trim().split('\n').pop() ?? '';
    if (r.hung || ![1, 2].includes(r.code ?? -1)) fail(`exit ${r.code ?? r.signal}: ${err.slice(0, 200)}`);
    if (/\n\s+at \S/.test(r.stderr)) fail('stack trace');
    if (r.code === 2) {
      const diff = changed(before, snapshot(s.tmp));
      if (diff.length) fail(`exit 2 but changed ${diff.join(', ')}`);
      if (r.stdout.includes('stub done')) fail('exit 2 after the provider ran');
    }
    // issue 41: a launch that never started leaves no transcript of its own (the status sidecar says why).
    const log = join(s.ea, 'prompts', 'codex-prompt-error-analysis-001.log');
    if (r.code === 1 && !r.stdout.includes('stub done') && changed(before, snapshot(s.tmp)).some((k) => join(s.tmp, k) === log))
      fail('exit 1 for a launch that never started, and its .log stayed');
    const left = leftovers(s.tmp);
    if (left.length) fail(`left ${left.join(', ')}`);
    if (process.env.FI_DEBUG) process.stderr.write(`${out.what}: exit ${r.code}; ${err.slice(0, 160)}\n`);
    return out;
  } finally {
    disk.dispose();
  }
}

describe('team dispatch and exec on a full disk', () => {
  it('dispatch never leaves a pane unrecorded (tmux pane list vs manifest); exec is 2 only before the provider runs; never 70', async () => {
    const started = Date.now();
    const outcomes = [...(await pool(SQUEEZES, 2, (q, i) => attackDispatch(q, i))), ...(await pool(SQUEEZES, 2, (q) => attackExec(q)))];
    const failures = outcomes.flatMap((o) => (o.failure ? [o.failure] : []));
    for (const f of failures) process.stderr.write(`FAIL ${f}\n`);
    const tally = (prefix: string) => {
      const mine = outcomes.filter((o) => o.what.startsWith(prefix));
      const codes = [0, 1, 2, 70].map((c) => `${c}: ${mine.filter((o) => o.code === c).length}`).join(', ');
      return {
        test: `${prefix} (${SQUEEZES.map(label).join(', ')})`,
        tries: mine.length,
        failures: mine.filter((o) => o.failure).length,
        note: `exit ${codes}`,
      };
    };
    printTable(
      `team on a full disk (${TMPFS ? 'tmpfs + ulimit -f' : 'ulimit -f only: no tmpfs mount here'}; ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      [tally('dispatch'), tally('exec')],
    );
    expect(failures).toEqual([]);
  }, 400_000);
});
