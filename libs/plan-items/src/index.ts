/**
 * `@okstra/plan-items`: the logic of okstra-plan-items — the P-* queue
 * (extract, compare), verdict collection over the shared block parser, the
 * overwrite-not-merge apply, the aggregate rule (also called by okstra-run-audit)
 * and the incremental re-run scope. docs/plan-items.md documents every rule.
 */
export * from './ids.js';
export * from './extract.js';
export * from './compare.js';
export * from './collect.js';
export * from './aggregate.js';
export * from './apply.js';
export * from './stage-graph.js';
export * from './incremental-scope.js';
export * from './repair.js';
export * from './report-section.js';
export * from './object-votes.js';
