import { InputError } from '@okstra/core';
import type { DerivedState, FindingReason, FindingStanding, PassVote, RoundBatch, RoundPlan, RoundResults, WorkingState } from '@okstra/schemas/convergence';
import { countFailure, hasRetryLeft, MAX_FAILURES_PER_WORKER } from '@okstra/schemas/retry-budget';
import { decide, standingVotes } from './decision.js';
import { planRound } from './plan-round.js';
import { activeAnalysers, eligibleReviewers, indexSeed, type SeedIndex } from './seed-state.js';

/** File names used in messages. */
export interface ApplyLabels {
  state?: string;
  plan?: string;
  results?: string;
}

/**
 * Validate one complete result set against its plan and the working state, then
 * reduce it (docs/convergence.md "apply-round" and "Reduction"). Pure: returns
 * the new state; the input state is not modified.
 * @throws InputError (exit 2) — and nothing is reduced — when the plan is terminal,
 *   is for another round (e.g. one already applied), does not match the plan the
 *   state would make, or when the results are for another round or mode, miss a
 *   planned worker, name an unplanned one, miss or add a finding, repeat one, carry
 *   a vote with no explanation, or carry votes from a worker that did not complete.
 */
export function applyRound(state: WorkingState, plan: RoundPlan, results: RoundResults, labels: ApplyLabels = {}): WorkingState {
  const index = indexSeed(state.seed);
  checkPlan(state, plan, index, labels);
  checkResults(plan, results, labels);
  const derived = reduceRound(state.derived, index, state.seed.roundLimit, plan, results);
  return { ...state, rounds: [...state.rounds, { round: plan.round, plan, results }], derived };
}

function checkPlan(state: WorkingState, plan: RoundPlan, index: SeedIndex, labels: ApplyLabels): void {
  const file = labels.plan ?? 'plan';
  const d = state.derived;
  if (plan.seedDigest !== state.seedDigest) {
    throw new InputError(`plan was made for other groups (seed digest ${plan.seedDigest}, working state ${state.seedDigest})`, { file, field: 'seedDigest' });
  }
  if (plan.queueTerminal) throw new InputError('the plan says the queue is terminal: there is no round to apply', { file, field: 'queueTerminal' });
  if (plan.round <= d.round) {
    throw new InputError(`round ${plan.round} is already applied (the working state is at round ${d.round}; the next round is ${d.round + 1})`, {
      file,
      field: 'round',
    });
  }
  if (plan.round !== d.round + 1) {
    throw new InputError(`plan is for round ${plan.round}, but the working state is at round ${d.round} (expected round ${d.round + 1})`, {
      file,
      field: 'round',
    });
  }
  const expected = planRound(state, index, labels.state);
  const want = new Map(expected.batches.map((b) => [b.workerId, b]));
  const seen = new Set<string>();
  for (const [i, b] of plan.batches.entries()) {
    if (seen.has(b.workerId)) throw new InputError(`worker ${b.workerId} has two batches`, { file, field: `batches[${i}]` });
    seen.add(b.workerId);
    const ids = want.get(b.workerId);
    if (!ids) throw new InputError(`worker ${b.workerId} has a batch, but the working state plans none for it this round`, { file, field: `batches[${i}]` });
    if (ids.findingIds.join('\n') !== b.findingIds.join('\n')) {
      throw new InputError(`batch of worker ${b.workerId} differs from the plan the working state makes (plan-round again)`, {
        file,
        field: `batches[${i}].findingIds`,
      });
    }
    if (!sameBatch(ids, b)) {
      throw new InputError(`batch of worker ${b.workerId} differs from the plan the working state makes (priorFailures or revotes; plan-round again)`, {
        file,
        field: `batches[${i}]`,
      });
    }
  }
  for (const w of want.keys()) {
    if (!seen.has(w)) throw new InputError(`worker ${w} has no batch, but the working state plans one for it this round`, { file, field: 'batches' });
  }
  if (plan.mode !== state.seed.mode)
    throw new InputError(`plan mode '${plan.mode}' differs from the groups mode '${state.seed.mode}'`, { file, field: 'mode' });
}

/** The planned batch equals the stored one in what a plan decides (ids are compared by the caller): prior failures and re-vote context. Field by field: cheap at 10,000 findings. */
function sameBatch(expected: RoundBatch, stored: RoundBatch): boolean {
  if (expected.priorFailures !== stored.priorFailures || expected.provider !== stored.provider) return false;
  const a = expected.revotes ?? [];
  const b = stored.revotes ?? [];
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.findingId !== y.findingId || x.pass !== y.pass || x.others.length !== y.others.length) return false;
    for (let j = 0; j < x.others.length; j++) {
      const o = x.others[j];
      const q = y.others[j];
      if (o.workerId !== q.workerId || o.round !== q.round || o.verdict !== q.verdict || o.explanation !== q.explanation) return false;
    }
  }
  return true;
}

/**
 * Check a result set against its plan (also used by `collect-results` on what it
 * produced): same round and mode, exactly the planned workers, a completed worker
 * votes once on exactly its batch with an explanation on every vote, a worker that
 * did not complete has no votes.
 * @throws InputError naming the worker, the finding and the JSON path.
 */
export function checkResults(plan: RoundPlan, results: RoundResults, labels: ApplyLabels = {}): void {
  const file = labels.results ?? 'results';
  if (results.round !== plan.round) {
    throw new InputError(`results are for round ${results.round}, the plan is for round ${plan.round}`, { file, field: 'round' });
  }
  if (results.mode !== plan.mode) throw new InputError(`results mode '${results.mode}' differs from the plan mode '${plan.mode}'`, { file, field: 'mode' });
  const batches = new Map(plan.batches.map((b) => [b.workerId, b]));
  const seen = new Set<string>();
  results.workers.forEach((w, i) => {
    const at = `workers[${i}]`;
    const batch = batches.get(w.workerId);
    if (!batch) throw new InputError(`worker ${w.workerId} is not planned in round ${plan.round}`, { file, field: `${at}.workerId` });
    if (seen.has(w.workerId)) throw new InputError(`worker ${w.workerId} has two outcomes`, { file, field: `${at}.workerId` });
    seen.add(w.workerId);
    if (w.status !== 'completed') {
      if (w.verdicts.length > 0) {
        throw new InputError(`worker ${w.workerId} ended ${w.status} but has verdicts (a worker that did not complete has none)`, {
          file,
          field: `${at}.verdicts`,
        });
      }
      return;
    }
    const dispatched = new Set(batch.findingIds);
    const voted = new Set<string>();
    w.verdicts.forEach((v, j) => {
      const vat = `${at}.verdicts[${j}]`;
      if (!dispatched.has(v.findingId)) {
        throw new InputError(`worker ${w.workerId}: finding ${v.findingId}: verdict for a finding not dispatched to this worker`, {
          file,
          field: `${vat}.findingId`,
        });
      }
      if (voted.has(v.findingId)) throw new InputError(`worker ${w.workerId}: finding ${v.findingId}: two verdicts for one finding`, { file, field: vat });
      voted.add(v.findingId);
      if (v.explanation.trim() === '') {
        throw new InputError(`worker ${w.workerId}: finding ${v.findingId}: vote with no explanation`, { file, field: `${vat}.explanation` });
      }
    });
    const missing = batch.findingIds.find((id) => !voted.has(id));
    if (missing) throw new InputError(`worker ${w.workerId}: finding ${missing}: dispatched finding with no verdict`, { file, field: `${at}.verdicts` });
  });
  const absent = plan.batches.find((b) => !seen.has(b.workerId));
  if (absent) throw new InputError(`worker ${absent.workerId}: planned worker with no recorded outcome`, { file, field: 'workers' });
}

/**
 * The reduction of one validated round (docs/convergence.md "Reduction"):
 * 1. a worker that completed adds its votes to each finding's current pass; one
 *    that ended timeout/error/not-run counts a failure (the retry budget,
 *    `@okstra/schemas/retry-budget`), and its second failure drops it from the
 *    roster (`droppedInRound`);
 * 2. each pending finding is then judged on its **standing votes** — every
 *    worker's latest vote across passes ({@link standingVotes}) — against its
 *    eligible reviewers (active analysers, not authors):
 *    - none left → decided, reason `no-eligible-reviewer`;
 *    - all have voted in this pass → decided, reason `consensus`, except a split
 *      below the round limit, which starts a new pass (a split at or past the
 *      limit is `contested`, reason `round-limit`);
 *    - some still owe a vote → pending below the limit; at or past the limit,
 *      pending while every reviewer that owes a vote still has its retry (it is
 *      retried in the next round), else decided, reason `round-limit`.
 * Decision on votes: {@link decide}.
 */
function reduceRound(before: DerivedState, index: SeedIndex, roundLimit: number, plan: RoundPlan, results: RoundResults): DerivedState {
  const round = plan.round;
  const workers = before.workers.map((w) => ({ ...w }));
  const byWorker = new Map(workers.map((w) => [w.workerId, w]));
  const newVotes = new Map<string, PassVote[]>();
  for (const outcome of [...results.workers].sort((a, b) => (a.workerId < b.workerId ? -1 : 1))) {
    const w = byWorker.get(outcome.workerId)!;
    if (outcome.status !== 'completed') {
      w.failures = Math.min(MAX_FAILURES_PER_WORKER, countFailure(w.failures, outcome.status));
      if (!hasRetryLeft(w.failures)) w.droppedInRound = round;
      continue;
    }
    for (const v of outcome.verdicts) {
      let list = newVotes.get(v.findingId);
      if (!list) newVotes.set(v.findingId, (list = []));
      list.push({ workerId: outcome.workerId, verdict: v.verdict, round });
    }
  }
  const active = activeAnalysers(workers);
  const atLimit = round >= roundLimit;
  const findings = before.findings.map((f): FindingStanding => {
    if (f.status !== 'pending') return f;
    const votes = [...f.currentVotes, ...(newVotes.get(f.id) ?? [])];
    const next: FindingStanding = { ...f, currentVotes: votes };
    const eligible = eligibleReviewers(index.authors.get(f.id) ?? new Set(), active);
    const voters = new Set(votes.map((v) => v.workerId));
    const owing = eligible.filter((w) => !voters.has(w));
    let reason: FindingReason;
    if (eligible.length === 0) reason = 'no-eligible-reviewer';
    else if (owing.length === 0) reason = 'consensus';
    // An unused retry is never forfeited by the limit: at the limit, a finding owed only by workers that still have their retry waits for the retry round.
    else if (!atLimit || (round === roundLimit && owing.every((w) => hasRetryLeft(byWorker.get(w)!.failures)))) return next;
    else reason = 'round-limit';
    const status = decide(standingVotes(next).map((v) => v.verdict));
    if (status === 'contested' && reason === 'consensus') {
      if (!atLimit) return { ...f, pass: f.pass + 1, currentVotes: [], priorVotes: standingVotes(next) };
      reason = 'round-limit';
    }
    return { ...next, status, reason, decidedInRound: round };
  });
  return {
    round,
    queueTerminal: findings.every((f) => f.status !== 'pending'),
    workers,
    findings,
    criticGaps: before.criticGaps,
  };
}

export { decide, standingVotes } from './decision.js';
