import { InputError } from '@okstra/core';
import { countFailure, isRetryable as budgetRetryable } from '@okstra/schemas/retry-budget';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { isTerminalWorkerStatus, requiresReason, type TransitionStatus } from '@okstra/schemas/vocabulary';

/** One requested transition of a worker row. */
export interface Transition {
  status: TransitionStatus;
  /** Required for `timeout` / `error` / `not-run`. */
  reason?: string | null;
  /** The model execution value to record (`--model`). */
  model?: string | null;
  /** The time of the transition (ISO-8601 UTC is written). */
  now: Date;
  /**
   * Apply only when the row belongs to this dispatch: its `startedAt` equals
   * this value. The wrapper and await pass the dispatch's `startedAt`, so a
   * late report of an earlier dispatch never lands on a re-dispatched row.
   */
  ifStartedAt?: string;
  /**
   * With `in-progress`: the dispatch kind starting (`initial`,
   * `reverify-r2`, `initial-retry`, …). Recorded on the row; `attempt`
   * counts every dispatch of the run. The retry budget is `failures`, which
   * no dispatch resets.
   */
  dispatchKind?: string;
  /**
   * With `in-progress`: the `startedAt` of a dispatch that set this row in-progress but never
   * launched its worker (killed in between; docs/team.md "dispatch"). Re-launching it is the same
   * dispatch, so `attempt` is not counted again while the row still holds that `startedAt`.
   */
  relaunchOf?: string;
}

/** Why a transition was not applied (the row is returned unchanged). */
export type SkipReason = 'terminal-row-kept' | 'stale-dispatch';

/** The outcome of {@link applyTransition}: the new row, or the old one and why it was kept. */
export type TransitionResult = { applied: true; row: TeamStateRow } | { applied: false; row: TeamStateRow; skipped: SkipReason };

/**
 * Refuse a transition that cannot be applied to any row: a terminal status
 * that needs a reason and has none (0.161.0 row).
 * @throws InputError (exit 2) naming `--reason`.
 */
export function validateTransition(t: Pick<Transition, 'status' | 'reason'>): void {
  if (requiresReason(t.status) && !(t.reason ?? '').trim()) {
    throw new InputError(`status '${t.status}' requires a reason`, { field: '--reason' });
  }
}

/**
 * The transition rules of docs/contracts.md §7 and the 0.161.0
 * `worker-state transition` row, as a pure function of (row, transition):
 * - `in-progress` is a dispatch: `startedAt` = now, `endedAt`, `reason` and
 *   the recorded processes cleared, `attempt` + 1 (first dispatch → 1, each
 *   re-dispatch + 1, whatever its kind: `attempt` counts every dispatch of
 *   the worker in the run; a `relaunchOf` the row's own in-progress
 *   `startedAt` is that same dispatch, not counted again); `failures` is kept;
 * - a terminal status sets `endedAt` = now and `reason` (null for `completed`),
 *   and a failing one (`timeout`/`error`/`not-run`) adds one to `failures` —
 *   the run's failure count of the worker, across every dispatch kind, never
 *   reset by a dispatch (the retry budget, `@okstra/schemas` retry-budget.ts);
 * - a terminal row is not overwritten by another terminal transition
 *   (`skipped: 'terminal-row-kept'`);
 * - with `ifStartedAt`, a row whose `startedAt` differs is left alone
 *   (`skipped: 'stale-dispatch'`).
 * `model` is recorded whenever given. Unknown keys of the row are kept.
 * @throws InputError when the status needs a reason and has none.
 */
export function applyTransition(row: TeamStateRow, t: Transition): TransitionResult {
  validateTransition(t);
  if (t.ifStartedAt !== undefined && row.startedAt !== t.ifStartedAt) {
    return { applied: false, row, skipped: 'stale-dispatch' };
  }
  const at = t.now.toISOString();
  const model = t.model !== undefined && t.model !== null ? { model: t.model } : {};
  if (t.status === 'in-progress') {
    const kind = t.dispatchKind !== undefined ? { dispatchKind: t.dispatchKind } : {};
    const noProcesses = { wrapperPid: null, wrapperPidStartTime: null, providerPgid: null, providerPidStartTime: null };
    return {
      applied: true,
      row: {
        ...row,
        ...model,
        ...kind,
        ...noProcesses,
        status: 'in-progress',
        startedAt: at,
        endedAt: null,
        reason: null,
        attempt: relaunches(row, t) ? (row.attempt ?? 1) : (row.attempt ?? 0) + 1,
        failures: row.failures ?? 0,
      },
    };
  }
  if (isTerminalWorkerStatus(row.status)) return { applied: false, row, skipped: 'terminal-row-kept' };
  return {
    applied: true,
    row: {
      ...row,
      ...model,
      status: t.status,
      endedAt: at,
      reason: t.status === 'completed' ? null : (t.reason ?? '').trim(),
      failures: countFailure(row.failures ?? 0, t.status),
    },
  };
}

function relaunches(row: TeamStateRow, t: Transition): boolean {
  return t.relaunchOf !== undefined && row.status === 'in-progress' && row.startedAt === t.relaunchOf;
}

/**
 * True when a wrapper status sidecar belongs to the row's current dispatch:
 * its `startedAt` is not older than the row's `startedAt` (docs/contracts.md §7:
 * "a status file older than the row's startedAt belongs to an earlier
 * dispatch and is ignored"). A row without `startedAt` accepts none.
 */
export function isStatusCurrent(statusStartedAt: string | null | undefined, rowStartedAt: string | null | undefined): boolean {
  if (!statusStartedAt || !rowStartedAt) return false;
  const s = Date.parse(statusStartedAt);
  const r = Date.parse(rowStartedAt);
  return Number.isFinite(s) && Number.isFinite(r) && s >= r;
}

/**
 * Whether the worker of this row may be dispatched once more (a retry): its
 * last dispatch failed and, counting that failure, it has failed fewer than
 * twice in the run — the one retry rule of `@okstra/schemas` retry-budget.ts,
 * on the row's `failures` (never `attempt`). docs/team.md "Retry accounting".
 */
export function isRetryable(row: Pick<TeamStateRow, 'status' | 'failures'>): boolean {
  return budgetRetryable(row.status, row.failures ?? 0);
}
