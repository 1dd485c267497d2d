import type { ConvergenceGroups, DerivedState, FindingStanding, WorkerStanding, WorkingState } from '@okstra/schemas/convergence';
import { seedDigest } from './digest.js';

/** Current working-state schema version; `1.0` is migrated by `seed`. */
export const WORKING_STATE_VERSION = '1.1';
/** Final-state schema version `finalize` writes. */
export const FINAL_STATE_VERSION = '1.3';

/** Lookups over a seed input, built once per command. */
export interface SeedIndex {
  groups: ConvergenceGroups;
  /** Finding id → its authors (critic-sourced findings: the critic). */
  authors: Map<string, ReadonlySet<string>>;
}

/** Build the {@link SeedIndex} of a groups document (plus critic-accepted findings, when given). */
export function indexSeed(groups: ConvergenceGroups, critic?: { workerId: string; findingIds: string[] }): SeedIndex {
  const authors = new Map<string, ReadonlySet<string>>();
  for (const f of groups.findings) authors.set(f.id, new Set(f.authors));
  if (critic) for (const id of critic.findingIds) authors.set(id, new Set([critic.workerId]));
  return { groups, authors };
}

/** Analysers still in the roster (not dropped), sorted by worker id. */
export function activeAnalysers(workers: readonly WorkerStanding[]): string[] {
  return workers
    .filter((w) => w.role === 'analyser' && w.droppedInRound === null)
    .map((w) => w.workerId)
    .sort();
}

/** Eligible reviewers of a finding: active analysers that are not its authors (never its own author). */
export function eligibleReviewers(authors: ReadonlySet<string>, active: readonly string[]): string[] {
  return active.filter((w) => !authors.has(w));
}

/**
 * Derived state at round 0: every roster worker with the failures the groups
 * carry from earlier dispatches of the run (`roster[].failures`, default 0); a finding
 * raised by every analyser of the roster is `agreed` (reason `corroborated`,
 * decided in round 0); every other finding is `pending` in pass 1.
 */
function seedDerived(groups: ConvergenceGroups): DerivedState {
  const workers: WorkerStanding[] = [...groups.roster]
    .sort((a, b) => (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : 0))
    .map((w) => ({ workerId: w.workerId, provider: w.provider, role: w.role, failures: w.failures ?? 0, droppedInRound: null }));
  const analysers = activeAnalysers(workers);
  const findings: FindingStanding[] = groups.findings.map((f) => {
    const corroborated = analysers.every((a) => f.authors.includes(a));
    return {
      id: f.id,
      source: 'analyser',
      status: corroborated ? 'agreed' : 'pending',
      reason: corroborated ? 'corroborated' : null,
      decidedInRound: corroborated ? 0 : null,
      pass: 1,
      currentVotes: [],
    };
  });
  return { round: 0, queueTerminal: findings.every((f) => f.status !== 'pending'), workers, findings, criticGaps: [] };
}

/** A new v1.1 working state for a (parsed) groups document. */
export function createWorkingState(groups: ConvergenceGroups): WorkingState {
  return {
    schemaVersion: WORKING_STATE_VERSION,
    kind: 'convergence-working-state',
    seedDigest: seedDigest(groups),
    seed: groups,
    rounds: [],
    criticBatch: null,
    derived: seedDerived(groups),
  };
}

/** Counts of the derived findings by status, for summaries. */
export function statusCounts(derived: DerivedState): Record<'pending' | 'agreed' | 'refuted' | 'unverifiable' | 'contested', number> {
  const counts = { pending: 0, agreed: 0, refuted: 0, unverifiable: 0, contested: 0 };
  for (const f of derived.findings) counts[f.status] += 1;
  return counts;
}
