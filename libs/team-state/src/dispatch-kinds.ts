import { dispatchRoundOf, retryDispatchKind } from '@okstra/schemas/vocabulary';

/**
 * Retry dispatch kinds (okstra-team owns their names, spelled by
 * `retryDispatchKind` of `@okstra/schemas` vocabulary.ts; docs/team.md "Retry
 * accounting"): a retry of a failed worker is dispatched as a fresh jobs file
 * whose `dispatchKind` is the failed dispatch's kind with `-retry` appended —
 * `initial-retry`, `reverify-r<N>-retry`, `report-writer-retry`, … There is
 * never a `-retry-retry`: the retry budget (one retry per worker per run)
 * allows none.
 */
export const RETRY_SUFFIX = retryDispatchKind(''); // '-retry', spelled once in vocabulary.ts

/** The kind a retry of a `kind` dispatch gets (`initial` → `initial-retry`); a retry kind is returned as is. */
export function retryKindOf(kind: string): string {
  return isRetryKind(kind) ? kind : retryDispatchKind(kind);
}

/** True for a retry dispatch kind (`…-retry`). */
export function isRetryKind(kind: string): boolean {
  return kind.endsWith(RETRY_SUFFIX);
}

/**
 * The round a dispatch kind belongs to: the kind without its `-retry` suffix
 * (`reverify-r2-retry` → `reverify-r2`), and the kind a repair repairs
 * (`repair-reverify-r2` → `reverify-r2`; docs/convergence.md "Repair dispatch"). A
 * retry and a repair are part of the round they retry or repair: `team await`
 * judges one round at a time, a repair with the rules of its `<kind>`.
 */
export function roundOf(kind: string): string {
  return dispatchRoundOf(kind);
}
