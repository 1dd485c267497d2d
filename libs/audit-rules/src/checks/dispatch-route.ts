import type { Assignment } from '@okstra/schemas/run-manifest';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import type { RunUnderAudit } from '../run-context.js';
import { isReportWriter } from './report-writer.js';

/**
 * How a row's worker was started, which decides the artifacts it must leave:
 * - `team`: through `okstra team` (the provider's CLI wrapper in a pane, or degraded to a subprocess) —
 *   each dispatch leaves a `workerDispatches[]` record, a wrapper log and a status sidecar;
 * - `host`: by the lead itself, as its own native session (a Claude Code lead's Claude rows, a Codex lead's
 *   Codex rows, a report writer the lead started in-process) — no record, no wrapper file, no pane:
 *   the row and its audit sidecar's heartbeats are all there is (seed 000 cmux.md: "Under cmux every lead
 *   dispatches through `okstra team`, including a Claude Code lead" — elsewhere it does not);
 * - `unknown`: a row written by an older okstra that says neither (no assignment, no liveness mode):
 *   nothing is required of it.
 */
export type DispatchRoute = 'team' | 'host' | 'unknown';

/**
 * The route of `row`, from the run's own declarations, most specific first (docs/run-audit.md "Which rows
 * leave dispatch records"): a `cmux-pane` run sends every row through `okstra team`; otherwise the row's
 * `workerAssignments[]` entry's `runner` (`cli-wrapper` → team, `native-session` → host); a row with no
 * assignment (a report writer outside the roster, an older run) by its `livenessMode` (`wrapper-status` is
 * the wrapper's sidecar, `audit-heartbeat` a worker heartbeating on its own).
 */
export function dispatchRoute(run: RunUnderAudit, row: Pick<TeamStateRow, 'workerId' | 'role' | 'provider' | 'livenessMode'>): DispatchRoute {
  if (run.manifest.terminalBackend === 'cmux-pane') return 'team';
  const a = assignmentOf(run.manifest.workerAssignments, row);
  if (a?.runner === 'cli-wrapper') return 'team';
  if (a?.runner === 'native-session') return 'host';
  if (row.livenessMode === 'wrapper-status') return 'team';
  if (row.livenessMode === 'audit-heartbeat') return 'host';
  return 'unknown';
}

/** The assignment a row runs: the one with its worker id, else (ids unset) the one of its provider, else the roster's report writer for the writer's row. */
function assignmentOf(assignments: readonly Assignment[], row: Pick<TeamStateRow, 'workerId' | 'role' | 'provider'>): Assignment | undefined {
  return (
    assignments.find((a) => a.workerId === row.workerId) ??
    assignments.find((a) => a.workerId === undefined && a.provider === row.workerId) ??
    (isReportWriter(row) ? assignments.find((a) => isReportWriter(a)) : undefined)
  );
}
