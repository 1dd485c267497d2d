/**
 * @okstra/audit-rules — the run-audit progress invariants (docs/run-audit.md),
 * the worker audit-sidecar rules shared by `worker-audit-check` and run-audit
 * (docs/worker-audit-check.md), and the error-issue pipeline's pure logic
 * (docs/error-issue.md). Seed 000: `/okstra-inspect` README row,
 * `worker-audit-check` cli.md row, `run_audit.py` / `issue_signals.py` /
 * `error_issue.py` module row.
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
export * from './error-issue/index.js';
