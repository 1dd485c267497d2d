import { InputError } from '@okstra/core';
import type {
  DerivedState,
  FindingReason,
  FindingStanding,
  FindingStatus,
  PassVote,
  RoundPlan,
  RoundResults,
  Verdict,
  WorkingState,
} from '@okstra/schemas/convergence';
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
  const want = new Map(expected.batches.map((b) => [b.workerId, b.findingIds]));
  const seen = new Set<string>();
  for (const [i, b] of plan.batches.entries()) {
    if (seen.has(b.workerId)) throw new InputError(`worker ${b.workerId} has two batches`, { file, field: `batches[${i}]` });
    seen.add(b.workerId);
    const ids = want.get(b.workerId);
    if (!ids) throw new InputError(`worker ${b.workerId} has a batch, but the working state plans none for it this round`, { file, field: `batches[${i}]` });
    if (ids.join('\n') !== b.findingIds.join('\n')) {
      throw new InputError(`batch of worker ${b.workerId} differs from the plan the working state makes (plan-round again)`, {
        file,
        field: `batches[${i}].findingIds`,
      });
    }
  }
  for (const w of want.keys()) {
    if (!seen.has(w)) throw new InputError(`worker ${w} has no batch, but the working state plans one for it this round`, { file, field: 'batches' });
  }
  if (plan.mode !== state.seed.mode)
    throw new InputError(`plan mode '${plan.mode}' differs from the groups mode '${state.seed.mode}'`, { file, field: 'mode' });
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
 *    that ended timeout/error/not-run counts a failure, and its second failure
 *    drops it from the roster (`droppedInRound`);
 * 2. each pending finding is then judged against its eligible reviewers (active
 *    analysers, not authors): none left → decided on the votes it has, reason
 *    `no-eligible-reviewer`; all have voted → decided, reason `consensus`, except
 *    a split below the round limit, which starts a new pass; some still owe a vote
 *    → pending below the limit, decided on the votes it has at the limit (`round-limit`).
 * Decision on votes: no votes, or only `unverifiable` → unverifiable; the others
 * (ignoring `unverifiable`) all agree/supplement → agreed; all disagree → refuted;
 * both → contested.
 */
export function reduceRound(before: DerivedState, index: SeedIndex, roundLimit: number, plan: RoundPlan, results: RoundResults): DerivedState {
  const round = plan.round;
  const workers = before.workers.map((w) => ({ ...w }));
  const byWorker = new Map(workers.map((w) => [w.workerId, w]));
  const newVotes = new Map<string, PassVote[]>();
  for (const outcome of [...results.workers].sort((a, b) => (a.workerId < b.workerId ? -1 : 1))) {
    const w = byWorker.get(outcome.workerId)!;
    if (outcome.status !== 'completed') {
      w.failures = Math.min(2, w.failures + 1);
      if (w.failures >= 2) w.droppedInRound = round;
      continue;
    }
    for (const v of outcome.verdicts) {
      let list = newVotes.get(v.findingId);
      if (!list) newVotes.set(v.findingId, (list = []));
      list.push({ workerId: outcome.workerId, verdict: v.verdict, round });
    }
  }
  const active = activeAnalysers(workers);
  const findings = before.findings.map((f): FindingStanding => {
    if (f.status !== 'pending') return f;
    const votes = [...f.currentVotes, ...(newVotes.get(f.id) ?? [])];
    const eligible = eligibleReviewers(index.authors.get(f.id) ?? new Set(), active);
    const voters = new Set(votes.map((v) => v.workerId));
    const owing = eligible.filter((w) => !voters.has(w));
    let reason: FindingReason;
    if (eligible.length === 0) reason = 'no-eligible-reviewer';
    else if (owing.length === 0) reason = 'consensus';
    else if (round >= roundLimit) reason = 'round-limit';
    else return { ...f, currentVotes: votes };
    const status = decide(votes.map((v) => v.verdict));
    if (status === 'contested' && reason === 'consensus') {
      if (round < roundLimit) return { ...f, pass: f.pass + 1, currentVotes: [] };
      reason = 'round-limit';
    }
    return { ...f, status, reason, decidedInRound: round, currentVotes: votes };
  });
  return {
    round,
    queueTerminal: findings.every((f) => f.status !== 'pending'),
    workers,
    findings,
    criticGaps: before.criticGaps,
  };
}

/** The decision rule on a set of votes (see {@link reduceRound}). */
export function decide(verdicts: readonly Verdict[]): Exclude<FindingStatus, 'pending'> {
  let agree = false;
  let disagree = false;
  for (const v of verdicts) {
    if (v === 'agree' || v === 'supplement') agree = true;
    else if (v === 'disagree') disagree = true;
  }
  if (agree && disagree) return 'contested';
  if (agree) return 'agreed';
  if (disagree) return 'refuted';
  return 'unverifiable';
}
