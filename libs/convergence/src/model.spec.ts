import { describe, expect, it } from 'vitest';
import { stableStringify } from '@okstra/core';
import type { ConvergenceGroups, RoundPlan, RoundResults, Verdict, WorkingState } from '@okstra/schemas/convergence';
import {
  applyCriticGaps,
  applyRound,
  createWorkingState,
  decide,
  exampleCoverageBatch,
  exampleGroups,
  exampleRoundResults,
  finalizeState,
  migrateWorkingState,
  planRound,
  seedDigest,
  validateFinalState,
  validateWorkingState,
} from './index.js';

/** Groups with analysers a1..aN, an optional critic, and findings `[id, authors[]]`. */
function groups(analysers: number, findings: Array<[string, string[]]>, extra: Partial<ConvergenceGroups> = {}): ConvergenceGroups {
  return {
    schemaVersion: '1.0',
    mode: 'adversarial',
    roundLimit: 3,
    roster: [
      ...Array.from({ length: analysers }, (_, i) => ({ workerId: `a${i + 1}`, provider: 'claude', role: 'analyser' as const })),
      { workerId: 'critic', provider: 'grok', role: 'critic' as const },
    ],
    findings: findings.map(([id, authors]) => ({ id, title: `title ${id}`, claim: `claim ${id}`, authors, evidence: [] })),
    ...extra,
  };
}

type Outcome = { status?: 'completed' | 'timeout' | 'error' | 'not-run'; votes?: Record<string, Verdict> };

/** Results for `plan`: per worker a status and per finding a verdict (default agree). */
function results(plan: RoundPlan, outcomes: Record<string, Outcome> = {}): RoundResults {
  return {
    schemaVersion: '1.0',
    kind: 'round-results',
    round: plan.round,
    mode: plan.mode,
    workers: plan.batches.map((b) => {
      const o = outcomes[b.workerId] ?? {};
      const status = o.status ?? 'completed';
      return {
        workerId: b.workerId,
        status,
        durationMs: 1000,
        verdicts:
          status === 'completed' ? b.findingIds.map((id) => ({ findingId: id, verdict: o.votes?.[id] ?? 'agree', explanation: `${b.workerId} on ${id}` })) : [],
      };
    }),
  };
}

/** Plan the next round and apply `outcomes` to it. */
function step(state: WorkingState, outcomes: Record<string, Outcome> = {}): WorkingState {
  const plan = planRound(state);
  return applyRound(state, plan, results(plan, outcomes));
}

const status = (s: WorkingState, id: string) => {
  const f = s.derived.findings.find((x) => x.id === id)!;
  return `${f.status}/${f.reason}@${f.decidedInRound}`;
};

describe('seed', () => {
  it('corroborates a finding raised by every analyser, and only that one', () => {
    const s = createWorkingState(
      groups(2, [
        ['F-001', ['a1', 'a2']],
        ['F-002', ['a1']],
      ]),
    );
    expect(status(s, 'F-001')).toBe('agreed/corroborated@0');
    expect(status(s, 'F-002')).toBe('pending/null@null');
    expect(s.derived.queueTerminal).toBe(false);
    expect(s.seedDigest).toBe(seedDigest(s.seed));
  });

  it('is terminal at round 0 when every finding is corroborated', () => {
    const s = createWorkingState(groups(2, [['F-001', ['a1', 'a2']]]));
    expect(s.derived.queueTerminal).toBe(true);
    expect(planRound(s)).toMatchObject({ queueTerminal: true, batches: [], round: 1 });
  });

  it('has a digest that ignores key order but not values', () => {
    const g = groups(2, [['F-001', ['a1']]]);
    const reordered = JSON.parse(JSON.stringify({ findings: g.findings, roster: g.roster, roundLimit: 3, mode: 'adversarial', schemaVersion: '1.0' }));
    expect(seedDigest(reordered)).toBe(seedDigest(g));
    expect(seedDigest({ ...g, roundLimit: 2 })).not.toBe(seedDigest(g));
  });
});

describe('plan-round', () => {
  const g = groups(3, [
    ['F-001', ['a1']],
    ['F-002', ['a2', 'a3']],
    ['F-003', ['a1', 'a2', 'a3']],
    ['F-004', ['a3']],
  ]);

  it('never sends a finding to its own author, a critic, or a corroborated finding anywhere', () => {
    const plan = planRound(createWorkingState(g));
    expect(plan.batches).toEqual([
      { workerId: 'a1', provider: 'claude', priorFailures: 0, findingIds: ['F-002', 'F-004'] },
      { workerId: 'a2', provider: 'claude', priorFailures: 0, findingIds: ['F-001', 'F-004'] },
      { workerId: 'a3', provider: 'claude', priorFailures: 0, findingIds: ['F-001'] },
    ]);
  });

  it('is byte-identical for the same state and does not modify it', () => {
    const s = createWorkingState(g);
    const before = stableStringify(s);
    expect(stableStringify(planRound(s))).toBe(stableStringify(planRound(JSON.parse(before))));
    expect(stableStringify(s)).toBe(before);
  });

  it('gives a worker that failed once its retry, and drops it after the second failure', () => {
    let s = createWorkingState(g);
    s = step(s, { a2: { status: 'timeout' } });
    let plan = planRound(s);
    expect(plan.batches.find((b) => b.workerId === 'a2')).toMatchObject({ priorFailures: 1, findingIds: ['F-001', 'F-004'] });
    s = step(s, { a2: { status: 'error' } });
    expect(s.derived.workers.find((w) => w.workerId === 'a2')).toMatchObject({ failures: 2, droppedInRound: 2 });
    // a2 is out: F-001 and F-004 had all other reviewers' votes already, so they were decided without it
    expect(status(s, 'F-001')).toBe('agreed/consensus@2');
    expect(status(s, 'F-004')).toBe('agreed/consensus@2');
    plan = planRound(s);
    expect(plan).toMatchObject({ queueTerminal: true, droppedWorkers: ['a2'] });
  });
});

describe('reduction', () => {
  it('maps unanimous votes to agreed / refuted / unverifiable, ignoring unverifiable beside decisive votes', () => {
    expect(decide(['agree', 'supplement'])).toBe('agreed');
    expect(decide(['disagree'])).toBe('refuted');
    expect(decide(['unverifiable', 'unverifiable'])).toBe('unverifiable');
    expect(decide([])).toBe('unverifiable');
    expect(decide(['agree', 'unverifiable'])).toBe('agreed');
    expect(decide(['disagree', 'unverifiable'])).toBe('refuted');
    expect(decide(['agree', 'disagree'])).toBe('contested');
  });

  it('decides after one round when every reviewer voted the same way', () => {
    const s = step(
      createWorkingState(
        groups(3, [
          ['F-001', ['a1']],
          ['F-002', ['a1']],
          ['F-003', ['a1']],
        ]),
      ),
      {
        a2: { votes: { 'F-001': 'agree', 'F-002': 'disagree', 'F-003': 'unverifiable' } },
        a3: { votes: { 'F-001': 'supplement', 'F-002': 'disagree', 'F-003': 'unverifiable' } },
      },
    );
    expect([status(s, 'F-001'), status(s, 'F-002'), status(s, 'F-003')]).toEqual(['agreed/consensus@1', 'refuted/consensus@1', 'unverifiable/consensus@1']);
    expect(s.derived.queueTerminal).toBe(true);
  });

  it('starts a new pass on a split below the round limit and ends contested at the limit', () => {
    let s = createWorkingState(groups(3, [['F-001', ['a1']]], { roundLimit: 2 }));
    s = step(s, { a2: { votes: { 'F-001': 'agree' } }, a3: { votes: { 'F-001': 'disagree' } } });
    expect(s.derived.findings[0]).toMatchObject({ status: 'pending', pass: 2, currentVotes: [] });
    expect(planRound(s).batches.map((b) => b.workerId)).toEqual(['a2', 'a3']);
    s = step(s, { a2: { votes: { 'F-001': 'agree' } }, a3: { votes: { 'F-001': 'disagree' } } });
    expect(status(s, 'F-001')).toBe('contested/round-limit@2');
    expect(s.derived.queueTerminal).toBe(true);
  });

  it('converges on the second pass when a reviewer changes its mind', () => {
    let s = createWorkingState(groups(3, [['F-001', ['a1']]]));
    s = step(s, { a2: { votes: { 'F-001': 'agree' } }, a3: { votes: { 'F-001': 'disagree' } } });
    s = step(s, { a2: { votes: { 'F-001': 'disagree' } }, a3: { votes: { 'F-001': 'disagree' } } });
    expect(status(s, 'F-001')).toBe('refuted/consensus@2');
  });

  it('keeps a finding pending while a reviewer owes its vote, and asks only that reviewer', () => {
    let s = createWorkingState(groups(3, [['F-001', ['a1']]]));
    s = step(s, { a2: { votes: { 'F-001': 'agree' } }, a3: { status: 'timeout' } });
    expect(s.derived.findings[0]).toMatchObject({ status: 'pending', currentVotes: [{ workerId: 'a2', verdict: 'agree', round: 1 }] });
    expect(planRound(s).batches).toEqual([{ workerId: 'a3', provider: 'claude', priorFailures: 1, findingIds: ['F-001'] }]);
    s = step(s, { a3: { votes: { 'F-001': 'agree' } } });
    expect(status(s, 'F-001')).toBe('agreed/consensus@2');
  });

  it('decides on the votes it has at the round limit once the retry is spent (a retry-only round past the limit)', () => {
    let s = createWorkingState(
      groups(
        3,
        [
          ['F-001', ['a1']],
          ['F-002', ['a1']],
        ],
        { roundLimit: 1 },
      ),
    );
    s = step(s, { a2: { votes: { 'F-001': 'disagree', 'F-002': 'agree' } }, a3: { status: 'timeout' } });
    expect(status(s, 'F-001')).toBe('pending/null@null');
    const retry = planRound(s);
    expect(retry.batches).toEqual([{ workerId: 'a3', provider: 'claude', priorFailures: 1, findingIds: ['F-001', 'F-002'] }]);
    s = step(s, { a3: { status: 'timeout' } });
    expect(status(s, 'F-001')).toBe('refuted/consensus@2');
    expect(status(s, 'F-002')).toBe('agreed/consensus@2');
    s = createWorkingState(groups(2, [['F-001', ['a1']]], { roundLimit: 1 }));
    s = step(s, { a2: { status: 'timeout' } });
    s = step(s, { a2: { status: 'timeout' } });
    expect(status(s, 'F-001')).toBe('unverifiable/no-eligible-reviewer@2');
  });

  it('ends a finding whose only reviewer dropped out as unverifiable (no-eligible-reviewer), never stuck', () => {
    let s = createWorkingState(
      groups(2, [
        ['F-001', ['a1']],
        ['F-002', ['a2']],
      ]),
    );
    s = step(s, { a2: { status: 'timeout' } });
    expect(status(s, 'F-002')).toBe('agreed/consensus@1');
    s = step(s, { a2: { status: 'not-run' } });
    expect(status(s, 'F-001')).toBe('unverifiable/no-eligible-reviewer@2');
    expect(s.derived.queueTerminal).toBe(true);
  });

  it('never leaves a finding pending after the round limit, whatever the outcomes', () => {
    const verdicts: Verdict[] = ['agree', 'disagree', 'supplement', 'unverifiable'];
    const findings: Array<[string, string[]]> = Array.from({ length: 12 }, (_, i) => [`F-${String(i + 1).padStart(3, '0')}`, [`a${(i % 4) + 1}`]]);
    for (let seed = 1; seed <= 25; seed++) {
      let rnd = seed;
      const next = () => (rnd = (rnd * 1103515245 + 12345) % 2147483648) / 2147483648;
      let s = createWorkingState(groups(4, findings, { roundLimit: 1 + (seed % 3) }));
      for (let r = 0; r < 10 && !s.derived.queueTerminal; r++) {
        const plan = planRound(s);
        const outcomes: Record<string, Outcome> = {};
        for (const b of plan.batches) {
          if (next() < 0.2) outcomes[b.workerId] = { status: 'timeout' };
          else outcomes[b.workerId] = { votes: Object.fromEntries(b.findingIds.map((id) => [id, verdicts[Math.floor(next() * 4)]])) };
        }
        s = applyRound(s, plan, results(plan, outcomes));
      }
      expect(s.derived.queueTerminal).toBe(true);
      expect(s.derived.round).toBeLessThanOrEqual(s.seed.roundLimit + 1);
      for (const r of s.rounds.filter((x) => x.round > s.seed.roundLimit)) expect(r.plan.batches.every((b) => b.priorFailures === 1)).toBe(true);
      expect(validateWorkingState(s)).toEqual({ ok: true, errors: [] });
      expect(validateFinalState(finalizeState(s))).toEqual({ ok: true, errors: [] });
    }
  });
});

describe('apply-round refusals leave the state as it was', () => {
  const base = createWorkingState(
    groups(2, [
      ['F-001', ['a1']],
      ['F-002', ['a2']],
    ]),
  );
  const plan = planRound(base);
  const good = results(plan);
  const cases: Array<[string, RoundPlan, RoundResults, RegExp]> = [
    ['wrong round in results', plan, { ...good, round: 2 }, /results are for round 2/],
    ['missing worker', plan, { ...good, workers: good.workers.slice(1) }, /worker a1: planned worker with no recorded outcome/],
    [
      'missing finding',
      plan,
      { ...good, workers: [{ ...good.workers[0], verdicts: [] }, good.workers[1]] },
      /finding F-002: dispatched finding with no verdict/,
    ],
    [
      'vote for a finding not dispatched',
      plan,
      { ...good, workers: [{ ...good.workers[0], verdicts: [{ findingId: 'F-001', verdict: 'agree', explanation: 'x' }] }, good.workers[1]] },
      /worker a1: finding F-001: verdict for a finding not dispatched/,
    ],
    [
      'vote with no explanation',
      plan,
      { ...good, workers: [{ ...good.workers[0], verdicts: [{ findingId: 'F-002', verdict: 'agree', explanation: '  ' }] }, good.workers[1]] },
      /vote with no explanation/,
    ],
    [
      'votes from a worker that timed out',
      plan,
      { ...good, workers: [{ ...good.workers[0], status: 'timeout' }, good.workers[1]] },
      /ended timeout but has verdicts/,
    ],
    ['plan edited', { ...plan, batches: [{ ...plan.batches[0], findingIds: ['F-001'] }, plan.batches[1]] }, good, /differs from the plan/],
    ['terminal plan', { ...plan, queueTerminal: true }, good, /queue is terminal/],
    ['other groups', { ...plan, seedDigest: 'sha256:' + '0'.repeat(64) }, good, /other groups/],
  ];
  for (const [name, p, r, message] of cases) {
    it(`refuses ${name}`, () => {
      const before = stableStringify(base);
      expect(() => applyRound(base, p, r)).toThrow(message);
      expect(stableStringify(base)).toBe(before);
    });
  }

  it('refuses the same round twice', () => {
    const once = applyRound(base, plan, good);
    expect(() => applyRound(once, plan, good)).toThrow(/round 1 is already applied/);
  });
});

describe('replay', () => {
  const applied = step(
    createWorkingState(
      groups(3, [
        ['F-001', ['a1']],
        ['F-002', ['a2']],
      ]),
    ),
    { a3: { votes: { 'F-001': 'disagree' } } },
  );

  it('accepts an untouched state', () => {
    expect(validateWorkingState(JSON.parse(JSON.stringify(applied)))).toEqual({ ok: true, errors: [] });
  });

  it('names the first diverging finding of a hand-edited state', () => {
    const edited = JSON.parse(JSON.stringify(applied)) as WorkingState;
    edited.derived.findings[1].status = 'refuted';
    const report = validateWorkingState(edited);
    expect(report.ok).toBe(false);
    expect(report.errors[0]).toMatch(/^derived\.findings\[1\]: finding F-002 diverges from the replay: stored refuted/);
  });

  it('names the round whose stored results do not replay', () => {
    const edited = JSON.parse(JSON.stringify(applied)) as WorkingState;
    edited.rounds[0].results.workers[0].verdicts = [];
    expect(validateWorkingState(edited).errors[0]).toMatch(/^rounds\[0\]: round 1 does not replay: .*dispatched finding with no verdict/);
  });

  it('refuses a digest that is not the digest of the seed', () => {
    const edited = JSON.parse(JSON.stringify(applied)) as WorkingState;
    edited.seed.roundLimit = 9;
    expect(validateWorkingState(edited).errors[0]).toMatch(/^seedDigest: /);
  });

  it('migrates a v1.0 state by replay', () => {
    const legacy = { schemaVersion: '1.0', groups: applied.seed, appliedRounds: applied.rounds };
    expect(stableStringify(migrateWorkingState(legacy))).toBe(stableStringify(applied));
    expect(() => migrateWorkingState({ ...legacy, appliedRounds: [{ ...applied.rounds[0], round: 2 }] })).toThrow(/cannot migrate/);
  });
});

describe('critic gaps and final state', () => {
  const seeded = createWorkingState(exampleGroups());
  const plan = planRound(seeded);
  const after = applyRound(seeded, plan, exampleRoundResults());

  it('refuses a coverage batch before the main queue is terminal', () => {
    expect(() => applyCriticGaps(seeded, exampleCoverageBatch())).toThrow(/main queue is not terminal yet \(3 finding\(s\) pending, first F-001\)/);
  });

  it('adds accepted gaps as critic-sourced findings and applies only once', () => {
    const s = applyCriticGaps(after, exampleCoverageBatch());
    expect(s.derived.criticGaps).toEqual([
      { id: 'C-001', decision: 'accepted' },
      { id: 'C-002', decision: 'unresolved' },
    ]);
    expect(s.derived.findings.at(-1)).toMatchObject({ id: 'C-001', source: 'critic', status: 'agreed', reason: 'critic-accepted' });
    expect(() => applyCriticGaps(s, exampleCoverageBatch())).toThrow(/already applied/);
    expect(validateWorkingState(s)).toEqual({ ok: true, errors: [] });
  });

  it('refuses a batch with a missing analyser vote', () => {
    const batch = exampleCoverageBatch();
    batch.gaps[0].votes = batch.gaps[0].votes.slice(1);
    expect(() => applyCriticGaps(after, batch)).toThrow(/gap C-001: analyser claude completed but has no vote/);
  });

  it('finalizes to a v1.3 state with every vote and consistent counts', () => {
    const final = finalizeState(applyCriticGaps(after, exampleCoverageBatch()));
    expect(final.schemaVersion).toBe('1.3');
    expect(final.counts).toEqual({ total: 5, agreed: 3, refuted: 1, unverifiable: 1, contested: 0, analyser: 4, critic: 1 });
    expect(final.findings.find((f) => f.id === 'F-002')).toMatchObject({ status: 'refuted', votes: [{ round: 1, workerId: 'claude', verdict: 'disagree' }] });
    expect(validateFinalState(final)).toEqual({ ok: true, errors: [] });
  });

  it('refuses to finalize a state that is not terminal', () => {
    expect(() => finalizeState(seeded)).toThrow(/not terminal: 3 finding\(s\) still pending \(first F-001\)/);
  });

  it('reports broken final states', () => {
    const final = finalizeState(after);
    const bad = JSON.parse(JSON.stringify(final));
    bad.counts.agreed = 7;
    bad.findings[1].votes.push({ round: 1, workerId: 'codex', verdict: 'agree', explanation: 'self' });
    const report = validateFinalState(bad);
    expect(report.ok).toBe(false);
    expect(validateFinalState({ ...final, findings: [{ ...final.findings[0], status: 'pending' }] }).errors[0]).toMatch(/^findings\[0\]\.status: /);
    expect(report.errors).toContain('findings[1].votes[1]: finding F-002 has a vote from its own author codex');
    expect(report.errors).toContain(`counts.agreed: 7, but the findings count ${final.counts.agreed}`);
    expect(validateFinalState({ ...final, schemaVersion: '1.2' }).errors).toEqual(['schemaVersion: unsupported schemaVersion "1.2" (supported: 1.3)']);
    expect(validateFinalState(null).ok).toBe(false);
  });
});
