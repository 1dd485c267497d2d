/**
 * @okstra/error-issue — the error-issue pipeline (docs/error-issue.md): anomalies of run-audit and the
 * errors logs, anonymized and clustered into GitHub issue candidates, and their submission through gh.
 * Seed 000 `issue_signals.py` / `error_issue.py` row.
 */
export * from './patterns.js';
export * from './identities.js';
export * from './normalize.js';
export * from './shapes.js';
export * from './vocabulary.js';
export * from './reduce.js';
export * from './blocklist.js';
export * from './signals.js';
export * from './cluster.js';
export * from './render.js';
export * from './last-gate.js';
export * from './match.js';
export * from './inputs.js';
export * from './plan.js';
export * from './machine.js';
export * from './gh.js';
export * from './plan-run.js';
export * from './submit-run.js';
