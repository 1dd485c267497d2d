import { basename } from 'node:path';
import { wrapperLogPath, wrapperStatusPath } from '@okstra/paths';
import { MAX_FAILURES_PER_WORKER } from '@okstra/schemas/retry-budget';
import { capabilityOfRoleLabel, normalizeRoleLabel } from '@okstra/schemas/roles';
import { parseJsonText } from '@okstra/state-file';
import type { Finding, RunUnderAudit } from '../run-context.js';
import { rowFiles } from './answers.js';
import { dispatchRoundOf } from '@okstra/schemas/vocabulary';
import { dispatchRoute } from './dispatch-route.js';
import { isReportWriter } from './report-writer.js';

const instant = (t: unknown) => (typeof t === 'string' && t ? Date.parse(t) : NaN);

/**
 * Invariant 23 `dispatch-mismatch` (seed 000 cmux.md: "Worker completion is valid only from
 * `workerDispatches[]`, terminal status sidecars, and required Result Paths"; "`redispatch_worker`:
 * … a new `dispatchKind`"; "tear down only Okstra-owned panes recorded for the run"; claude-code.md
 * "the core's single shared retry budget"). The row, the wrapper's status sidecar and the manifest's
 * `workerDispatches[]` agree; times come from the artifacts, never from file mtimes:
 * - a status sidecar that started before the row's `startedAt` (or, recording no start, ended before it) belongs
 *   to an earlier dispatch and is ignored ({@link ofThisDispatch}); one of this dispatch names the
 *   row's worker, says `completed` for a completed row (a sidecar left `running` backs no completion), and
 *   ends no later than the row;
 * - a completed row's newest dispatch record is not `not-started` with no wrapper log or status beside its prompt;
 * - a row `dispatchKind` other than `initial` has its `workerDispatches[]` record (when the run records any), if the
 *   row went through `okstra team` ({@link dispatchRoute}): a worker the lead started as its own native session
 *   (`runner: native-session`, outside cmux) leaves none, whatever its kind;
 * - no two records share a worker and `dispatchKind`; every record's worker has a row;
 * - a `subprocess` record in a run whose `terminalBackend` is a pane backend says what it degraded from;
 * - the retry budget: no row counts more than {@link MAX_FAILURES_PER_WORKER} failures, a completed row
 *   fewer, a timeout or error row at least one, and no worker has more than one `-retry` dispatch of one kind;
 * - a pane record torn down (`tornDownAt`) was torn down after it started and after its worker's row ended; one
 *   never torn down is flagged once a later round was dispatched (seed 000 cmux.md: "Reclaim each round's panes at
 *   the round boundary … before the next round's dispatch"). The last round's panes close after the user's
 *   approval gate ("After usage collection, persistence, and the core user-approval gate, run `okstra team
 *   teardown`"), which no artifact records, so they are not judged.
 */
export async function checkDispatchAgreement(run: RunUnderAudit): Promise<Finding[]> {
  const out: Finding[] = [];
  const m = run.manifest;
  const state = run.teamStatePath ? [run.teamStatePath] : [];
  const finding = (message: string, evidence: string[] = [run.manifestPath, ...state]) => out.push({ invariant: 'dispatch-mismatch', message, evidence });
  const rows = run.teamState?.workers ?? [];
  const records = m.workerDispatches;
  for (const row of rows) {
    const { prompt } = rowFiles(run, row);
    const statusFile = prompt ? wrapperStatusPath(prompt) : null;
    if (statusFile && run.files.exists(statusFile)) {
      const text = await run.files.readText(statusFile);
      const status = text === null ? null : safeJson(text);
      if (status && ofThisDispatch(status, row.startedAt)) {
        if (status.workerId !== undefined && status.workerId !== row.workerId) {
          finding(`worker '${row.workerId}': its status sidecar ${basename(statusFile)} is worker '${String(status.workerId)}''s`, [...state, statusFile]);
        } else if (row.status === 'completed' && status.status !== 'completed') {
          // The wrapper writes `completed` or `error` when the provider ends (libs/schemas team-wrapper-status); a
          // sidecar left at anything else (`running`) is no terminal status sidecar, so it backs no completion.
          finding(`worker '${row.workerId}' is completed but its status sidecar says ${typeof status.status === 'string' ? status.status : 'no status'}`, [
            ...state,
            statusFile,
          ]);
        } else if (row.endedAt && instant(status.endedAt) > instant(row.endedAt) + 60_000) {
          finding(`worker '${row.workerId}': its status sidecar ended at ${String(status.endedAt)}, after the row's endedAt ${row.endedAt}`, [
            ...state,
            statusFile,
          ]);
        }
      }
    }
    // The wrapper writes its status sidecar when the provider ends: a log with no status is a wrapper that never
    // finished, so a row that says completed was not told so by the wrapper (seed 000 cmux.md: completion only from
    // "terminal status sidecars"). Judged only when the run records this worker's dispatch and the log exists.
    if (
      row.status === 'completed' &&
      row.livenessMode === 'wrapper-status' &&
      statusFile &&
      !run.files.exists(statusFile) &&
      prompt &&
      run.files.exists(wrapperLogPath(prompt)) &&
      records.some((d) => d.workerId === row.workerId)
    ) {
      finding(`worker '${row.workerId}' is completed but its wrapper left a log and no status sidecar (${basename(statusFile)}): the wrapper never finished`, [
        ...state,
        wrapperLogPath(prompt),
      ]);
    }
    // A completed row whose newest dispatch record says `not-started` (dispatch failed before it started the worker,
    // docs/team.md "dispatch" step 7) and whose wrapper left neither a log nor a status: nothing ever launched it
    // (seed 000 worker-liveness: "did-not-launch when neither the wrapper .log nor .status.json appears").
    const newest = records.filter((d) => d.workerId === row.workerId).at(-1);
    if (
      row.status === 'completed' &&
      newest?.phase === 'not-started' &&
      !(prompt && (run.files.exists(wrapperLogPath(prompt)) || run.files.exists(wrapperStatusPath(prompt))))
    ) {
      finding(
        `worker '${row.workerId}' is completed but its ${newest.dispatchKind} dispatch was recorded not-started and its wrapper left no log or status: it never launched`,
      );
    }
    if (row.livenessMode === 'audit-heartbeat' && !row.auditSidecarPath && ['in-progress', 'completed'].includes(row.status)) {
      finding(`worker '${row.workerId}' is probed by audit-heartbeat but records no auditSidecarPath to read`);
    }
    if (row.failures !== undefined && (row.failures > MAX_FAILURES_PER_WORKER || (row.status === 'completed' && row.failures >= MAX_FAILURES_PER_WORKER))) {
      finding(`worker '${row.workerId}' counts ${row.failures} failures but the run allows one retry`);
    }
    // A timeout or error is itself a failure the budget counts (docs/team.md: "The row keeps a failure count
    // (timeouts, errors, stalls, not-run)"): a row that ended so and counts none never applied the budget.
    if (row.failures === 0 && (row.status === 'timeout' || row.status === 'error')) {
      finding(`worker '${row.workerId}' is ${row.status} but counts 0 failures: the retry budget was not applied`);
    }
    if (
      records.length > 0 &&
      row.dispatchKind &&
      row.dispatchKind !== 'initial' &&
      dispatchRoute(run, row) === 'team' &&
      !records.some((d) => d.workerId === row.workerId && d.dispatchKind === row.dispatchKind)
    ) {
      finding(`worker '${row.workerId}' row says dispatch ${row.dispatchKind} but workerDispatches has no such record`);
    }
  }
  const seen = new Set<string>();
  for (const d of records) {
    const key = `${d.workerId}\u0000${d.dispatchKind}`;
    if (seen.has(key)) finding(`worker '${d.workerId}' was dispatched twice as ${d.dispatchKind}: a re-dispatch takes a new dispatchKind`);
    seen.add(key);
    if (/-retry-retry$/.test(d.dispatchKind)) finding(`worker '${d.workerId}' was re-dispatched as ${d.dispatchKind}: the one retry was already spent`);
    else if (/-retry\b/.test(d.dispatchKind) && retriesBefore(records, d) > 0) {
      // One retry per worker per run, shared by every cause and dispatch kind (libs/schemas retry-budget).
      finding(`worker '${d.workerId}' was retried again as ${d.dispatchKind}: the run's one retry was already spent`);
    }
    const selected = m.workerAssignments.some((a) => (a.workerId ?? a.provider) === d.workerId); // a missing selected row is 15's
    if (
      rows.length > 0 &&
      !selected &&
      !rows.some((r) => r.workerId === d.workerId) &&
      !(isReportWriter({ workerId: d.workerId }) && rows.some(isReportWriter))
    ) {
      finding(`workerDispatches records worker '${d.workerId}', which has no team-state row`);
    }
    if (d.backend === 'subprocess' && !d.degradedFrom && (m.terminalBackend === 'tmux-pane' || m.terminalBackend === 'cmux-pane')) {
      finding(`worker '${d.workerId}' ran as a subprocess in a ${m.terminalBackend} run without degradedFrom`);
    }
    if (d.backend === 'subprocess' || !d.paneId) continue;
    if (d.tornDownAt) {
      const row = rows.find((r) => r.workerId === d.workerId);
      if (instant(d.tornDownAt) < instant(d.startedAt)) finding(`worker '${d.workerId}': its pane was torn down at ${d.tornDownAt}, before it was dispatched`);
      else if (row?.endedAt && instant(d.tornDownAt) < instant(row.endedAt) && latestRecord(records, d)) {
        finding(`worker '${d.workerId}': its pane was torn down at ${d.tornDownAt}, before the worker ended at ${row.endedAt}`);
      }
    } else {
      const next = laterRound(records, d);
      if (next) finding(`worker '${d.workerId}': its ${d.backend} pane ${d.paneId} (${d.dispatchKind}) was never torn down before the ${next} dispatch`);
    }
  }
  return out;
}

/** How many `-retry` records of `d`'s worker precede `d` in the manifest (any dispatch kind). */
function retriesBefore(records: RunUnderAudit['manifest']['workerDispatches'], d: RunUnderAudit['manifest']['workerDispatches'][number]): number {
  return records.slice(0, records.indexOf(d)).filter((x) => x.workerId === d.workerId && /-retry\b/.test(x.dispatchKind)).length;
}

/** The kind of a dispatch of a later round than `d`'s, started after it (its pane should have been reclaimed first), or null. */
function laterRound(records: RunUnderAudit['manifest']['workerDispatches'], d: RunUnderAudit['manifest']['workerDispatches'][number]): string | null {
  const round = dispatchRoundOf(d.dispatchKind);
  return records.find((x) => dispatchRoundOf(x.dispatchKind) !== round && instant(x.startedAt) > instant(d.startedAt))?.dispatchKind ?? null;
}

/** True when `d` is its worker's last dispatch record (an earlier pane is reclaimed before the next round). */
function latestRecord(records: RunUnderAudit['manifest']['workerDispatches'], d: RunUnderAudit['manifest']['workerDispatches'][number]): boolean {
  return !records.some((x) => x !== d && x.workerId === d.workerId && instant(x.startedAt) > instant(d.startedAt));
}

/**
 * True when a status sidecar belongs to the dispatch that started at `rowStartedAt`: it did not end before it
 * (docs/team.md: an earlier dispatch's sidecar is ignored), and one that records no end did not start before it.
 */
/**
 * Whether a status sidecar is the row's current dispatch's. One that started before the row did is an earlier
 * dispatch's, whenever it ended (libs/team-state `isStatusCurrent`, the rule await and the wrapper apply): the
 * timed-out first dispatch's wrapper, stopped by `teardown --force` after the retry completed, writes its `error` over
 * the shared `<prompt>.status.json` later than the retry started. Without a start, one that ended before the row is earlier.
 */
export function ofThisDispatch(status: Record<string, unknown>, rowStartedAt: string | null | undefined): boolean {
  const start = instant(rowStartedAt);
  if (!Number.isNaN(instant(status.startedAt))) return !(instant(status.startedAt) < start);
  if (Number.isNaN(instant(status.endedAt))) return true;
  return !(instant(status.endedAt) <= start);
}

function safeJson(text: string): Record<string, unknown> | null {
  try {
    const v = parseJsonText(text) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Invariant 24 `roster-mismatch` (seed 002 lead contract: "Required roles must not be replaced by
 * unnamed generic parallel workers"): when the run-manifest selects workers, every team-state row
 * is a selected worker (its `workerId`, else its provider) or the report writer; a selected worker's
 * row runs the assignment's provider, under a role the roles vocabulary knows or the assignment's own.
 */
export function checkRoster(run: RunUnderAudit): Finding[] {
  const selected = new Map(run.manifest.workerAssignments.map((a) => [a.workerId ?? a.provider, a]));
  if (selected.size === 0 || !run.teamState || !run.teamStatePath) return [];
  const evidence = [run.manifestPath, run.teamStatePath];
  const out: Finding[] = [];
  for (const row of run.teamState.workers) {
    const a = selected.get(row.workerId);
    if (!a && !isReportWriter(row)) {
      out.push({
        invariant: 'roster-mismatch',
        message: `team-state row '${row.workerId}' (${row.role}) is not a selected worker (workerAssignments)`,
        evidence,
      });
    } else if (a && capabilityOfRoleLabel(row.role) === null && normalizeRoleLabel(row.role) !== normalizeRoleLabel(a.role ?? '')) {
      // A selected worker's row under a role no roles-vocabulary label names (libs/schemas roles.ts; `okstra team
      // dispatch` refuses an unknown label) and not its assignment's: the required role ran as an unnamed generic worker.
      out.push({
        invariant: 'roster-mismatch',
        message: `team-state row '${row.workerId}' ran as '${row.role}', not a known role, while workerAssignments selects it as '${a.role}'`,
        evidence,
      });
    } else if (a && row.provider && a.provider && row.provider !== a.provider) {
      // The selected worker's row is another CLI's work: the role was filled by a worker nobody selected.
      out.push({
        invariant: 'roster-mismatch',
        message: `team-state row '${row.workerId}' ran provider ${row.provider}, but workerAssignments selects ${a.provider}`,
        evidence,
      });
    }
  }
  return out;
}
