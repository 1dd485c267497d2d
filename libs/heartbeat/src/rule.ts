import { CLOCK_SKEW_ALLOWANCE_S, DEFAULT_LAUNCH_GRACE_S, DEFAULT_MAX_IDLE_S, DEFAULT_STALL_CONFIRM_S, FUTURE_START_TOLERANCE_S } from './constants.js';
import { parseHeartbeats, type Heartbeat } from './line.js';

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
 * How many seconds `startedAt` lies beyond {@link FUTURE_START_TOLERANCE_S}
 * in the future of `now` — null when it does not (the normal case). The one
 * rule worker-liveness and run-audit share for a skewed start time.
 * @returns whole seconds ahead of `now` (not of the tolerance), or null.
 */
export function startedInFuture(startedAt: Date, now: Date): number | null {
  const ahead = startedAt.getTime() - now.getTime();
  return ahead > FUTURE_START_TOLERANCE_S * 1000 ? Math.floor(ahead / 1000) : null;
}

/**
 * The post-hoc form of the same rule for one plain gap: would the live probe,
 * polled at any moment of the gap between `from` (a heartbeat, or null for the
 * dispatch start) and the next signal `to` (a newer heartbeat or the end of the
 * dispatch), have reported `stalled`? Yes exactly when some poll instant t has
 * t > suspectAfter(…) and no newer heartbeat by t + stallConfirmS, i.e. when
 * `to` is strictly later than suspectAfter(…) + stallConfirmS.
 */
export function gapWouldStall(startedAt: Date, from: Date | null, to: Date, budget: Budget): boolean {
  return to.getTime() > suspectAfter(startedAt, from, budget) + budget.stallConfirmS * 1000;
}

/** The dispatch a heartbeat is judged for: its start (the row's `startedAt`) and the judging instant. */
export interface DispatchWindow {
  /** The dispatch's `startedAt`; omitted: every past heartbeat counts. */
  startedAt?: Date;
  /** The judging time. */
  now: Date;
}

/**
 * Does this heartbeat count for the dispatch? Stamped no earlier than
 * `startedAt` − {@link CLOCK_SKEW_ALLOWANCE_S} (older: an earlier dispatch of the
 * reused sidecar) and no later than `now` + the allowance (a future stamp is no
 * signal yet). A heartbeat that does not count is skipped, never a reason to stop.
 */
export function countsForDispatch(hb: Heartbeat, w: DispatchWindow): boolean {
  const t = hb.at.getTime();
  const skewMs = CLOCK_SKEW_ALLOWANCE_S * 1000;
  return t <= w.now.getTime() + skewMs && (w.startedAt === undefined || t >= w.startedAt.getTime() - skewMs);
}

/**
 * THE newest heartbeat of this dispatch (docs/heartbeat.md "The newest
 * heartbeat"): the LAST heartbeat line, in file order, that counts for the
 * dispatch ({@link countsForDispatch}). Workers append and never rewrite, so
 * the last such line is the newest one written, whatever its stamp says; a
 * line stamped older than the one above it moves the newest heartbeat back.
 * The live probe (`readNewestHeartbeat`, reading the file backwards) and the
 * post-hoc check ({@link cadenceBreaches}, replaying it forwards) both decide
 * with this function.
 * @param newestFirst the heartbeats in reverse file order; read only up to the answer.
 */
export function newestOfDispatch(newestFirst: Iterable<Heartbeat>, w: DispatchWindow): Heartbeat | null {
  for (const hb of newestFirst) if (countsForDispatch(hb, w)) return hb;
  return null;
}

/**
 * One cadence breach: a stretch in which the live probe would have reported
 * `stalled`. `from` is the newest heartbeat of that stretch (or the dispatch
 * start when there was none), `to` the instant a newer heartbeat arrived (or
 * the dispatch end); the probe polled strictly between `stalledFrom` and
 * `stalledTo` says `stalled`. All instants ISO-8601 UTC; `gapSeconds` = to − from.
 */
export interface CadenceBreach {
  from: string;
  to: string;
  gapSeconds: number;
  stalledFrom: string;
  stalledTo: string;
}

/** One step of a dispatch's heartbeat timeline: from `at` (epoch ms) on, `newest` is the newest heartbeat of the dispatch. */
export interface TimelineStep {
  at: number;
  newest: Heartbeat | null;
}

/**
 * The newest heartbeat of the dispatch at every instant of [startedAt, endedAt),
 * replayed from the whole sidecar in file order: each heartbeat that counts
 * ({@link countsForDispatch}) becomes the newest ({@link newestOfDispatch}) when
 * it arrives. Its arrival is the later of its stamp and the arrival of the line
 * above it (a worker's clock is honest and the file only grows), so a line
 * stamped out of order arrives together with the line before it.
 * @returns steps in time order, the first at `startedAt`; consecutive steps differ in `at`.
 */
export function dispatchTimeline(sidecarText: string, window: { startedAt: Date; endedAt: Date }): TimelineStep[] {
  const start = window.startedAt.getTime();
  const end = window.endedAt.getTime();
  const steps: TimelineStep[] = [{ at: start, newest: null }];
  let arrival = -Infinity;
  for (const hb of parseHeartbeats(sidecarText)) {
    // No line is written before the line above it, nor (honest clock) before its own stamp.
    arrival = Math.max(arrival, hb.at.getTime());
    if (arrival >= end) break;
    // Stamped before the dispatch (− allowance): an earlier dispatch's line, no signal.
    if (!countsForDispatch(hb, { startedAt: window.startedAt, now: new Date(arrival) })) continue;
    // The last line written counts, so it is what newestOfDispatch returns for the file so far.
    const at = Math.max(arrival, start);
    if (steps[steps.length - 1].at === at) steps[steps.length - 1].newest = hb;
    else steps.push({ at, newest: hb });
  }
  return steps;
}

/**
 * Post-hoc cadence check of a whole sidecar for one dispatch (the run-audit
 * question): every stretch in which the live probe, polled at any instant of
 * the dispatch with `budget`, would have reported `stalled` — and nothing else,
 * so a worker the live probe passes cannot fail this check, and vice versa.
 * The probe's view at each instant is {@link dispatchTimeline}; polled at t it
 * says `stalled` when t is past {@link suspectAfter} of the newest heartbeat
 * and, after the `stallConfirmS` re-read, no heartbeat stamped later than it
 * has arrived and the row is not yet terminal (it turns terminal at `endedAt`).
 * @param budget defaults to {@link DEFAULT_BUDGET} (what run-audit uses).
 * @returns breaches in time order; empty when the cadence held.
 */
export function cadenceBreaches(sidecarText: string, window: { startedAt: Date; endedAt: Date }, budget: Budget = DEFAULT_BUDGET): Array<CadenceBreach> {
  const steps = dispatchTimeline(sidecarText, window);
  const end = window.endedAt.getTime();
  const confirmMs = budget.stallConfirmS * 1000;
  const stamp = (s: TimelineStep) => (s.newest ? s.newest.at.getTime() : -Infinity);
  // The instant the silence of step k ends: the first later step whose newest is stamped later (next greater, right to left).
  const advance: number[] = new Array(steps.length).fill(end);
  const stack: number[] = [];
  for (let k = steps.length - 1; k >= 0; k--) {
    while (stack.length > 0 && stamp(steps[stack[stack.length - 1]]) <= stamp(steps[k])) stack.pop();
    if (stack.length > 0) advance[k] = steps[stack[stack.length - 1]].at;
    stack.push(k);
  }
  const out: CadenceBreach[] = [];
  steps.forEach((step, k) => {
    const next = k + 1 < steps.length ? steps[k + 1].at : end;
    const lo = Math.max(suspectAfter(window.startedAt, step.newest?.at ?? null, budget), step.at);
    const hi = Math.min(advance[k] - confirmMs, next);
    if (hi <= lo) return;
    const from = step.newest ? step.newest.at.getTime() : window.startedAt.getTime();
    out.push({
      from: new Date(from).toISOString(),
      to: new Date(advance[k]).toISOString(),
      gapSeconds: (advance[k] - from) / 1000,
      stalledFrom: new Date(lo).toISOString(),
      stalledTo: new Date(hi).toISOString(),
    });
  });
  return out;
}
