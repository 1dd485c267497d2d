import { describe, expect, it } from 'vitest';
import { ConvergenceGroups, type RoundPlan, type RoundResults, type Verdict, type WorkingState } from '@okstra/schemas/convergence';
import { applyRound, createWorkingState, finalizeState, planRound, validateFinalState, validateWorkingState } from './index.js';

type Outcome = 'timeout' | Verdict;

/** Analysers a, b, c; F-1 raised by a; `failures` carried from the initial dispatch. */
function seed(roundLimit: number, failures: Record<string, 0 | 1> = {}, analysers = ['a', 'b', 'c']): WorkingState {
  const groups = ConvergenceGroups.parse({
    schemaVersion: '1.0',
    mode: 'adversarial',
    roundLimit,
    roster: analysers.map((w) => ({ workerId: w, provider: 'claude', role: 'analyser', ...(failures[w] !== undefined ? { failures: failures[w] } : {}) })),
    findings: [{ id: 'F-1', title: 'race', claim: 'the webhook races the sweeper', authors: ['a'] }],
  });
  return createWorkingState(groups);
}

/** Plan the next round and apply one outcome per planned worker (each votes on its whole batch). */
function round(state: WorkingState, outcomes: Record<string, Outcome>): WorkingState {
  const plan = planRound(state);
  const results: RoundResults = {
    schemaVersion: '1.0',
    kind: 'round-results',
    round: plan.round,
    mode: plan.mode,
    workers: plan.batches.map((b) => {
      const o = outcomes[b.workerId];
      if (o === undefined) throw new Error(`no outcome for planned worker ${b.workerId} in round ${plan.round}`);
      if (o === 'timeout') return { workerId: b.workerId, status: 'timeout', durationMs: 1, verdicts: [] };
      return {
        workerId: b.workerId,
        status: 'completed',
        durationMs: 1,
        verdicts: b.findingIds.map((id) => ({ findingId: id, verdict: o, explanation: `${b.workerId}: ${o}` })),
      };
    }),
  };
  return applyRound(state, plan, results);
}

const f1 = (s: WorkingState) => {
  const f = s.derived.findings[0];
  return `${f.status}/${f.reason}@${f.decidedInRound}`;
};
const sound = (s: WorkingState) => {
  expect(validateWorkingState(s)).toEqual({ ok: true, errors: [] });
  expect(validateFinalState(finalizeState(s))).toEqual({ ok: true, errors: [] });
};

describe('a timeout or a drop never changes an outcome (docs/convergence.md "Reduction")', () => {
  // Round 1: b SURVIVES, c REFUTED — a split, so pass 2 starts with the votes cleared.
  const split = (s: WorkingState) => round(s, { b: 'agree', c: 'disagree' });

  it('timeout: c times out in round 2 (the limit) — its retry is due, and its dissent stands when the retry fails too', () => {
    let s = round(split(seed(2)), { b: 'agree', c: 'timeout' });
    expect(f1(s)).toBe('pending/null@null'); // was: agreed/round-limit with c's disagree ignored
    s = round(s, { c: 'timeout' });
    expect(f1(s)).toBe('contested/round-limit@3');
    expect(finalizeState(s).findings[0].votes.map((v) => `${v.round}:${v.workerId}:${v.verdict}`)).toEqual(['1:b:agree', '1:c:disagree', '2:b:agree']);
    sound(s);
  });

  it('timeout: a dissent withdrawn in the retry no longer counts', () => {
    const s = round(round(split(seed(2)), { b: 'agree', c: 'timeout' }), { c: 'agree' });
    expect(f1(s)).toBe('agreed/consensus@3');
    sound(s);
  });

  it('drop: c, with a failure from the initial analysis, is dropped in round 2 — its round-1 dissent keeps counting', () => {
    const s = round(split(seed(2, { c: 1 })), { b: 'agree', c: 'timeout' });
    expect(s.derived.workers.find((w) => w.workerId === 'c')).toMatchObject({ failures: 2, droppedInRound: 2 });
    expect(f1(s)).toBe('contested/round-limit@2');
    sound(s);
  });

  it('drop below the limit: the remaining reviewer re-votes, and the dissent stands', () => {
    const s = round(round(split(seed(3, { c: 1 })), { b: 'agree', c: 'timeout' }), { b: 'agree' });
    expect(f1(s)).toBe('contested/round-limit@3');
    sound(s);
  });

  it('no eligible reviewer left: both reviewers dropped in round 2 — decided on their latest votes', () => {
    const s = round(split(seed(2, { b: 1, c: 1 })), { b: 'timeout', c: 'timeout' });
    expect(f1(s)).toBe('contested/no-eligible-reviewer@2'); // was: unverifiable (no votes in the pass)
    sound(s);
  });
});

describe('one retry per worker per run, never forfeited (docs/convergence.md "Retry budget")', () => {
  it('the groups roster carries failures from the initial dispatch, and plan-round counts them', () => {
    let s = seed(3, { b: 1 });
    expect(planRound(s).batches.map((b) => [b.workerId, b.priorFailures])).toEqual([
      ['b', 1],
      ['c', 0],
    ]);
    s = round(s, { b: 'timeout', c: 'agree' });
    expect(s.derived.workers.find((w) => w.workerId === 'b')).toMatchObject({ failures: 2, droppedInRound: 1 });
    expect(f1(s)).toBe('agreed/consensus@1');
    expect(() => seed(3, { b: 2 as 1 })).toThrow();
  });

  it('roundLimit 1: a worker that timed out gets its retry in a retry-only round past the limit', () => {
    let s = seed(1, {}, ['a', 'b']);
    s = round(s, { b: 'timeout' });
    expect(f1(s)).toBe('pending/null@null'); // was: unverifiable/round-limit with the retry never used
    const plan = planRound(s);
    expect(plan).toMatchObject({ round: 2, roundLimit: 1, queueTerminal: false, batches: [{ workerId: 'b', priorFailures: 1, findingIds: ['F-1'] }] });
    s = round(s, { b: 'agree' });
    expect(f1(s)).toBe('agreed/consensus@2');
    expect(planRound(s).queueTerminal).toBe(true);
    sound(s);
  });

  it('a retry-only round plans only the retry, and nothing is pending after it', () => {
    let s = seed(1);
    s = round(s, { b: 'agree', c: 'timeout' });
    expect(planRound(s).batches.map((b) => b.workerId)).toEqual(['c']);
    s = round(s, { c: 'timeout' });
    expect(f1(s)).toBe('agreed/consensus@2');
    expect(s.derived.queueTerminal).toBe(true);
  });
});

describe('a re-vote carries the fact and the other reviewers\' bases (docs/convergence.md "Planning")', () => {
  it("lists, per re-vote finding of a batch, the pass and the others' latest votes with their bases", () => {
    const s = round(seed(3), { b: 'agree', c: 'disagree' });
    const plan: RoundPlan = planRound(s);
    expect(plan.batches.map((b) => [b.workerId, b.revotes])).toEqual([
      ['b', [{ findingId: 'F-1', pass: 2, others: [{ workerId: 'c', round: 1, verdict: 'disagree', explanation: 'c: disagree' }] }]],
      ['c', [{ findingId: 'F-1', pass: 2, others: [{ workerId: 'b', round: 1, verdict: 'agree', explanation: 'b: agree' }] }]],
    ]);
    expect(planRound(seed(3)).batches.every((b) => b.revotes === undefined)).toBe(true);
  });
});

describe('validate --kind final re-decides every finding (docs/convergence.md "Validation")', () => {
  const final = () => finalizeState(round(seed(1, {}, ['a', 'b']), { b: 'agree' }));

  it('accepts a finalized state and refuses a status its votes do not decide', () => {
    expect(validateFinalState(final())).toEqual({ ok: true, errors: [] });
    const flipped = final();
    flipped.findings[0].votes[0].verdict = 'disagree';
    expect(validateFinalState(flipped).errors).toContain('findings[0].status: finding F-1 is agreed, but its votes decide refuted');
  });

  it('refuses a reason that does not follow', () => {
    const bad = final();
    bad.findings[0].reason = 'no-eligible-reviewer';
    expect(validateFinalState(bad).errors).toContain('findings[0].reason: finding F-1 has reason no-eligible-reviewer, but reviewer b was still in the roster');
    const early = final();
    early.findings[0].reason = 'round-limit';
    early.roundLimit = 3;
    expect(validateFinalState(early).errors).toContain('findings[0].reason: finding F-1 has reason round-limit, but was decided in round 1 (limit 3)');
  });
});
