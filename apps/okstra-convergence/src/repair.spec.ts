// issue #25 item 4: `collect-results --repair` — a refused answer gets one repair dispatch (its
// prompt and jobs file, nothing else written, still exit 2), the restated answer is read, a second
// refusal or a failed repair is collected as `error`; the roster's failures never count a repair.
import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jobsFileArtifact } from '@okstra/schemas/jobs-file';
import { parseArtifact } from '@okstra/state-file';
import { cli, copyExamples, exampleDir, ok, removeTempDirs, seedAndPlan, snapshot, workerFlags } from './test-support/bin.js';

afterAll(removeTempDirs);

const read = (p: string) => readFileSync(p, 'utf8');
const SUFFIX = 'error-analysis-001';

/** A copy of the examples/ run seeded and planned for round 1, both analysers' rows recorded as that round's dispatch. */
function roundOne() {
  const run = copyExamples();
  const st = (name: string) => join(run, 'state', name);
  const wr = (name: string) => join(run, 'worker-results', name);
  const work = st(`convergence-work-${SUFFIX}.json`);
  const plan = st(`convergence-plan-r1-${SUFFIX}.json`);
  const output = st(`convergence-results-r1-${SUFFIX}.json`);
  const teamState = st(`team-state-${SUFFIX}.json`);
  ok([
    'seed',
    '--groups',
    st(`convergence-groups-${SUFFIX}.json`),
    '--work-state',
    work,
    '--final-state',
    st(`convergence-final-${SUFFIX}.json`),
    '--migration-dir',
    st('mig'),
  ]);
  ok(['plan-round', '--work-state', work, '--plan', plan]);
  const setRow = (id: string, patch: Record<string, unknown>) => {
    const doc = JSON.parse(read(teamState));
    Object.assign(
      doc.workers.find((w: { workerId: string }) => w.workerId === id),
      patch,
    );
    writeFileSync(teamState, JSON.stringify(doc, null, 2));
  };
  for (const id of ['claude', 'codex']) setRow(id, { dispatchKind: 'reverify-r1', status: 'completed', failures: 0 });
  const answer = read(wr(`codex-reverify-r2-${SUFFIX}.md`)); // F-004…F-009, the codex batch of round 1
  const codexResult = wr(`codex-reverify-r1-${SUFFIX}.md`);
  const hedged = answer.replace(/Verdict: SURVIVES(\r?\n)Basis: `timeout-sweeper\.ts:23`/, 'Verdict: SURVIVES, probably$1Basis: `timeout-sweeper.ts:23`');
  expect(hedged).not.toBe(answer);
  writeFileSync(codexResult, hedged);
  const collect = (extra: string[], dispatch = 'codex=completed:300000', result = true) =>
    cli([
      'collect-results',
      '--plan',
      plan,
      '--result',
      `claude=${wr(`claude-reverify-r1-${SUFFIX}.md`)}`,
      ...(result ? ['--result', `codex=${codexResult}`] : []),
      '--dispatch',
      'claude=completed:520000',
      '--dispatch',
      dispatch,
      '--output',
      output,
      ...extra,
    ]);
  return { run, st, work, plan, output, answer, hedged, codexResult, setRow, collect };
}

describe('collect-results --repair (docs/convergence.md "Repair dispatch")', () => {
  it('a refused answer: exit 2 with every problem; only the repair prompt and the repair jobs file are written, the same bytes again', () => {
    const r = roundOne();
    const before = snapshot(r.run);
    const plain = r.collect([]);
    expect(plain.code).toBe(2);
    expect(snapshot(r.run)).toEqual(before);

    const first = r.collect(['--repair']);
    expect(first.code, first.stderr).toBe(2);
    expect(first.stderr).toMatch(/worker codex: finding F-004: /);
    const prompt = r.st(`../prompts/codex-prompt-repair-reverify-r1-${SUFFIX}.md`);
    const jobs = r.st(`repair-jobs-reverify-r1-${SUFFIX}.json`);
    const after = snapshot(r.run);
    const added = Object.keys(after).filter((k) => !(k in before));
    expect(added.sort()).toEqual([`prompts/codex-prompt-repair-reverify-r1-${SUFFIX}.md`, `state/repair-jobs-reverify-r1-${SUFFIX}.json`]);
    expect(Object.keys(before).filter((k) => after[k] !== before[k])).toEqual([]);
    const out = JSON.parse(first.stdout);
    expect(out).toMatchObject({
      refused: ['codex'],
      repair: { dispatchKind: 'repair-reverify-r1', jobsFile: jobs, workers: [{ workerId: 'codex', promptPath: prompt }] },
    });
    // The line to type, whole: a bare `--jobs-file` hint, pasted, was exit 2 (no --project-root / --run-manifest).
    const command = `okstra team dispatch --project-root . --run-manifest .okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-${SUFFIX}.json --jobs-file .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/repair-jobs-reverify-r1-${SUFFIX}.json`;
    expect(out.repair.command).toBe(command);
    expect(first.stderr).toContain(`from the project root run: ${command}`);
    // A valid `okstra team dispatch --jobs-file` input: the worker's own provider, role and model; its own result path.
    const doc = parseArtifact(read(jobs), jobsFileArtifact);
    const rel = `.okstra/tasks/payments/refund-timeout/runs/error-analysis`;
    expect(doc).toEqual({
      schemaVersion: '1.0',
      dispatchKind: 'repair-reverify-r1',
      jobs: [
        {
          workerId: 'codex',
          provider: 'codex',
          role: 'Codex worker',
          modelExecutionValue: JSON.parse(read(r.st(`team-state-${SUFFIX}.json`))).workers.find((w: { workerId: string }) => w.workerId === 'codex').model,
          promptPath: `${rel}/prompts/codex-prompt-repair-reverify-r1-${SUFFIX}.md`,
          resultPath: `${rel}/worker-results/codex-reverify-r1-${SUFFIX}.md`,
          workerResultPath: `${rel}/worker-results/codex-reverify-r1-${SUFFIX}.md`,
          completionPaths: [`${rel}/worker-results/codex-reverify-r1-${SUFFIX}.md`],
        },
      ],
    });
    const text = read(prompt);
    expect(text).toContain('Batch: F-004, F-005, F-006, F-007, F-008, F-009');
    expect(text).toContain(r.hedged.trimEnd());
    expect(text).toContain('change no verdict');
    expect(text).toContain('`SURVIVES-WITH-CAVEAT`');
    expect(text).toContain(`\`${rel}/worker-results/codex-reverify-r1-${SUFFIX}.md\``);
    // Repeatable: a resumed collect writes the same repair again, nothing more.
    expect(r.collect(['--repair']).code).toBe(2);
    expect(snapshot(r.run)).toEqual(after);
  });

  it('after the repair: the restated answer is read (repair recorded), the roster failures stay 0', () => {
    const r = roundOne();
    expect(r.collect(['--repair']).code).toBe(2);
    r.setRow('codex', { dispatchKind: 'repair-reverify-r1', attempt: 5 });
    writeFileSync(r.codexResult, r.answer);
    const got = r.collect(['--repair']);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout).workers).toMatchObject([
      { workerId: 'claude', status: 'completed', durationMs: 520000, votes: 5 },
      { workerId: 'codex', status: 'completed', durationMs: 300000, votes: 6, repair: 'read' },
    ]);
    expect(JSON.parse(read(r.output)).workers[1].repair).toEqual({ dispatchKind: 'repair-reverify-r1', outcome: 'read' });
    ok(['apply-round', '--work-state', r.work, '--plan', r.plan, '--results', r.output]);
    const derived = JSON.parse(read(r.work)).derived.workers as Array<{ workerId: string; failures: number }>;
    expect(derived.filter((w) => ['claude', 'codex'].includes(w.workerId)).map((w) => w.failures)).toEqual([0, 0]);
    // The view marks the repair in the round header and on each vote it gave.
    const html = join(r.run, '..', 'view.html');
    ok(['view', '--work-state', r.work, '--html', html]);
    const page = read(html);
    expect(page).toContain('codex <em>repaired</em>');
    // Votes show the mode's own word (SURVIVES is reverify's agree), marked repaired.
    expect(page).toMatch(/codex: SURVIVES \(repaired\)/);
  });

  it('refused again after its repair: collected as error (no votes, no second repair); a repair that timed out: error', () => {
    const r = roundOne();
    expect(r.collect(['--repair']).code).toBe(2);
    const jobs = r.st(`repair-jobs-reverify-r1-${SUFFIX}.json`);
    const jobsBytes = read(jobs);
    r.setRow('codex', { dispatchKind: 'repair-reverify-r1' });
    const again = r.collect(['--repair']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).workers[1]).toMatchObject({ workerId: 'codex', status: 'error', durationMs: 300000, votes: 0, repair: 'refused' });
    const outcome = JSON.parse(read(r.output)).workers[1];
    expect(outcome.repair).toMatchObject({
      dispatchKind: 'repair-reverify-r1',
      outcome: 'refused',
      problems: [expect.stringMatching(/worker codex: finding F-004/)],
    });
    expect(read(jobs)).toBe(jobsBytes);

    const timedOut = r.collect(['--repair'], 'codex=timeout:1800000', false);
    expect(timedOut.code, timedOut.stderr).toBe(0);
    expect(JSON.parse(read(r.output)).workers[1]).toMatchObject({ status: 'error', verdicts: [], repair: { outcome: 'timeout' } });
    ok(['apply-round', '--work-state', r.work, '--plan', r.plan, '--results', r.output]);
    const derived = JSON.parse(read(r.work)).derived.workers as Array<{ workerId: string; failures: number }>;
    expect(derived.find((w) => w.workerId === 'codex')!.failures).toBe(1);
  });

  it('--repair needs the plan of a run (exit 2, nothing written)', () => {
    const r = roundOne();
    const elsewhere = join(r.run, '..', 'plan-copy.json');
    writeFileSync(elsewhere, read(r.plan));
    const got = cli([
      'collect-results',
      '--plan',
      elsewhere,
      '--result',
      `codex=${r.codexResult}`,
      '--dispatch',
      'claude=timeout:1',
      '--dispatch',
      'codex=completed:1',
      '--output',
      '-',
      '--repair',
    ]);
    expect(got.code).toBe(2);
    expect(got.stderr).toMatch(/expected a round plan at <run-dir>\/state\/convergence-plan-r<N>-<type>-<seq>\.json/);
    expect(existsSync(r.st(`repair-jobs-reverify-r1-${SUFFIX}.json`))).toBe(false);
  });
});

describe('collect-critic-gaps --repair (docs/convergence.md "Repair dispatch")', () => {
  it('a refused gap vote: exit 2 with its repair (repair-gap-vote); after the repair it is read, refused again it is error', () => {
    const dir = exampleDir({ 'groups.json': 'groups', 'results.json': 'round-results', 'critic.json': 'critic-results' });
    seedAndPlan(dir);
    ok(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'results.json'], dir);
    const run = join(dir, 'p/.okstra/tasks/g/t/runs/error-analysis');
    const st = (n: string) => join(run, 'state', n);
    mkdirSync(join(run, 'state'), { recursive: true });
    mkdirSync(join(run, 'worker-results'), { recursive: true });
    cpSync(join(dir, 'work.json'), st(`convergence-work-${SUFFIX}.json`));
    const rows = ['claude', 'codex'].map((id) => ({
      workerId: id,
      provider: id,
      role: 'analyser',
      model: `${id}-model`,
      status: 'completed',
      attempt: 1,
      dispatchKind: 'gap-vote',
    }));
    const teamState = st(`team-state-${SUFFIX}.json`);
    writeFileSync(teamState, JSON.stringify({ schemaVersion: '1.0', taskType: 'error-analysis', seq: '001', workers: rows }));
    const vote = (id: string) => join(run, `worker-results/${id}-gap-vote-${SUFFIX}.md`);
    writeFileSync(
      vote('claude'),
      '### C-001\n**Verdict**: SURVIVES\n**Basis**: `create.ts:22`.\n\n### C-002\n**Verdict**: REFUTED\n**Basis**: advisory lock.\n',
    );
    const good = '### C-001\n**Verdict**: SURVIVES\n**Basis**: confirmed.\n\n### C-002\n**Verdict**: SURVIVES\n**Basis**: no lock table.\n';
    writeFileSync(vote('codex'), good.replace('**Verdict**: SURVIVES\n**Basis**: no lock', '**Verdict**: SURVIVES?\n**Basis**: no lock'));
    const collect = () =>
      cli(
        [
          'collect-critic-gaps',
          '--work-state',
          st(`convergence-work-${SUFFIX}.json`),
          '--critic-dispatch',
          'grok=completed:900000',
          '--critic-results',
          join(dir, 'critic.json'),
          ...workerFlags({ claude: vote('claude'), codex: vote('codex') }, { claude: 'completed:1', codex: 'completed:2' }),
          '--output',
          st(`convergence-coverage-batch-${SUFFIX}.json`),
          '--repair',
        ],
        dir,
      );
    const refused = collect();
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/worker codex: gap C-002: /);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      refused: ['codex'],
      repair: { dispatchKind: 'repair-gap-vote', jobsFile: st(`repair-jobs-gap-vote-${SUFFIX}.json`) },
    });
    expect(read(join(run, `prompts/codex-prompt-repair-gap-vote-${SUFFIX}.md`))).toContain('## How to answer (coverage-gap vote)');
    expect(existsSync(st(`convergence-coverage-batch-${SUFFIX}.json`))).toBe(false);

    const doc = JSON.parse(read(teamState));
    doc.workers[1].dispatchKind = 'repair-gap-vote';
    writeFileSync(teamState, JSON.stringify(doc));
    const again = collect();
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).workers[1]).toMatchObject({ workerId: 'codex', status: 'error', repair: 'refused' });
    writeFileSync(vote('codex'), good);
    const repaired = collect();
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(JSON.parse(repaired.stdout).workers[1]).toMatchObject({ workerId: 'codex', status: 'completed', repair: 'read' });
    expect(JSON.parse(read(st(`convergence-coverage-batch-${SUFFIX}.json`))).gaps[1].votes.map((v: { workerId: string }) => v.workerId)).toEqual([
      'claude',
      'codex',
    ]);
  });
});
