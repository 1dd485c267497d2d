import { InputError } from '@okstra/core';
import type { RoundBatch, RoundPlan, WorkingState } from '@okstra/schemas/convergence';
import { activeAnalysers, indexSeed, type SeedIndex } from './seed-state.js';

/**
 * The next round's plan for a working state (docs/convergence.md "Planning"):
 * every pending finding goes to each active analyser that is not its author and
 * has not voted in the finding's current pass; a worker gets at most one batch,
 * findings in seed order, batches sorted by worker id. A worker with one failure
 * is planned as usual (`priorFailures: 1`: this batch is its one retry); a worker
 * with two is out of the roster. No pending finding → `queueTerminal: true`, no
 * batches. Pure: same state → same plan.
 * @throws InputError when the state is past its round limit but not terminal, or a
 *   pending finding has no reviewer left (both impossible for a state `apply-round` wrote).
 */
export function planRound(state: WorkingState, index: SeedIndex = indexSeed(state.seed, criticIndex(state)), label = 'working state'): RoundPlan {
  const d = state.derived;
  const plan: RoundPlan = {
    schemaVersion: '1.0',
    kind: 'round-plan',
    seedDigest: state.seedDigest,
    mode: state.seed.mode,
    round: d.round + 1,
    roundLimit: state.seed.roundLimit,
    queueTerminal: d.queueTerminal,
    batches: [],
    droppedWorkers: d.workers.filter((w) => w.droppedInRound !== null).map((w) => w.workerId),
  };
  if (d.queueTerminal) return plan;
  if (d.round >= state.seed.roundLimit) {
    throw new InputError(`the state is at its round limit (${state.seed.roundLimit}) but findings are still pending`, { file: label, field: 'derived.round' });
  }
  const active = activeAnalysers(d.workers);
  const byWorker = new Map<string, string[]>(active.map((w) => [w, []]));
  for (const f of d.findings) {
    if (f.status !== 'pending') continue;
    const authors = index.authors.get(f.id) ?? new Set<string>();
    const voted = new Set(f.currentVotes.map((v) => v.workerId));
    let planned = 0;
    for (const w of active) {
      if (authors.has(w) || voted.has(w)) continue;
      byWorker.get(w)!.push(f.id);
      planned += 1;
    }
    if (planned === 0) {
      throw new InputError(`finding ${f.id} is pending but has no reviewer left to plan`, { file: label, field: 'derived.findings' });
    }
  }
  const failures = new Map(d.workers.map((w) => [w.workerId, w.failures]));
  const providers = new Map(d.workers.map((w) => [w.workerId, w.provider]));
  plan.batches = active
    .filter((w) => byWorker.get(w)!.length > 0)
    .map((w): RoundBatch => ({ workerId: w, provider: providers.get(w)!, priorFailures: failures.get(w)! as 0 | 1, findingIds: byWorker.get(w)! }));
  return plan;
}

/** The critic-sourced findings of a state, for {@link indexSeed}. */
export function criticIndex(state: WorkingState): { workerId: string; findingIds: string[] } | undefined {
  if (!state.criticBatch) return undefined;
  return {
    workerId: state.criticBatch.criticWorkerId,
    findingIds: state.derived.findings.filter((f) => f.source === 'critic').map((f) => f.id),
  };
}
