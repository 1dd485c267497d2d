import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, copyExamples, ok, snapshot, tempDir, removeTempDirs } from './test-support/bin.js';

afterAll(removeTempDirs);

const read = (p: string) => readFileSync(p, 'utf8');
const json = (p: string) => JSON.parse(read(p));

describe('the examples alone: seed → plan-round → apply-round → validate', () => {
  it('runs the lifecycle on the printed example documents', () => {
    const dir = tempDir();
    for (const kind of ['groups', 'round-results', 'critic-results', 'coverage-batch']) {
      const first = cli(['example', '--kind', kind]);
      expect(first.code).toBe(0);
      expect(cli(['example', '--kind', kind]).stdout).toBe(first.stdout);
      writeFileSync(join(dir, `${kind}.json`), first.stdout);
    }
    const seeded = ok(
      ['seed', '--groups', 'groups.json', '--work-state', 'st/work.json', '--final-state', 'st/final.json', '--migration-dir', 'st/migration'],
      dir,
    );
    expect(seeded).toMatchObject({ action: 'created', round: 0, counts: { pending: 3, agreed: 1 } });
    expect(ok(['plan-round', '--work-state', 'st/work.json', '--plan', 'st/plan-r1.json'], dir)).toMatchObject({ round: 1, queueTerminal: false });
    const applied = ok(['apply-round', '--work-state', 'st/work.json', '--plan', 'st/plan-r1.json', '--results', 'round-results.json'], dir);
    expect(applied).toEqual({
      round: 1,
      queueTerminal: true,
      droppedWorkers: [],
      counts: { pending: 0, agreed: 2, refuted: 1, unverifiable: 1, contested: 0 },
    });
    expect(ok(['validate', '--state', 'st/work.json', '--kind', 'working'], dir)).toMatchObject({ ok: true, errors: [] });

    const critic = cli(['apply-critic-gaps', '--work-state', 'st/work.json', '--results', 'critic-results.json'], dir);
    expect(critic.code).toBe(2);
    expect(critic.stderr).toMatch(
      /got a critic-results document, but apply-critic-gaps --results needs a coverage-batch document \(a critic-results document is the critic worker's own output/,
    );
    expect(ok(['apply-critic-gaps', '--work-state', 'st/work.json', '--results', 'coverage-batch.json'], dir)).toEqual({
      gaps: 2,
      accepted: 1,
      rejected: 0,
      unresolved: 1,
    });
    expect(ok(['finalize', '--work-state', 'st/work.json', '--output', 'st/final.json'], dir).counts).toEqual({
      total: 5,
      agreed: 3,
      refuted: 1,
      unverifiable: 1,
      contested: 0,
      analyser: 4,
      critic: 1,
    });
    expect(ok(['validate', '--state', 'st/final.json', '--kind', 'final'], dir)).toMatchObject({ ok: true });
    expect(json(join(dir, 'st/final.json')).schemaVersion).toBe('1.3');
  });
});

describe('the examples/ error-analysis run, round by round', () => {
  const run = copyExamples();
  const st = (name: string) => join(run, 'state', name);
  const WORK = st('convergence-work-error-analysis-001.json');
  const FINAL = st('convergence-final-error-analysis-001.json');
  const seedArgs = [
    'seed',
    '--groups',
    st('convergence-groups-error-analysis-001.json'),
    '--work-state',
    WORK,
    '--final-state',
    FINAL,
    '--migration-dir',
    st('convergence-migration'),
  ];

  it('ships responses the way LLMs write them: a fenced fake block, CRLF, no round-1 file from codex', () => {
    const r1 = read(join(run, 'worker-results/claude-reverify-r1-error-analysis-001.md'));
    expect(r1).toMatch(/```markdown\n### F-012\n\*\*Verdict\*\*: SURVIVES/);
    expect(read(join(run, 'worker-results/codex-reverify-r2-error-analysis-001.md'))).toMatch(/^[^\n]*\r\n/);
    expect(existsSync(join(run, 'worker-results/codex-reverify-r1-error-analysis-001.md'))).toBe(false);
  });

  it('seeds 14 findings, 3 corroborated', () => {
    expect(ok(seedArgs)).toMatchObject({ action: 'created', counts: { agreed: 3, pending: 11 } });
  });

  it('plans round 1: each analyser gets the other one’s findings', () => {
    ok(['plan-round', '--work-state', WORK, '--plan', st('convergence-plan-r1-error-analysis-001.json')]);
    const plan = json(st('convergence-plan-r1-error-analysis-001.json'));
    expect(plan.batches.map((b: { workerId: string; findingIds: string[] }) => [b.workerId, b.findingIds])).toEqual([
      ['claude', ['F-010', 'F-011', 'F-012', 'F-013', 'F-014']],
      ['codex', ['F-004', 'F-005', 'F-006', 'F-007', 'F-008', 'F-009']],
    ]);
  });

  it('collects round 1 with codex timed out, ignoring the fenced example block', () => {
    const r = ok([
      'collect-results',
      '--plan',
      st('convergence-plan-r1-error-analysis-001.json'),
      '--mode',
      'adversarial',
      '--result',
      `claude=${join(run, 'worker-results/claude-reverify-r1-error-analysis-001.md')}`,
      '--dispatch',
      'claude=completed:520000',
      '--dispatch',
      'codex=timeout:1800000',
      '--output',
      st('convergence-results-r1-error-analysis-001.json'),
    ]);
    // Each worker also carries its citation signal (docs/worker-audit-check.md "Citations checked"): citations.spec.
    expect(r.workers).toMatchObject([
      { workerId: 'claude', status: 'completed', durationMs: 520000, votes: 5 },
      { workerId: 'codex', status: 'timeout', durationMs: 1800000, votes: 0 },
    ]);
    const results = json(st('convergence-results-r1-error-analysis-001.json'));
    expect(results.workers[0].verdicts.map((v: { findingId: string; verdict: string }) => `${v.findingId}:${v.verdict}`)).toEqual([
      'F-010:agree',
      'F-011:supplement',
      'F-012:disagree',
      'F-013:agree',
      'F-014:unverifiable',
    ]);
    ok([
      'apply-round',
      '--work-state',
      WORK,
      '--plan',
      st('convergence-plan-r1-error-analysis-001.json'),
      '--results',
      st('convergence-results-r1-error-analysis-001.json'),
    ]);
  });

  it('retries codex in round 2 with its CRLF response and ends the queue', () => {
    const plan = ok(['plan-round', '--work-state', WORK, '--plan', st('convergence-plan-r2-error-analysis-001.json')]);
    expect(plan.batches).toEqual([{ workerId: 'codex', findings: 6, retry: true }]);
    ok([
      'collect-results',
      '--plan',
      st('convergence-plan-r2-error-analysis-001.json'),
      '--mode',
      'adversarial',
      '--result',
      `codex=${join(run, 'worker-results/codex-reverify-r2-error-analysis-001.md')}`,
      '--dispatch',
      'codex=completed:580000',
      '--output',
      st('convergence-results-r2-error-analysis-001.json'),
    ]);
    const applied = ok([
      'apply-round',
      '--work-state',
      WORK,
      '--plan',
      st('convergence-plan-r2-error-analysis-001.json'),
      '--results',
      st('convergence-results-r2-error-analysis-001.json'),
    ]);
    expect(applied).toMatchObject({ round: 2, queueTerminal: true, counts: { agreed: 9, refuted: 3, unverifiable: 2, pending: 0 } });
    const terminal = cli(['plan-round', '--work-state', WORK, '--plan', st('convergence-plan-r3-error-analysis-001.json')]);
    expect(terminal.code).toBe(0);
    expect(JSON.parse(terminal.stdout)).toMatchObject({ plan: null, round: 3, queueTerminal: true, batches: [] });
    expect(terminal.stderr).toMatch(/queue is terminal: no round to plan, no plan written/);
    expect(existsSync(st('convergence-plan-r3-error-analysis-001.json'))).toBe(false);
  });

  it('applies the coverage batch, finalizes, and validates both states', () => {
    expect(ok(['apply-critic-gaps', '--work-state', WORK, '--results', st('convergence-coverage-batch-error-analysis-001.json')])).toEqual({
      gaps: 3,
      accepted: 1,
      rejected: 1,
      unresolved: 1,
    });
    ok(['finalize', '--work-state', WORK, '--output', FINAL]);
    const final = json(FINAL);
    const statuses = Object.fromEntries(final.findings.map((f: { id: string; status: string }) => [f.id, f.status]));
    expect(statuses).toEqual({
      'F-001': 'agreed',
      'F-002': 'agreed',
      'F-003': 'agreed',
      'F-004': 'agreed',
      'F-005': 'agreed',
      'F-006': 'refuted',
      'F-007': 'unverifiable',
      'F-008': 'agreed',
      'F-009': 'refuted',
      'F-010': 'agreed',
      'F-011': 'agreed',
      'F-012': 'refuted',
      'F-013': 'agreed',
      'F-014': 'unverifiable',
      'C-001': 'agreed',
    });
    expect(final.roster.find((w: { workerId: string }) => w.workerId === 'codex')).toMatchObject({ failures: 1, droppedInRound: null });
    expect(ok(['validate', '--state', WORK, '--kind', 'working']).ok).toBe(true);
    expect(ok(['validate', '--state', FINAL, '--kind', 'final']).ok).toBe(true);
    expect(final.counts).toEqual({ agreed: 10, analyser: 14, contested: 0, critic: 1, refuted: 3, total: 15, unverifiable: 2 });
  });

  it('seed then reuses the finished final state', () => {
    const before = snapshot(join(run, 'state'));
    expect(ok(seedArgs).action).toBe('reused');
    expect(snapshot(join(run, 'state'))).toEqual(before);
  });
});

/** A seeded example dir with round 1 applied. */
function appliedExample(): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'groups.json'), cli(['example', '--kind', 'groups']).stdout);
  writeFileSync(join(dir, 'results.json'), cli(['example', '--kind', 'round-results']).stdout);
  ok(['seed', '--groups', 'groups.json', '--work-state', 'work.json', '--final-state', 'final.json', '--migration-dir', 'mig'], dir);
  ok(['plan-round', '--work-state', 'work.json', '--plan', 'plan.json'], dir);
  return dir;
}
const SEED = ['seed', '--groups', 'groups.json', '--work-state', 'work.json', '--final-state', 'final.json', '--migration-dir', 'mig'];

describe('seed', () => {
  it('resumes a matching working state without touching it', () => {
    const dir = appliedExample();
    ok(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'results.json'], dir);
    const before = snapshot(dir);
    const r = cli(SEED, dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'resumed', round: 1 });
    expect(r.stderr).toMatch(/resumed/);
    expect(snapshot(dir)).toEqual(before);
  });

  it('refuses a working state of other groups, touching nothing, unless --restart-from-round0', () => {
    const dir = appliedExample();
    const groups = json(join(dir, 'groups.json'));
    groups.roundLimit = 2;
    writeFileSync(join(dir, 'groups.json'), JSON.stringify(groups));
    const before = snapshot(dir);
    const r = cli(SEED, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/work\.json: seedDigest: state does not match the groups: it belongs to other groups .*--restart-from-round0/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(snapshot(dir)).toEqual(before);

    const old = read(join(dir, 'work.json'));
    const restarted = ok([...SEED, '--restart-from-round0'], dir);
    expect(restarted.action).toBe('restarted');
    expect(restarted.kept).toHaveLength(1);
    expect(read(restarted.kept[0])).toBe(old);
    expect(json(join(dir, 'work.json'))).toMatchObject({ rounds: [], derived: { round: 0 } });
  });

  it('refuses a corrupt working state unless --restart-from-round0', () => {
    const dir = appliedExample();
    writeFileSync(join(dir, 'work.json'), '{"schemaVersion": "1.1", "kind": "convergence-working-s');
    const before = snapshot(dir);
    const r = cli(SEED, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/work\.json: corrupt state: is not valid JSON/);
    expect(snapshot(dir)).toEqual(before);
    expect(ok([...SEED, '--restart-from-round0'], dir).action).toBe('restarted');
    expect(readdirSync(join(dir, 'mig'))).toEqual([expect.stringMatching(/^work\.restart-[0-9a-f]{12}\.json$/)]);
  });

  it('migrates a v1.0 working state, keeping the original', () => {
    const dir = appliedExample();
    ok(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'results.json'], dir);
    const current = read(join(dir, 'work.json'));
    const state = JSON.parse(current);
    const legacy = JSON.stringify({ schemaVersion: '1.0', groups: state.seed, appliedRounds: state.rounds }, null, 2);
    writeFileSync(join(dir, 'work.json'), legacy);
    const r = ok(SEED, dir);
    expect(r.action).toBe('migrated');
    expect(read(r.kept[0])).toBe(legacy);
    expect(read(join(dir, 'work.json'))).toBe(current);
    expect(ok(SEED, dir).action).toBe('resumed');
  });

  it('refuses a final state of other groups', () => {
    const dir = appliedExample();
    writeFileSync(join(dir, 'final.json'), JSON.stringify({ schemaVersion: '1.3', kind: 'convergence-final-state', seedDigest: 'sha256:x' }));
    const r = cli(SEED, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/final\.json/);
  });
});

describe('plan-round, apply-round, finalize, validate', () => {
  it('plan-round is byte-identical and never touches the working state', () => {
    const dir = appliedExample();
    const state = read(join(dir, 'work.json'));
    const plan = read(join(dir, 'plan.json'));
    ok(['plan-round', '--work-state', 'work.json', '--plan', 'plan-again.json'], dir);
    expect(read(join(dir, 'plan-again.json'))).toBe(plan);
    expect(read(join(dir, 'work.json'))).toBe(state);
  });

  it('a rejected result set leaves the state byte-identical; the same round twice is refused', () => {
    const dir = appliedExample();
    const results = json(join(dir, 'results.json'));
    results.workers[0].verdicts[0].explanation = '';
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(results));
    const before = snapshot(dir);
    const bad = cli(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'bad.json'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json: workers\[0\]\.verdicts\[0\]\.explanation: worker claude: finding F-002: vote with no explanation/);
    expect(snapshot(dir)).toEqual(before);

    ok(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'results.json'], dir);
    const again = cli(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'results.json'], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/round 1 is already applied/);
  });

  it('finalize refuses a non-terminal state and writes nothing', () => {
    const dir = appliedExample();
    const r = cli(['finalize', '--work-state', 'work.json', '--output', 'final.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not terminal: 3 finding\(s\) still pending \(first F-001\)/);
    expect(existsSync(join(dir, 'final.json'))).toBe(false);
  });

  it('validate --kind working fails on a hand-edited state, naming the first diverging finding', () => {
    const dir = appliedExample();
    ok(['apply-round', '--work-state', 'work.json', '--plan', 'plan.json', '--results', 'results.json'], dir);
    const state = json(join(dir, 'work.json'));
    state.derived.findings[3].status = 'agreed';
    writeFileSync(join(dir, 'edited.json'), JSON.stringify(state));
    const r = cli(['validate', '--state', 'edited.json', '--kind', 'working'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/edited\.json: derived\.findings\[3\]: finding F-004 diverges from the replay: stored agreed\/consensus/);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, kind: 'working' });
    const wrongKind = cli(['validate', '--state', 'work.json', '--kind', 'final'], dir);
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.stderr).toMatch(/got a convergence-working-state document, but validate --kind final needs a convergence-final-state document/);
  });
});
