import { InputError } from '@okstra/core';
import type { CoverageBatch, DerivedState, FindingStanding, GapDecision, WorkingState } from '@okstra/schemas/convergence';
import { decide } from './decision.js';
import { activeAnalysers } from './seed-state.js';

/**
 * Apply one coverage batch (docs/convergence.md "Critic gaps"): only once, only
 * when the main queue is terminal. Each gap is decided on the analysers' votes
 * with the round rule: accepted (agree/supplement only), rejected (disagree only),
 * unresolved (split, or no decisive vote). Accepted gaps become critic-sourced
 * findings, `agreed`, reason `critic-accepted`. Pure: returns the new state.
 * @throws InputError (exit 2) when the queue is not terminal, a batch was already
 *   applied, the critic is not the roster's critic, an active analyser has no
 *   dispatch row, a dispatch or vote names a worker that is not an active analyser,
 *   a gap id repeats or collides with a finding, a completed analyser misses or
 *   repeats a vote, a failed one votes, or a vote has no explanation.
 */
export function applyCriticGaps(state: WorkingState, batch: CoverageBatch, labels: { state?: string; results?: string } = {}): WorkingState {
  checkCoverageBatch(state, batch, labels);
  return { ...state, criticBatch: batch, derived: reduceCriticGaps(state.derived, batch) };
}

/**
 * The checks of {@link applyCriticGaps} without applying (also run by
 * `collect-critic-gaps` on what it produced).
 * @throws InputError as {@link applyCriticGaps} does.
 */
export function checkCoverageBatch(state: WorkingState, batch: CoverageBatch, labels: { state?: string; results?: string } = {}): void {
  const file = labels.results ?? 'results';
  const d = state.derived;
  if (!d.queueTerminal) {
    const pending = d.findings.filter((f) => f.status === 'pending');
    throw new InputError(
      `the main queue is not terminal yet (${pending.length} finding(s) pending, first ${pending[0]?.id}): apply-critic-gaps runs after the last round`,
      { file: labels.state ?? 'working state', field: 'derived.queueTerminal' },
    );
  }
  if (state.criticBatch)
    throw new InputError('a coverage batch was already applied to this working state', { file: labels.state ?? 'working state', field: 'criticBatch' });
  const critic = state.seed.roster.find((w) => w.role === 'critic');
  if (!critic) throw new InputError('the roster has no critic, so there are no critic gaps to apply', { file, field: 'criticWorkerId' });
  if (batch.criticWorkerId !== critic.workerId) {
    throw new InputError(`critic '${batch.criticWorkerId}' is not the roster's critic '${critic.workerId}'`, { file, field: 'criticWorkerId' });
  }
  const criticDone = (batch.criticDispatch?.status ?? 'completed') === 'completed';
  if (!criticDone && batch.gaps.length > 0) {
    throw new InputError(`the critic ended ${batch.criticDispatch!.status} but the batch has gaps (a critic that did not complete proposes none)`, {
      file,
      field: 'gaps',
    });
  }
  const active = new Set(activeAnalysers(d.workers));
  const status = new Map<string, string>();
  batch.dispatches.forEach((row, i) => {
    if (!active.has(row.workerId))
      throw new InputError(`worker ${row.workerId} is not an active analyser of the roster`, { file, field: `dispatches[${i}].workerId` });
    if (status.has(row.workerId)) throw new InputError(`worker ${row.workerId} has two dispatch rows`, { file, field: `dispatches[${i}].workerId` });
    status.set(row.workerId, row.status);
  });
  // With no gap there is nothing to vote on, so no analyser needs to have been dispatched.
  if (batch.gaps.length > 0)
    for (const w of active) if (!status.has(w)) throw new InputError(`analyser ${w}: no dispatch outcome for the coverage vote`, { file, field: 'dispatches' });
  const ids = new Set(d.findings.map((f) => f.id));
  batch.gaps.forEach((gap, i) => {
    if (ids.has(gap.id)) throw new InputError(`gap ${gap.id} repeats a finding id`, { file, field: `gaps[${i}].id` });
    ids.add(gap.id);
    const voted = new Set<string>();
    gap.votes.forEach((v, j) => {
      const at = `gaps[${i}].votes[${j}]`;
      const s = status.get(v.workerId);
      if (s === undefined) throw new InputError(`gap ${gap.id}: vote from ${v.workerId}, which has no dispatch row`, { file, field: `${at}.workerId` });
      if (s !== 'completed') throw new InputError(`gap ${gap.id}: worker ${v.workerId} ended ${s} but voted`, { file, field: at });
      if (voted.has(v.workerId)) throw new InputError(`gap ${gap.id}: worker ${v.workerId} voted twice`, { file, field: at });
      voted.add(v.workerId);
      if (v.explanation.trim() === '')
        throw new InputError(`gap ${gap.id}: worker ${v.workerId}: vote with no explanation`, { file, field: `${at}.explanation` });
    });
    for (const [w, s] of status) {
      if (s === 'completed' && !voted.has(w))
        throw new InputError(`gap ${gap.id}: analyser ${w} completed but has no vote on it`, { file, field: `gaps[${i}].votes` });
    }
  });
}

/** Decision of one gap from its votes. */
export function gapDecision(verdicts: Parameters<typeof decide>[0]): GapDecision {
  const status = decide(verdicts);
  return status === 'agreed' ? 'accepted' : status === 'refuted' ? 'rejected' : 'unresolved';
}

function reduceCriticGaps(before: DerivedState, batch: CoverageBatch): DerivedState {
  const criticGaps = batch.gaps.map((g) => ({ id: g.id, decision: gapDecision(g.votes.map((v) => v.verdict)) }));
  const accepted: FindingStanding[] = criticGaps
    .filter((g) => g.decision === 'accepted')
    .map((g) => ({ id: g.id, source: 'critic', status: 'agreed', reason: 'critic-accepted', decidedInRound: before.round, pass: 1, currentVotes: [] }));
  return { ...before, findings: [...before.findings, ...accepted], criticGaps };
}
