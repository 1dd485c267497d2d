import type { RunManifest } from './run-manifest.js';
import type { TeamStateRow } from './team-state.js';
import { capabilityOfRoleLabel } from './roles.js';
import { REPORT_WRITER_ROLE } from './vocabulary.js';

/**
 * How a worker row is started, which decides what it leaves and who judges it:
 * - `team`: through `okstra team` (the provider's CLI wrapper in a pane, or degraded to a subprocess) —
 *   each dispatch leaves a `workerDispatches[]` record, a wrapper log and a status sidecar;
 * - `host`: by the lead itself, as its own native session (a Claude Code lead's Claude rows, a Codex lead's
 *   Codex rows, a report writer the lead starts itself) — no record, no wrapper file, no pane: its row,
 *   recorded with `okstra worker-state transition`, and its audit sidecar's heartbeats are all there is
 *   (seed 000 cmux.md: "Under cmux every lead dispatches through `okstra team`, including a Claude Code
 *   lead" — elsewhere it does not);
 * - `unknown`: a row of an older okstra that says neither (no assignment, no liveness mode).
 */
export type WorkerRoute = 'team' | 'host' | 'unknown';

type RouteManifest = Pick<RunManifest, 'leadRuntime' | 'terminalBackend' | 'workerAssignments'>;
type RouteRow = Pick<TeamStateRow, 'workerId' | 'role' | 'livenessMode'>;

/**
 * The route of `row`, from the run's own declarations, most specific first (docs/run-audit.md "Which rows
 * leave dispatch records"; the one rule `team dispatch`, `team await` and run-audit share): an `external`
 * lead's run and a `cmux-pane` run send every row through `okstra team`; otherwise the row's `workerAssignments[]` entry's `runner` (`cli-wrapper` → team,
 * `native-session` → host); a row with no assignment (a report writer outside the roster, an older run) by
 * its `livenessMode` (`wrapper-status` is the wrapper's sidecar, `audit-heartbeat` a worker heartbeating on its own).
 */
export function workerRoute(manifest: RouteManifest, row: RouteRow): WorkerRoute {
  // An external lead has no session to host a worker in; under cmux okstra owns every pane.
  if (manifest.leadRuntime === 'external' || manifest.terminalBackend === 'cmux-pane') return 'team';
  const a = assignmentOfRow(manifest.workerAssignments, row);
  if (a?.runner === 'cli-wrapper') return 'team';
  if (a?.runner === 'native-session') return 'host';
  if (row.livenessMode === 'wrapper-status') return 'team';
  if (row.livenessMode === 'audit-heartbeat') return 'host';
  return 'unknown';
}

/** The assignment a row runs: the one with its worker id, else (ids unset) the one of its provider, else the roster's report writer for the writer's row. */
export function assignmentOfRow<A extends { workerId?: string | null; provider: string; role: string }>(
  assignments: readonly A[],
  row: Pick<TeamStateRow, 'workerId' | 'role'>,
): A | undefined {
  return (
    assignments.find((a) => a.workerId === row.workerId) ??
    assignments.find((a) => (a.workerId ?? undefined) === undefined && a.provider === row.workerId) ??
    (isWriterLike(row) ? assignments.find(isWriterLike) : undefined)
  );
}

/** The report writer's row or assignment: worker id `report-writer`, or a report-writer role label (roles.ts). */
export function isWriterLike(x: { workerId?: string | null; role?: string | null }): boolean {
  return x.workerId === REPORT_WRITER_ROLE || (typeof x.role === 'string' && capabilityOfRoleLabel(x.role) === REPORT_WRITER_ROLE);
}
