import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cli, ok, REPO, removeTempDirs } from './test-support/bin.js';
import { autopilotProject, FINAL, MANIFEST, RUN, runAutopilot, STATE, WORK, type AutopilotProject } from './test-support/autopilot.js';

const projects: AutopilotProject[] = [];
afterAll(() => {
  for (const p of projects.splice(0)) p.kill();
  removeTempDirs();
});
const project = (env?: NodeJS.ProcessEnv) => {
  const p = autopilotProject(env);
  projects.push(p);
  return p;
};

/**
 * The lead's step-by-step path (prompts/lead/convergence-rounds.md, examples/README.md) on a fresh
 * copy, fed the answers and dispatch outcomes `run` recorded in `done`: plan-round, collect-results,
 * apply-round per round, then collect-critic-gaps, apply-critic-gaps, finalize.
 */
function stepByStep(done: AutopilotProject): AutopilotProject {
  const p = project();
  for (const f of readdirSync(join(done.root, RUN, 'worker-results')).filter((n) => /-(reverify-r\d+|gap-vote)-/.test(n)))
    copyFileSync(join(done.root, RUN, 'worker-results', f), join(p.root, RUN, 'worker-results', f));
  for (let round = 1; ; round++) {
    const plan = `${STATE}/convergence-plan-r${round}-error-analysis-001.json`;
    if (ok(['plan-round', '--work-state', WORK, '--plan', plan], p.root).queueTerminal) break;
    const results = done.json(`${STATE}/convergence-results-r${round}-error-analysis-001.json`);
    const flags = results.workers.flatMap((w: any) => [
      '--dispatch',
      `${w.workerId}=${w.status}:${w.durationMs}`,
      ...(w.status === 'completed' ? ['--result', `${w.workerId}=${RUN}/worker-results/${w.workerId}-reverify-r${round}-error-analysis-001.md`] : []),
    ]);
    const out = `${STATE}/convergence-results-r${round}-error-analysis-001.json`;
    ok(['collect-results', '--plan', plan, '--mode', 'adversarial', ...flags, '--output', out], p.root);
    ok(['apply-round', '--work-state', WORK, '--plan', plan, '--results', out], p.root);
  }
  const batch = done.json(`${STATE}/convergence-coverage-batch-error-analysis-001.json`);
  const gapFlags = batch.dispatches.flatMap((d: any) => [
    '--dispatch',
    `${d.workerId}=${d.status}:${d.durationMs}`,
    ...(d.status === 'completed' ? ['--result', `${d.workerId}=${RUN}/worker-results/${d.workerId}-gap-vote-error-analysis-001.md`] : []),
  ]);
  const out = `${STATE}/convergence-coverage-batch-error-analysis-001.json`;
  ok(
    [
      'collect-critic-gaps',
      '--work-state',
      WORK,
      '--critic-dispatch',
      `grok=${batch.criticDispatch.status}:${batch.criticDispatch.durationMs}`,
      '--critic-results',
      `${STATE}/convergence-critic-results-error-analysis-001.json`,
      ...gapFlags,
      '--output',
      out,
    ],
    p.root,
  );
  ok(['apply-critic-gaps', '--work-state', WORK, '--results', out], p.root);
  ok(['finalize', '--work-state', WORK, '--output', FINAL], p.root);
  return p;
}

describe('okstra-convergence run --until-terminal (stub provider CLIs, real tmux panes)', () => {
  it('a refused response gets its one repair dispatch and is read; no failure is counted (issue #25 item 4)', () => {
    const p = project({ STUB_FAIL_FIRST: '', STUB_HEDGE_FIRST: 'claude' });
    const r = runAutopilot(p, ['--rounds', '1']);
    expect(r.code, r.stderr).toBe(0);
    const round = JSON.parse(r.stdout).rounds[0];
    expect(round.workers.map((w: any) => `${w.workerId}:${w.status}`)).toEqual(['claude:completed', 'codex:completed']);
    expect(round.repairs).toEqual([{ workerId: 'claude', dispatchKind: 'repair-reverify-r1', outcome: 'read' }]);
    expect(p.json(MANIFEST).workerDispatches.map((d: any) => `${d.dispatchKind}:${d.workerId}`)).toEqual([
      'reverify-r1:claude',
      'reverify-r1:codex',
      'repair-reverify-r1:claude',
    ]);
    expect(p.read(`${RUN}/prompts/claude-prompt-repair-reverify-r1-error-analysis-001.md`)).toContain('**Verdict**: SURVIVES, probably');
    expect(p.json(`${STATE}/convergence-results-r1-error-analysis-001.json`).workers[0].repair).toEqual({
      dispatchKind: 'repair-reverify-r1',
      outcome: 'read',
    });
    expect(
      p
        .json(WORK)
        .derived.workers.filter((w: any) => ['claude', 'codex'].includes(w.workerId))
        .map((w: any) => w.failures),
    ).toEqual([0, 0]);
    expect(p.json(`${STATE}/team-state-error-analysis-001.json`).workers.find((w: any) => w.workerId === 'claude')).toMatchObject({ failures: 0 });
  }, 120_000);

  it('a refused gap vote gets its one repair dispatch inside run and is read; the vote is applied, no failure counted (issue #28 item 1)', () => {
    const hedged = { STUB_FAIL_FIRST: '', STUB_HEDGE_FIRST: 'claude', STUB_HEDGE_IN: 'gap-vote' };
    const p = project(hedged);
    const trace = join(p.home, 'trace');
    const r = runAutopilot(p, ['--until-terminal'], undefined, { OKSTRA_STEP_TRACE: trace });
    expect(r.code, r.stderr).toBe(0);
    const steps = readFileSync(trace, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[1]!);
    const from = steps.indexOf('gap-vote teardown');
    const to = steps.indexOf('gap-repair teardown');
    expect(steps.slice(from, to + 1).filter((x) => x.startsWith('gap-'))).toEqual([
      'gap-vote teardown',
      'gap-repair dispatch',
      'gap-repair await',
      'gap-repair teardown',
    ]);
    const out = JSON.parse(r.stdout);
    expect(out.rounds.flatMap((x: any) => x.repairs)).toEqual([]);
    expect(out.critic.repairs).toEqual([{ workerId: 'claude', dispatchKind: 'repair-gap-vote', outcome: 'read' }]);
    expect(out.critic.workers.map((w: any) => `${w.workerId}:${w.status}`)).toEqual(['claude:completed', 'codex:completed']);
    expect(out.final).toMatchObject({ validated: true });
    const dispatched = p.json(MANIFEST).workerDispatches.map((d: any) => `${d.dispatchKind}:${d.workerId}`);
    expect(dispatched.filter((k: string) => !k.startsWith('reverify-'))).toEqual(['gap-vote:claude', 'gap-vote:codex', 'repair-gap-vote:claude']);
    expect(p.read(`${RUN}/prompts/claude-prompt-repair-gap-vote-error-analysis-001.md`)).toContain('**Verdict**: SURVIVES, probably');
    const batch = p.json(`${STATE}/convergence-coverage-batch-error-analysis-001.json`);
    expect(batch.dispatches.map((d: any) => [d.workerId, d.status, d.repair ?? null])).toEqual([
      ['claude', 'completed', { dispatchKind: 'repair-gap-vote', outcome: 'read' }],
      ['codex', 'completed', null],
    ]);
    expect(batch.gaps.every((g: any) => g.votes.some((v: any) => v.workerId === 'claude'))).toBe(true);
    const work = p.json(WORK);
    expect(work.criticBatch).not.toBeNull();
    expect(work.derived.workers.filter((w: any) => ['claude', 'codex'].includes(w.workerId)).map((w: any) => w.failures)).toEqual([0, 0]);
    expect(p.json(`${STATE}/team-state-error-analysis-001.json`).workers.find((w: any) => w.workerId === 'claude')).toMatchObject({ failures: 0 });
    // A second run on the finished state dispatches nothing: the repair is never dispatched twice.
    const again = runAutopilot(p, ['--until-terminal']);
    expect(again.code, again.stderr).toBe(0);
    expect(p.json(MANIFEST).workerDispatches).toHaveLength(dispatched.length);

    // Killed (SIGKILL) inside the repair's dispatch (its row in progress, no pane yet), a second run
    // relaunches it once and ends as the uninterrupted one: the same final state and dispatches
    // (tools/fault-injection run-kill.spec.ts sweeps every step of the plain run).
    const at = steps.indexOf('repair-gap-vote dispatch rows-in-progress', from) + 1;
    expect(at).toBeGreaterThan(from + 1);
    const k = project(hedged);
    expect(runAutopilot(k, ['--until-terminal'], undefined, { OKSTRA_STEP_KILL_AT: String(at) }).code).toBe(128);
    const resumed = runAutopilot(k, ['--until-terminal']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(k.json(MANIFEST).workerDispatches.map((d: any) => `${d.dispatchKind}:${d.workerId}`)).toEqual(dispatched);
    expect(k.read(FINAL)).toBe(p.read(FINAL));
  }, 180_000);

  it('a gap vote refused again after its repair is collected as error with no votes; run still ends validated, one repair dispatched', () => {
    const p = project({ STUB_FAIL_FIRST: '', STUB_HEDGE_FIRST: 'claude', STUB_HEDGE_IN: 'gap-vote', STUB_HEDGE_AGAIN: '1' });
    const r = runAutopilot(p, ['--until-terminal']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.critic.repairs).toEqual([{ workerId: 'claude', dispatchKind: 'repair-gap-vote', outcome: 'refused' }]);
    expect(out.critic.workers.map((w: any) => [w.workerId, w.status, w.reason])).toEqual([
      ['claude', 'error', 'repair refused'],
      ['codex', 'completed', null],
    ]);
    expect(out.critic.workers[0].refused).toMatch(/SURVIVES, probably/);
    expect(out.final).toMatchObject({ validated: true });
    const dispatched = p.json(MANIFEST).workerDispatches.map((d: any) => `${d.dispatchKind}:${d.workerId}`);
    expect(dispatched.filter((k: string) => k.startsWith('repair-'))).toEqual(['repair-gap-vote:claude']);
    const batch = p.json(`${STATE}/convergence-coverage-batch-error-analysis-001.json`);
    expect(batch.dispatches[0]).toMatchObject({ workerId: 'claude', status: 'error', repair: { dispatchKind: 'repair-gap-vote', outcome: 'refused' } });
    expect(batch.gaps.some((g: any) => g.votes.some((v: any) => v.workerId === 'claude'))).toBe(false);
  }, 180_000);

  it('on a real terminal (script(1) pty) each step shows once, as a live line; --quiet shows none', () => {
    const p = project();
    const shell = (extra: string) =>
      spawnSync(
        'script',
        ['-qec', `'${process.execPath}' '${BIN}' run --project-root . --run-manifest '${MANIFEST}' --until-terminal ${extra} > out.json`, '/dev/null'],
        { cwd: p.root, env: p.env, encoding: 'utf8', timeout: 180_000 },
      );
    const r = shell('');
    expect(r.status, r.stdout).toBe(0);
    // What the terminal got: live-line rewrites (\r + clear line) and line ends split it into the shown lines.
    const shown = r.stdout
      .split('\r\x1b[K')
      .flatMap((l) => l.split(/\r?\n/))
      .filter((l) => l.trim() !== '');
    const steps = shown.filter((l) => / round \d+ applied: | round \d+: | ended\)$|final state validated/.test(l));
    expect(new Set(steps).size).toBe(steps.length);
    expect(steps.filter((l) => / applied: /.test(l))).toHaveLength(2);
    expect(r.stdout).not.toMatch(/applied: \{/);
    expect(JSON.parse(p.read('out.json')).final.validated).toBe(true);
    const q = project();
    const quiet = spawnSync(
      'script',
      ['-qec', `'${process.execPath}' '${BIN}' run --project-root . --run-manifest '${MANIFEST}' --until-terminal --quiet > out.json`, '/dev/null'],
      {
        cwd: q.root,
        env: q.env,
        encoding: 'utf8',
        timeout: 180_000,
      },
    );
    // --quiet: no progress (a warning such as teardown's "left … running" may still show)
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).not.toMatch(/round \d|ended\)|final state validated/);
  }, 300_000);

  it('takes the seeded sample to a validated final state through a failure and its retry round, as the step-by-step path does', () => {
    const p = project();
    const r = runAutopilot(p, ['--until-terminal']);
    expect(r.code, r.stderr).toBe(0);
    // Not a terminal: one plain line per step on stderr, none twice, no raw JSON (stdout alone is data).
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines.every((l) => l.startsWith('okstra-convergence: '))).toBe(true);
    expect(new Set(lines).size).toBe(lines.length);
    expect(r.stderr).not.toMatch(/[{}]/);
    expect(lines.filter((l) => / round \d+(:| applied:)/.test(l))).toEqual([
      'okstra-convergence: round 1: claude re-verifies 5 finding(s), codex re-verifies 6 finding(s)',
      'okstra-convergence: round 1 applied: 8 agreed, 6 pending',
      'okstra-convergence: round 2: codex re-verifies 6 finding(s) (retry)',
      'okstra-convergence: round 2 applied: 14 agreed',
    ]);
    expect(lines.filter((l) => /reverify-r1: /.test(l)).sort()).toEqual([
      expect.stringMatching(/^okstra-convergence: reverify-r1: claude completed \([12] of 2 ended\)$/),
      expect.stringMatching(/^okstra-convergence: reverify-r1: codex error \([12] of 2 ended\)$/),
    ]);
    expect(lines.at(-1)).toBe(`okstra-convergence: final state validated: ${FINAL}`);
    const out = JSON.parse(r.stdout);
    expect(out.rounds.map((x: any) => [x.round, x.workers.map((w: any) => `${w.workerId}:${w.status}${w.retry ? ':retry' : ''}`)])).toEqual([
      [1, ['claude:completed', 'codex:error']],
      [2, ['codex:completed:retry']],
    ]);
    expect(out.final).toMatchObject({ path: join(p.root, FINAL), validated: true, counts: { total: 17, contested: 0 } });
    expect(cli(['validate', '--state', FINAL, '--kind', 'final'], p.root).code).toBe(0);

    // workerDispatches[]: exactly the planned batches (round 2 is codex's retry) plus the critic's gap vote.
    const dispatched = p.json(MANIFEST).workerDispatches.map((d: any) => `${d.dispatchKind}:${d.workerId}`);
    const planned = [1, 2].flatMap((n) =>
      p.json(`${STATE}/convergence-plan-r${n}-error-analysis-001.json`).batches.map((b: any) => `reverify-r${n}:${b.workerId}`),
    );
    expect(dispatched).toEqual([...planned, 'gap-vote:claude', 'gap-vote:codex']);
    expect(planned).toEqual(['reverify-r1:claude', 'reverify-r1:codex', 'reverify-r2:codex']);

    // Every prompt was rendered where libs/paths says, the worker texts pasted verbatim.
    const prompt = p.read(`${RUN}/prompts/codex-prompt-reverify-r2-error-analysis-001.md`);
    expect(prompt).toMatch(/^# Convergence re-verification, round 2: codex\n\nBatch: F-/);
    for (const text of ['reverify-adversarial', 'audit-sidecar'])
      expect(prompt).toContain(readFileSync(join(REPO, 'prompts/workers', `${text}.md`), 'utf8').trimEnd());

    // The same answers through the lead's step-by-step path give the same final state, byte for byte.
    const manual = stepByStep(p);
    expect(manual.read(FINAL)).toBe(p.read(FINAL));
    expect(manual.read(WORK)).toBe(p.read(WORK));
  }, 180_000);

  it('a second run on a finished state dispatches nothing and changes nothing; a live run lock is refused (exit 2)', () => {
    const p = project({ STUB_FAIL_FIRST: '' });
    expect(runAutopilot(p, ['--until-terminal']).code).toBe(0);
    const before = p.read(MANIFEST);
    const again = runAutopilot(p, ['--until-terminal']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).rounds).toEqual([]);
    expect(p.read(MANIFEST)).toBe(before);
    // A lock held by a live process (this test's own pid) refuses the run and writes nothing.
    const lock = join(p.root, STATE, 'run-error-analysis-001.lock.json');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, pidStartTime: null, startedAt: '2026-01-01T00:00:00Z', command: 'okstra convergence run' }));
    const refused = runAutopilot(p, ['--rounds', '1']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/another okstra convergence run \(pid \d+/);
    expect(existsSync(lock)).toBe(true);
  }, 180_000);

  it('a worker past the round deadline: exit 1, the round applied and the state valid; a second run resumes to a validated final state', () => {
    const p = project({ STUB_FAIL_FIRST: '', STUB_SLEEP: '2' });
    const late = runAutopilot(p, ['--rounds', '1', '--deadline', '0.01']);
    expect(late.code, late.stderr).toBe(1);
    const out = JSON.parse(late.stdout);
    expect(out.deadlinePassed).toBe(true);
    expect(out.rounds[0].workers.map((w: any) => [w.workerId, w.status, w.reason])).toEqual([
      ['claude', 'timeout', 'deadline of 0.01 min exceeded'],
      ['codex', 'timeout', 'deadline of 0.01 min exceeded'],
    ]);
    expect(p.json(WORK).derived.round).toBe(1);
    expect(cli(['validate', '--state', WORK, '--kind', 'working'], p.root).code).toBe(0);
    p.env.STUB_SLEEP = '0';
    const resumed = runAutopilot(p, ['--until-terminal']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(
      JSON.parse(resumed.stdout).rounds.map((r: any) => [r.round, r.workers.map((w: any) => `${w.workerId}:${w.status}${w.retry ? ':retry' : ''}`)]),
    ).toEqual([[2, ['claude:completed:retry', 'codex:completed:retry']]]);
    expect(cli(['validate', '--state', FINAL, '--kind', 'final'], p.root).code).toBe(0);
  }, 180_000);

  it('the run lock: a second run is exit 2 while the first lives, and takes the lock over once it was killed', async () => {
    const p = project({ STUB_FAIL_FIRST: '', STUB_SLEEP: '2' });
    const lock = join(p.root, STATE, 'run-error-analysis-001.lock.json');
    const first = spawn(process.execPath, [BIN, 'run', '--project-root', '.', '--run-manifest', MANIFEST, '--rounds', '1'], {
      cwd: p.root,
      env: p.env,
      stdio: 'ignore',
    });
    for (let i = 0; i < 200 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 25));
    const held = readFileSync(lock, 'utf8');
    expect(JSON.parse(held).pid).toBe(first.pid);
    const refused = runAutopilot(p, ['--rounds', '1']);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(new RegExp(`another okstra convergence run \\(pid ${first.pid}, since `))]);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(lock, 'utf8')).toBe(held);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    expect(readFileSync(lock, 'utf8')).toBe(held); // a killed run leaves its lock
    const taken = runAutopilot(p, ['--rounds', '1']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(JSON.parse(taken.stdout).rounds.map((r: any) => r.round)).toEqual([1]);
    expect(existsSync(lock)).toBe(false);
  }, 180_000);

  it('refuses bad input with exit 2 and one line: no working state, bad --rounds, --rounds with --until-terminal', () => {
    const p = project();
    for (const args of [
      ['--rounds', '0'],
      ['--rounds', '2', '--until-terminal'],
      ['--deadline', 'soon'],
    ]) {
      const r = runAutopilot(p, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    rmSync(join(p.root, WORK));
    const unseeded = runAutopilot(p, ['--rounds', '1']);
    expect([unseeded.code, unseeded.stderr]).toEqual([
      2,
      expect.stringMatching(/^okstra-convergence: .*convergence-work-error-analysis-001\.json: no working state: seed it first/),
    ]);
    expect(unseeded.stderr.trim().split('\n')).toHaveLength(1);
  });
});
