import { InputError } from '@okstra/core';
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
   * `reverify-r2`, …). Recorded on the row; `attempt` counts dispatches of
   * one kind, so a worker's first reverify dispatch is attempt 1 again and
   * its one retry is still unspent.
   */
  dispatchKind?: string;
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
 * The transition rules of ARCHITECTURE.md §7 and the 0.161.0
 * `worker-state transition` row, as a pure function of (row, transition):
 * - `in-progress` is a dispatch: `startedAt` = now, `endedAt` and `reason`
 *   cleared, `attempt` + 1 (first dispatch → 1, each re-dispatch + 1); a
 *   dispatch of another `dispatchKind` than the row's last one starts again at 1;
 * - a terminal status sets `endedAt` = now and `reason` (null for `completed`);
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
    const sameKind = t.dispatchKind === undefined || row.dispatchKind === undefined || row.dispatchKind === t.dispatchKind;
    const kind = t.dispatchKind !== undefined ? { dispatchKind: t.dispatchKind } : {};
    return {
      applied: true,
      row: { ...row, ...model, ...kind, status: 'in-progress', startedAt: at, endedAt: null, reason: null, attempt: sameKind ? (row.attempt ?? 0) + 1 : 1 },
    };
  }
  if (isTerminalWorkerStatus(row.status)) return { applied: false, row, skipped: 'terminal-row-kept' };
  return {
    applied: true,
    row: { ...row, ...model, status: t.status, endedAt: at, reason: t.status === 'completed' ? null : (t.reason ?? '').trim() },
  };
}

/**
 * True when a wrapper status sidecar belongs to the row's current dispatch:
 * its `startedAt` is not older than the row's `startedAt` (ARCHITECTURE.md §7:
 * "a status file older than the row's startedAt belongs to an earlier
 * dispatch and is ignored"). A row without `startedAt` accepts none.
 */
export function isStatusCurrent(statusStartedAt: string | null | undefined, rowStartedAt: string | null | undefined): boolean {
  if (!statusStartedAt || !rowStartedAt) return false;
  const s = Date.parse(statusStartedAt);
  const r = Date.parse(rowStartedAt);
  return Number.isFinite(s) && Number.isFinite(r) && s >= r;
}

/** Whether a worker in this row may be dispatched once more: one retry per worker (ARCHITECTURE.md §7). */
export function isRetryable(row: Pick<TeamStateRow, 'status' | 'attempt'>): boolean {
  return (row.status === 'timeout' || row.status === 'error') && (row.attempt ?? 0) < 2;
}
