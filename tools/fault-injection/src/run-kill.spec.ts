// SIGKILL of `okstra-convergence run --until-terminal` at seeded step boundaries and inside steps
// (issue 28 "Done when"), each followed by a second `run`: the final state is byte-identical to an
// uninterrupted run's, the working state too (durations aside), `workerDispatches[]` names the same
// dispatches, and every stub provider CLI ran exactly as often as in the uninterrupted run (no
// duplicate dispatch, no lost one). Real tmux on a private socket per case; stubs answer at once.
// The kills use the step trace seam (libs/cli-kit traceStep, docs/environment.md): the run kills
// itself with SIGKILL at the n-th step boundary, or a seeded 1-30 ms after it (inside the next step).
// Default: one kill per step of the run (at its boundary or a seeded delay after it) plus 4 at a
// seeded step and delay; OKSTRA_FI_RUN_KILLS=<n> makes those extra kills n (a bigger sweep, e.g. 400).
// Lean: a case whose kill falls in round 2 or later starts from the state an uninterrupted `run
// --rounds 1` left at that round's start (no process runs between rounds), and cases run in parallel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_ANSWER_STUB, installStubProvider } from '@okstra/team-state/test-support';
import { cleanup, clone, leftovers, pool, printTable, random, run, scenario, type Scenario } from './support.js';

const EXTRA = Number(process.env.OKSTRA_FI_RUN_KILLS ?? 4);
const PARALLEL = 6;

/** Every call of a stub provider appends `<provider> <result path>` to `$HOME/calls`: the dispatches that really ran. */
const STUB = BATCH_ANSWER_STUB.replace('#!/bin/sh\n', '#!/bin/sh\necho "$(basename "$(dirname "$0")") $2" >> "$HOME/calls"\n');

let template: Scenario;
beforeAll(async () => {
  template = scenario();
  const seeded = await run(
    'conv',
    ['seed', '--groups', template.groups, '--work-state', template.work, '--final-state', template.final, '--migration-dir', template.mig],
    {
      cwd: template.project,
    },
  );
  if (seeded.code !== 0) throw new Error(`seed exited ${seeded.code}: ${seeded.stderr}`);
  const home = join(template.tmp, 'home');
  mkdirSync(home);
  for (const id of ['claude', 'codex', 'grok']) installStubProvider(home, id, STUB);
}, 60_000);
afterAll(cleanup);

/** One case's copy of the seeded template, its env (own HOME, own tmux server) and what the run left. */
function kase(from: Scenario, tag: string) {
  const s = clone(from);
  const socket = `okstra-fi-run-${process.pid}-${tag}`;
  const env: NodeJS.ProcessEnv = {
    HOME: join(s.tmp, 'home'),
    OKSTRA_TMUX_SOCKET: socket,
    OKSTRA_TEAM_POLL_MS: '20',
    TMUX: '',
    TMUX_PANE: '',
    STUB_FAIL_FIRST: 'codex',
  };
  const go = (extra: NodeJS.ProcessEnv = {}, how = ['--until-terminal']) =>
    run('conv', ['run', '--project-root', s.project, '--run-manifest', s.manifest, ...how], {
      cwd: s.project,
      env: { ...env, ...extra },
      timeoutMs: 30_000,
    });
  const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : null);
  const outcome = () => ({
    final: read(s.final),
    work: read(s.work)?.replace(/"durationMs": \d+/g, '"durationMs": 0') ?? null,
    dispatches: (JSON.parse(read(s.manifest)!).workerDispatches as Array<{ dispatchKind: string; workerId: string; phase?: string }>).map(
      (d) => `${d.dispatchKind}:${d.workerId}${d.phase ? `:${d.phase}` : ''}`,
    ),
    calls: (read(join(s.tmp, 'home', 'calls')) ?? '')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/ .*\/sample-project\//, ' '))
      .sort(),
    left: leftovers(s.tmp).filter((p) => !p.startsWith('home/')),
    lock: existsSync(s.final.replace(/convergence-final-/, 'run-').replace(/\.json$/, '.lock.json')),
  });
  const done = (keep = false) => {
    spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
    // kill-server leaves the socket file behind: one per case would pile up in the tmux directory.
    rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
    if (!keep) rmSync(s.tmp, { recursive: true, force: true });
  };
  return { s, go, outcome, done };
}

/** Where a case starts: a state at a round's start, and the steps an uninterrupted run from it passes. */
interface Start {
  from: Scenario;
  steps: string[];
}

/** An uninterrupted run from `from` with the step trace: its outcome and steps. */
async function reference(from: Scenario, tag: string) {
  const c = kase(from, tag);
  const trace = join(c.s.tmp, 'trace');
  const r = await c.go({ OKSTRA_STEP_TRACE: trace });
  if (r.code !== 0) throw new Error(`reference run exited ${r.code}: ${r.stderr}`);
  const steps = readFileSync(trace, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t')[1]!);
  const outcome = c.outcome();
  c.done();
  return { outcome, steps };
}

/** The state `run --rounds 1` leaves from `from` (kept as the next start). */
async function afterOneRound(from: Scenario, tag: string): Promise<Scenario> {
  const c = kase(from, tag);
  const r = await c.go({}, ['--rounds', '1']);
  if (r.code !== 0) throw new Error(`run --rounds 1 exited ${r.code}: ${r.stderr}`);
  c.done(true);
  return c.s;
}

describe('SIGKILL of convergence run at seeded step boundaries, then a second run', () => {
  it('ends with the uninterrupted final state, the same dispatches and no provider run twice', async () => {
    const started = Date.now();
    // The uninterrupted run; beside it the states at the start of round 2 and of the gap vote, and runs from them.
    const [ref, later] = await Promise.all([
      reference(template, 'ref'),
      (async () => {
        const r2 = await afterOneRound(template, 'r2');
        const [fromR2, r3] = await Promise.all([reference(r2, 'ref2'), afterOneRound(r2, 'r3')]);
        return { r2, r3, fromR2, fromR3: await reference(r3, 'ref3') };
      })(),
    ]);
    const want = ref.outcome;
    expect(want.final).not.toBeNull();
    expect(want.calls).toHaveLength(5); // claude r1, codex r1 (fails), codex r2 (its retry), the gap vote's two
    // Resuming at a round boundary is itself a resume: the same outcome.
    expect(later.fromR2.outcome).toEqual(want);
    expect(later.fromR3.outcome).toEqual(want);
    const starts: Start[] = [
      { from: template, steps: ref.steps },
      { from: later.r2, steps: later.fromR2.steps },
      { from: later.r3, steps: later.fromR3.steps },
    ];
    const startOf = (step: string): Start => starts[/^(r1 |reverify-r1 |lock$)/.test(step) ? 0 : /^(r2 |reverify-r2 )/.test(step) ? 1 : 2]!;

    // One kill per step (at its boundary, or a seeded delay into the next step), then EXTRA at a seeded step and delay.
    const rnd = random(2828);
    const delay = () => (rnd() < 0.5 ? 0 : 1 + Math.floor(rnd() * 30));
    const kills = [
      ...ref.steps.map((step) => ({ step, ms: delay() })),
      ...Array.from({ length: EXTRA }, () => ({ step: ref.steps[Math.floor(rnd() * ref.steps.length)]!, ms: 1 + Math.floor(rnd() * 30) })),
    ];
    const notes: string[] = [];
    let killed = 0;
    await pool(kills, PARALLEL, async (k, i) => {
      const start = startOf(k.step);
      const at = start.steps.indexOf(k.step) + 1;
      expect(at, k.step).toBeGreaterThan(0);
      const c = kase(start.from, String(i));
      const where = `kill ${k.ms === 0 ? 'at' : `${k.ms} ms after`} '${k.step}'`;
      try {
        const r = await c.go({ OKSTRA_STEP_KILL_AT: `${at}:${k.ms}` });
        if (r.signal === 'SIGKILL' && !r.hung) killed++;
        else if (r.code !== 0) notes.push(`${where}: the killed run exited ${r.code} ${r.hung ? '(hung) ' : ''}${r.stderr.trim().slice(0, 200)}`);
        const again = await c.go();
        if (again.code !== 0) notes.push(`${where}: second run exited ${again.code}${again.hung ? ' (hung)' : ''}: ${again.stderr.trim().slice(0, 300)}`);
        const got = c.outcome();
        if (got.final !== want.final) notes.push(`${where}: final state differs`);
        if (got.work !== want.work) notes.push(`${where}: working state differs`);
        if (got.dispatches.join() !== want.dispatches.join()) notes.push(`${where}: workerDispatches ${got.dispatches.join(', ')}`);
        if (got.calls.join() !== want.calls.join()) notes.push(`${where}: provider calls ${got.calls.join(', ')}`);
        if (got.left.length > 0 || got.lock) notes.push(`${where}: left ${[...got.left, ...(got.lock ? ['the run lock'] : [])].join(', ')}`);
      } finally {
        c.done();
      }
    });
    const covered = new Set(kills.map((k) => k.step));
    printTable('convergence run SIGKILL + resume', [
      {
        test: `kill run --until-terminal at ${kills.length} seeded instants (${kills.filter((k) => k.ms === 0).length} at a step boundary), second run`,
        tries: kills.length,
        failures: notes.length,
        note: `${killed} killed; ${covered.size} of ${ref.steps.length} steps; ${((Date.now() - started) / 1000).toFixed(1)} s`,
      },
    ]);
    expect(notes).toEqual([]);
    expect(covered.size).toBe(ref.steps.length);
    expect(killed).toBeGreaterThanOrEqual(50);
  }, 600_000);
});
