/**
 * The retry budget, one rule in one home (docs/contracts.md §7; stated in
 * docs/convergence.md "Retry budget" and docs/team.md "worker-state transition").
 *
 * A worker gets **one retry per run**, shared by every cause (timeout, error,
 * stall, not-run) and by every dispatch of the run (`initial`, `initial-retry`,
 * `reverify-r<N>`, `reverify-r<N>-retry`, …): a new dispatch kind never buys a
 * fresh retry. Its first failure spends the retry; its second failure puts it
 * out of the run. The failure count is kept apart from `attempt` (which counts
 * dispatches): a completed dispatch adds to `attempt`, never to `failures`.
 *
 * Used by `libs/team-state` (the per-worker failure count), `okstra team await`
 * (its `retryable` flag) and `libs/convergence` (plan-round's roster). No zod
 * here: this module is cheap to import.
 */
import { PENDING_LIVENESS_VERDICTS, TERMINAL_WORKER_STATUSES, type PendingLivenessVerdict, type TerminalWorkerStatus } from './vocabulary.js';

/** Failures after which a worker is out of the run (its first failure spends its only retry). */
export const MAX_FAILURES_PER_WORKER = 2;

/** Alias of {@link MAX_FAILURES_PER_WORKER}. */
export const MAX_FAILURES = MAX_FAILURES_PER_WORKER;

/** A terminal worker status that is not a success (the vocabulary's `completed` is the only success). */
type UnsuccessfulStatus = Exclude<TerminalWorkerStatus, 'completed'>;

/** A liveness verdict that counts as a failure (await records it as `timeout`). */
type FailingVerdict = Extract<PendingLivenessVerdict, 'stalled'>;

/** An outcome that counts one failure. */
export type FailureStatus = UnsuccessfulStatus | FailingVerdict;

/**
 * The outcomes that count one failure: the terminal worker statuses other than
 * `completed`, plus `stalled` (a liveness verdict, recorded by await as
 * `timeout`). Derived from libs/schemas/src/vocabulary.ts, so a new terminal
 * status is counted here without a second edit.
 */
export const FAILURE_STATUSES: readonly FailureStatus[] = [
  ...TERMINAL_WORKER_STATUSES.filter((s): s is UnsuccessfulStatus => s !== 'completed'),
  ...PENDING_LIVENESS_VERDICTS.filter((v): v is FailingVerdict => v === 'stalled'),
];

/** True for an outcome that counts one failure (`timeout`, `error`, `not-run`, `stalled`); false for `completed`, `pending`, `in-progress` and anything else. */
export function isFailureStatus(status: string): status is FailureStatus {
  return (FAILURE_STATUSES as readonly string[]).includes(status);
}

/** The worker's failure count after one more outcome: `failures + 1` for a failure status, else unchanged. `failures` is a non-negative integer. */
export function countFailure(failures: number, status: string): number {
  return isFailureStatus(status) ? failures + 1 : failures;
}

/**
 * True while the worker is still in the run: `failures` (every failure of the
 * run so far, the latest included) is below {@link MAX_FAILURES_PER_WORKER}.
 * 0 → never failed, its retry unused; 1 → failed once, its one retry is due;
 * 2 or more → out.
 */
export function hasRetryLeft(failures: number): boolean {
  return failures < MAX_FAILURES_PER_WORKER;
}

/** True when the worker is out of the run (second failure): the negation of {@link hasRetryLeft}. */
export function isOutOfRetries(failures: number): boolean {
  return !hasRetryLeft(failures);
}

/**
 * await's `retryable`: the worker's last outcome is a failure and, counting it,
 * the worker has failed fewer than {@link MAX_FAILURES_PER_WORKER} times in the
 * run. So a first failure is retryable and a second never is, whatever the
 * dispatch kinds.
 */
export function isRetryable(status: string, failures: number): boolean {
  return isFailureStatus(status) && failures >= 1 && hasRetryLeft(failures);
}
