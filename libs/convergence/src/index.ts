/**
 * `@okstra/convergence`: the convergence model of okstra (docs/contracts.md §5, §7;
 * rules in docs/convergence.md). Pure functions over parsed documents — seed,
 * plan a round, collect and reduce a round, apply critic gaps, finalize, replay
 * and validate. okstra-convergence wires them to files; okstra-run-audit calls
 * {@link validateFinalState} and {@link validateWorkingState} directly.
 */
export * from './digest.js';
export * from './document-kind.js';
export * from './seed-state.js';
export * from './plan-round.js';
export * from './apply-round.js';
export * from './critic-gaps.js';
export * from './collect-critic-gaps.js';
export * from './collect-results.js';
export { readResponseVotes, VOTE_FIELD_LABELS, type BlockVote } from './response-votes.js';
export * from './replay.js';
export * from './migrate.js';
export * from './finalize.js';
export * from './validate-final.js';
export * from './examples.js';
export * from './worker-prompts.js';
export { WORKER_TEXTS } from './worker-texts.generated.js';
export * from './object-votes.js';
