import type { FindingStanding, FindingStatus, PassVote, Verdict } from '@okstra/schemas/convergence';

/**
 * The votes a finding stands on: its current-pass votes plus, for every worker with
 * no vote in the current pass, its latest vote of an earlier pass (`priorVotes`) —
 * a dissent is never erased by a later timeout or drop. Sorted by worker id.
 */
export function standingVotes(f: Pick<FindingStanding, 'currentVotes' | 'priorVotes'>): PassVote[] {
  const latest = new Map<string, PassVote>();
  for (const v of f.priorVotes ?? []) latest.set(v.workerId, v);
  for (const v of f.currentVotes) latest.set(v.workerId, v);
  return [...latest.values()].sort((a, b) => (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : 0));
}

/**
 * The decision rule on a set of votes (docs/convergence.md "Reduction"), ignoring
 * `unverifiable` beside decisive votes: agree/supplement only → agreed; disagree
 * only → refuted; both → contested; no decisive vote → unverifiable.
 */
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
