/**
 * @okstra/audit-rules — the run-audit progress invariants (docs/run-audit.md)
 * and the worker audit-sidecar rules shared by `worker-audit-check` and run-audit
 * (docs/worker-audit-check.md). The error-issue pipeline is @okstra/error-issue.
 * Seed 000: `/okstra-inspect` README row, `worker-audit-check` cli.md row,
 * `run_audit.py` module row.
 */
export * from './invariants.js';
export * from './files.js';
export * from './run-context.js';
export * from './discover.js';
export * from './audit-run.js';
export * from './audit-project.js';
export * from './checks/index.js';
export * from './worker-audit/ledger.js';
export * from './worker-audit/rules.js';
export * from './hosts.js';
export * from './worker-audit/citations.js';
