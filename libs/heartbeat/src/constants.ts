/**
 * The heartbeat budget (docs/contracts.md §7; seed 000 `worker_heartbeat` row of
 * project-structure-overview.md): one `- PROGRESS:` line at least every five
 * minutes, plus 60 s grace. Every number here is in seconds.
 */

/** A worker appends a heartbeat at least this often (5 minutes). */
export const HEARTBEAT_CADENCE_S = 300;

/** Slack on top of the cadence before a silent worker becomes a suspect. */
export const HEARTBEAT_GRACE_S = 60;

/** The idle budget: cadence + grace (360 s). Default of `--max-idle`. */
export const DEFAULT_MAX_IDLE_S = HEARTBEAT_CADENCE_S + HEARTBEAT_GRACE_S;

/**
 * Default of `--launch-grace`: how long after the persisted `startedAt` a worker
 * may show no artifact at all (no heartbeat, no wrapper `.log`/`.status.json`).
 * Agent CLIs with plugins take 20–30 s to start and peers gate at up to 80 s.
 */
export const DEFAULT_LAUNCH_GRACE_S = 120;

/**
 * Default of `--stall-confirm`: half the idle budget (180 s). A suspect is
 * re-read after this long and reported `stalled` only if its newest heartbeat
 * has not advanced (seed 000 0.161.0 `worker-liveness` row, "+" version).
 */
export const DEFAULT_STALL_CONFIRM_S = DEFAULT_MAX_IDLE_S / 2;

/**
 * Clock-skew allowance (30 s), applied symmetrically to heartbeat timestamps,
 * which the worker writes with its own clock (often rounded down to the
 * second) while `startedAt` and "now" come from the lead's clock:
 * - a heartbeat stamped more than 30 s after "now" is no signal (a worker
 *   writing a future time must not stay "live" past its budget);
 * - a heartbeat stamped up to 30 s before `startedAt` still counts for this
 *   dispatch (a worker that heartbeats right at launch with a truncated or
 *   slightly slow clock must not be judged silent); anything older belongs to
 *   an earlier dispatch of the reused sidecar and is no signal.
 * The cost of the allowance is bounded: a worker can look live for at most
 * 30 s longer than its budget.
 */
export const CLOCK_SKEW_ALLOWANCE_S = 30;

/**
 * How far back from the end of a sidecar the probe looks for a heartbeat
 * (16 MiB). This makes a probe's cost independent of the sidecar's size. A
 * worker would have to write 16 MiB of text (millions of tokens) within one
 * 5-minute cadence interval for its newest heartbeat to fall outside it.
 */
export const TAIL_WINDOW_BYTES = 16 * 1024 * 1024;

/**
 * The largest value `--max-idle`, `--launch-grace` and `--stall-confirm` (and
 * the matching {@link ProbeOptions} fields) accept: 86,400 s (one day). A
 * larger wait could not be scheduled by Node's timers (2^31−1 ms) and no
 * liveness budget is meant to be that long (docs/worker-liveness.md).
 */
export const MAX_BUDGET_S = 86_400;

/**
 * How far in the future of "now" a recorded `startedAt` may lie (300 s = 5 min)
 * before it is a skewed clock rather than rounding or a lead a little ahead of
 * the worker's machine. Beyond it the start time cannot anchor any grace: a
 * launch stamped 2 h ahead would otherwise hide as `live` for 2 h with no
 * artifact at all. The one home of this number: worker-liveness judges such a
 * row not live and run-audit flags it (`time-in-future`); see
 * docs/worker-liveness.md "A start in the future".
 */
export const FUTURE_START_TOLERANCE_S = 300;
