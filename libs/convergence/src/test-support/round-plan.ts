// A round plan for the collect specs: one batch per worker (provider named
// after it, no prior failure), round 1 of an adversarial run.
import type { RoundPlan } from '@okstra/schemas/convergence';

/** A round-1 adversarial `RoundPlan` asking each worker (id → finding ids, in order) about its findings; `roundLimit` default 3. */
export function roundPlan(asked: Record<string, string[]>, roundLimit = 3): RoundPlan {
  return {
    schemaVersion: '1.0',
    kind: 'round-plan',
    seedDigest: 'sha256:' + 'a'.repeat(64),
    mode: 'adversarial',
    round: 1,
    roundLimit,
    queueTerminal: false,
    droppedWorkers: [],
    batches: Object.entries(asked).map(([workerId, findingIds]) => ({ workerId, provider: workerId, priorFailures: 0, findingIds })),
  };
}
