import { CLOCK_SKEW_ALLOWANCE_S, DEFAULT_LAUNCH_GRACE_S, DEFAULT_MAX_IDLE_S, DEFAULT_STALL_CONFIRM_S } from './constants.js';
import { parseHeartbeats } from './line.js';

/** The budgets of one judgement, in seconds. */
export interface Budget {
  /** Idle budget after the newest heartbeat (default {@link DEFAULT_MAX_IDLE_S}). */
  maxIdleS: number;
  /** Grace after `startedAt` while no heartbeat exists yet (default {@link DEFAULT_LAUNCH_GRACE_S}). */
  launchGraceS: number;
  /** Re-read window before a suspect is reported `stalled`; 0 disables (default half of `maxIdleS`). */
  stallConfirmS: number;
}

/** The defaults of `okstra-worker-liveness` (360 s / 120 s / 180 s). */
export const DEFAULT_BUDGET: Readonly<Budget> = Object.freeze({
  maxIdleS: DEFAULT_MAX_IDLE_S,
  launchGraceS: DEFAULT_LAUNCH_GRACE_S,
  stallConfirmS: DEFAULT_STALL_CONFIRM_S,
});

/**
 * THE heartbeat rule (the one place it lives): the instant after which a
 * heartbeat worker is a stall suspect — its newest heartbeat of this dispatch
 * plus `maxIdleS`, or, with none yet, `startedAt` plus `launchGraceS`.
 * A worker is a suspect when now is strictly later; a suspect is reported
 * `stalled` when, `stallConfirmS` later, its newest heartbeat has not advanced.
 * @returns epoch milliseconds.
 */
export function suspectAfter(startedAt: Date, newest: Date | null, budget: Pick<Budget, 'maxIdleS' | 'launchGraceS'>): number {
  return newest ? newest.getTime() + budget.maxIdleS * 1000 : startedAt.getTime() + budget.launchGraceS * 1000;
}

/**
 * The post-hoc form of the same rule: would the live probe, polled at any
 * moment of the gap between `from` (a heartbeat, or null for the dispatch
 * start) and the next signal `to` (the next heartbeat or the end of the
 * dispatch), have reported `stalled`? Yes exactly when some poll instant t has
 * t > suspectAfter(…) and no newer heartbeat by t + stallConfirmS, i.e. when
 * `to` is strictly later than suspectAfter(…) + stallConfirmS.
 */
export function gapWouldStall(startedAt: Date, from: Date | null, to: Date, budget: Budget): boolean {
  return to.getTime() > suspectAfter(startedAt, from, budget) + budget.stallConfirmS * 1000;
}

/** One cadence breach: the gap's ends (ISO-8601 UTC) and its length in seconds. */
export interface CadenceBreach {
  /** The dispatch start, or the heartbeat the silence began after. */
  from: string;
  /** The next heartbeat, or the dispatch end. */
  to: string;
  gapSeconds: number;
}

/**
 * Post-hoc cadence check of a whole sidecar for one dispatch (the run-audit
 * question). The heartbeats of the dispatch are those stamped inside
 * [startedAt − allowance, endedAt + allowance] ({@link CLOCK_SKEW_ALLOWANCE_S}),
 * taken in time order; the gaps checked are start → first heartbeat, each
 * heartbeat → the next, and last heartbeat → endedAt. A gap is a breach only
 * when the live probe with its default budget and default confirm window would
 * have said `stalled` ({@link gapWouldStall} with `budget`): so a worker the
 * live probe passes cannot fail this check, and vice versa.
 * @param budget defaults to {@link DEFAULT_BUDGET}.
 * @returns breaches in time order; empty when the cadence held.
 */
export function cadenceBreaches(sidecarText: string, window: { startedAt: Date; endedAt: Date }, budget: Budget = DEFAULT_BUDGET): Array<CadenceBreach> {
  const skewMs = CLOCK_SKEW_ALLOWANCE_S * 1000;
  const start = window.startedAt.getTime();
  const end = window.endedAt.getTime();
  const times = parseHeartbeats(sidecarText)
    .map((hb) => hb.at.getTime())
    .filter((t) => t >= start - skewMs && t <= end + skewMs)
    .sort((a, b) => a - b);
  const out: CadenceBreach[] = [];
  let from: number | null = null;
  for (const to of [...times, end]) {
    if (gapWouldStall(window.startedAt, from === null ? null : new Date(from), new Date(to), budget)) {
      const a = from ?? start;
      out.push({ from: new Date(a).toISOString(), to: new Date(to).toISOString(), gapSeconds: (to - a) / 1000 });
    }
    from = to;
  }
  return out;
}
