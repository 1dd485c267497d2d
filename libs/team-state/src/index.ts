/**
 * @okstra/team-state — team-state rows and their transition rules
 * (docs/contracts.md §7, 0.161.0 `worker-state transition` row): pure rules in
 * `transitions`, the one locked read-modify-write in `store`.
 */
export * from './transitions.js';
export * from './store.js';
export * from './wrapper-verdict.js';
export * from './dispatch-kinds.js';
export * from './teardown-policy.js';
export * from './completion.js';
