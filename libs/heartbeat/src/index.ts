/**
 * @okstra/heartbeat — the one home of the heartbeat line shape, its cadence
 * budget and the liveness judgement (docs/contracts.md §7; docs/heartbeat.md).
 * `okstra-worker-liveness` (live probe), `okstra-team await` and
 * `okstra-run-audit` (post-hoc cadence) all import it; there is no second copy.
 */
export * from './constants.js';
export * from './line.js';
export * from './tail.js';
export * from './rule.js';
export * from './resolve.js';
export * from './probe.js';
