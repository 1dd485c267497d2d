import { stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { InputError } from '@okstra/core';
import { wrapperLogPath, wrapperStatusPath } from '@okstra/paths';
import { CLOCK_SKEW_ALLOWANCE_S, DEFAULT_LAUNCH_GRACE_S, DEFAULT_MAX_IDLE_S, FUTURE_START_TOLERANCE_S, MAX_BUDGET_S } from './constants.js';
import type { Heartbeat } from './line.js';
import { resolveTargets, type ProbeTarget, type WorkerSelector } from './resolve.js';
import { startedInFuture, suspectAfter, type Budget } from './rule.js';
import { readNewestHeartbeat } from './tail.js';
import { NOT_DISPATCHED_VERDICT, type LivenessModeWord, type LivenessVerdict } from '@okstra/schemas/vocabulary';

/** A worker's verdict: `live`, one of the two unhealthy verdicts, the terminal status its row already has, or `not-dispatched`. */
export type { LivenessVerdict } from '@okstra/schemas/vocabulary';

/** One worker's judgement, as `okstra-worker-liveness --json` prints it (docs/worker-liveness.md). */
export interface ProbeResult {
  /** As the caller gave it. */
  teamStatePath: string;
  workerId: string;
  /** The row's `livenessMode` (null for a terminal or pending row without one). */
  mode: LivenessModeWord | null;
  verdict: LivenessVerdict;
  /** False only for `stalled` and `did-not-launch`. */
  healthy: boolean;
  evidence: {
    /** Newest heartbeat of this dispatch, ISO-8601 UTC; null when none (or not a heartbeat worker). */
    newestHeartbeatAt: string | null;
    /** Whole seconds between that heartbeat and the judging time (0 for a heartbeat stamped slightly ahead). */
    ageSeconds: number | null;
    /** The artifact checked, as the row records it (wrapper: the `.status.json`/`.log` found, else the `.log` expected). */
    artifact: string | null;
  };
  /** One line for `stalled` / `did-not-launch`, else null. */
  reason: string | null;
}

/** Options of {@link probeWorkers}; every duration is in seconds. */
export interface ProbeOptions {
  /** The clock (default: the real one). Read once per pass. */
  now?: () => Date;
  /** Waits `ms` milliseconds (default: a real timer). Tests inject a fake that advances `now`. */
  sleep?: (ms: number) => Promise<void>;
  /** Default {@link DEFAULT_MAX_IDLE_S} (360). */
  maxIdleS?: number;
  /** Default {@link DEFAULT_LAUNCH_GRACE_S} (120). */
  launchGraceS?: number;
  /** Default half of `maxIdleS`; 0 disables the confirmation. */
  stallConfirmS?: number;
  /**
   * How a `--team-state` path as given becomes absolute: the caller's
   * path-argument rule (okstra-worker-liveness passes @okstra/core's `pathArg`:
   * relative to its io.cwd, `-` refused). Default `resolve(path)` (the process's cwd).
   */
  resolvePath?: (path: string) => string;
}

/**
 * Judge workers (seed 000, 0.161.0 `worker-liveness` row with `--stall-confirm`;
 * docs/contracts.md §7). Reads each team-state row itself; `livenessMode` picks
 * the probe:
 * - `audit-heartbeat`: the newest heartbeat of this dispatch in
 *   `auditSidecarPath` (tail read); a suspect when it is older than `maxIdleS`,
 *   or when there is none `launchGraceS` after `startedAt` ({@link suspectAfter}).
 *   All suspects are re-read after ONE shared `stallConfirmS` wait — their
 *   team-state rows first (a row that turned terminal meanwhile reports that
 *   status), then their sidecars — and reported `stalled` only when their newest
 *   heartbeat is not stamped later than at the first read.
 * - `wrapper-status`: `did-not-launch` when neither the wrapper `.log` nor
 *   `.status.json` beside `promptPath` exists for this dispatch (modified no
 *   earlier than `startedAt` − {@link CLOCK_SKEW_ALLOWANCE_S}) after `launchGraceS`.
 * A terminal row reports its status (healthy); a `pending` row (not dispatched
 * yet) reports `not-dispatched` (healthy: it is left out of the exit code) and
 * the others are judged. It never writes, kills or signals anything.
 * @returns one result per selector, in selector order.
 * @throws InputError (exit 2) for invalid team-state files or rows (see resolveTargets),
 *   a duplicate selector, an unreadable artifact, or a duration that is not a
 *   finite number in [0, {@link MAX_BUDGET_S}].
 */
export async function probeWorkers(selectors: Array<WorkerSelector>, opts: ProbeOptions = {}): Promise<ProbeResult[]> {
  const now = opts.now ?? (() => new Date());
  const sleep = opts.sleep ?? ((ms: number) => delay(ms).then(() => undefined));
  const maxIdleS = opts.maxIdleS ?? DEFAULT_MAX_IDLE_S;
  const budget: Budget = { maxIdleS, launchGraceS: opts.launchGraceS ?? DEFAULT_LAUNCH_GRACE_S, stallConfirmS: opts.stallConfirmS ?? maxIdleS / 2 };
  checkBudget(budget);
  rejectDuplicates(selectors);
  const targets = await resolveTargets(selectors, opts.resolvePath);
  const first = now();
  const passes = await Promise.all(targets.map((t) => firstPass(t, first, budget)));
  const suspects = passes.filter((p): p is Suspect => 'suspect' in p);
  if (suspects.length > 0 && budget.stallConfirmS > 0) {
    await sleep(budget.stallConfirmS * 1000);
    const second = now();
    // The rows are read again too: a worker whose row turned terminal during the window is not stalled.
    const again = await resolveTargets(
      suspects.map((s) => s.target.selector),
      opts.resolvePath,
    );
    await Promise.all(suspects.map(async (s, i) => (s.result = await confirm(s, again[i], second, budget))));
  } else {
    for (const s of suspects) s.result = heartbeatResult(s.target, 'stalled', s.newest, first, stallReason(s.target, s.newest, first, budget, false));
  }
  return passes.map((p) => p.result!);
}

type HeartbeatTarget = Extract<ProbeTarget, { kind: 'audit-heartbeat' }>;
type WrapperTarget = Extract<ProbeTarget, { kind: 'wrapper-status' }>;
interface Suspect {
  suspect: true;
  target: HeartbeatTarget;
  newest: Heartbeat | null;
  result?: ProbeResult;
}
type Pass = { result: ProbeResult } | Suspect;

/**
 * The re-read after the confirm window: the row first (terminal or no longer
 * this dispatch → judged as it is now), then the sidecar. `stalled` only when
 * the newest heartbeat is not stamped later than at the first read; evidence
 * and reason then both name the heartbeat of this second read.
 */
async function confirm(s: Suspect, now: ProbeTarget, second: Date, budget: Budget): Promise<ProbeResult> {
  const same = now.kind === 'audit-heartbeat' && now.startedAt.getTime() === s.target.startedAt.getTime() && now.abs === s.target.abs;
  if (!same) {
    const pass = await firstPass(now, second, budget);
    if (!('suspect' in pass)) return pass.result;
    return heartbeatResult(pass.target, 'stalled', pass.newest, second, stallReason(pass.target, pass.newest, second, budget, false));
  }
  const newest = await readNewestHeartbeat(s.target.abs, { notBefore: s.target.startedAt, now: second });
  if (newest && (!s.newest || newest.at > s.newest.at)) return heartbeatResult(s.target, 'live', newest, second, null);
  return heartbeatResult(s.target, 'stalled', newest, second, stallReason(s.target, newest, second, budget, true));
}

async function firstPass(target: ProbeTarget, now: Date, budget: Budget): Promise<Pass> {
  if (target.kind === 'terminal' || target.kind === 'not-dispatched') {
    const { teamStatePath, workerId } = target.selector;
    const evidence = { newestHeartbeatAt: null, ageSeconds: null, artifact: null };
    const verdict = target.kind === 'terminal' ? target.status : NOT_DISPATCHED_VERDICT;
    return { result: { teamStatePath, workerId, mode: target.mode ?? null, verdict, healthy: true, evidence, reason: null } };
  }
  const skew = futureStart(target, now);
  if (skew) return { result: skew };
  if (target.kind === 'wrapper-status') return { result: await probeWrapper(target, now, budget) };
  const newest = await readNewestHeartbeat(target.abs, { notBefore: target.startedAt, now });
  if (now.getTime() > suspectAfter(target.startedAt, newest?.at ?? null, budget)) return { suspect: true, target, newest };
  return { result: heartbeatResult(target, 'live', newest, now, null) };
}

/**
 * A row whose `startedAt` lies beyond FUTURE_START_TOLERANCE_S in the future
 * (startedInFuture, libs/heartbeat rule.ts): no grace can be anchored on it, so
 * it is never `live` — `stalled` (audit-heartbeat) or `did-not-launch`
 * (wrapper-status), unhealthy, with a reason naming the skew. null otherwise.
 */
function futureStart(target: HeartbeatTarget | WrapperTarget, now: Date): ProbeResult | null {
  const ahead = startedInFuture(target.startedAt, now);
  if (ahead === null) return null;
  const { teamStatePath, workerId } = target.selector;
  const reason = `startedAt ${target.startedAt.toISOString()} is ${ahead} s in the future (tolerance ${FUTURE_START_TOLERANCE_S} s): a skewed clock or a launch that never happened; not judged live`;
  const verdict = target.kind === 'audit-heartbeat' ? 'stalled' : 'did-not-launch';
  const artifact = target.kind === 'audit-heartbeat' ? target.recorded : wrapperLogPath(target.recorded);
  return { teamStatePath, workerId, mode: target.kind, verdict, healthy: false, reason, evidence: { newestHeartbeatAt: null, ageSeconds: null, artifact } };
}

function heartbeatResult(target: HeartbeatTarget, verdict: 'live' | 'stalled', newest: Heartbeat | null, now: Date, reason: string | null): ProbeResult {
  const { teamStatePath, workerId } = target.selector;
  return {
    teamStatePath,
    workerId,
    mode: 'audit-heartbeat',
    verdict,
    healthy: verdict === 'live',
    reason,
    evidence: {
      newestHeartbeatAt: newest ? newest.at.toISOString() : null,
      ageSeconds: newest ? ageSeconds(newest.at, now) : null,
      artifact: target.recorded,
    },
  };
}

function stallReason(target: HeartbeatTarget, newest: Heartbeat | null, now: Date, budget: Budget, confirmed: boolean): string {
  const confirm = confirmed ? `; not advanced after a ${budget.stallConfirmS} s re-read` : '';
  if (newest) return `newest heartbeat ${newest.at.toISOString()} is ${ageSeconds(newest.at, now)} s old (budget ${budget.maxIdleS} s)${confirm}`;
  const since = ageSeconds(target.startedAt, now);
  return `no heartbeat for this dispatch ${since} s after startedAt ${target.startedAt.toISOString()} (launch grace ${budget.launchGraceS} s)${confirm}`;
}

async function probeWrapper(target: WrapperTarget, now: Date, budget: Budget): Promise<ProbeResult> {
  const { teamStatePath, workerId } = target.selector;
  const anchor = target.startedAt.getTime() - CLOCK_SKEW_ALLOWANCE_S * 1000;
  const candidates = [wrapperStatusPath, wrapperLogPath].map((f) => ({ recorded: f(target.recorded), abs: f(target.abs) }));
  let found: string | null = null;
  for (const c of candidates) {
    if ((await modifiedAt(c.abs)) >= anchor) {
      found = c.recorded;
      break;
    }
  }
  const base = { teamStatePath, workerId, mode: 'wrapper-status' as const };
  const evidence = { newestHeartbeatAt: null, ageSeconds: null, artifact: found ?? candidates[1].recorded };
  if (found || now.getTime() <= target.startedAt.getTime() + budget.launchGraceS * 1000) {
    return { ...base, verdict: 'live', healthy: true, evidence, reason: null };
  }
  const reason = `neither ${candidates[1].recorded} nor ${candidates[0].recorded} appeared ${ageSeconds(target.startedAt, now)} s after startedAt ${target.startedAt.toISOString()} (launch grace ${budget.launchGraceS} s)`;
  return { ...base, verdict: 'did-not-launch', healthy: false, evidence, reason };
}

/** A file's mtime in epoch ms; -Infinity when it does not exist (an artifact from an earlier dispatch is older than the anchor). */
async function modifiedAt(path: string): Promise<number> {
  try {
    return (await stat(path)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return -Infinity;
    throw new InputError(`cannot read wrapper artifact (${(error as NodeJS.ErrnoException).code})`, { file: path });
  }
}

function ageSeconds(at: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - at.getTime()) / 1000));
}

function checkBudget(budget: Budget): void {
  const names: Array<[keyof Budget, string]> = [
    ['maxIdleS', 'maxIdleS'],
    ['launchGraceS', 'launchGraceS'],
    ['stallConfirmS', 'stallConfirmS'],
  ];
  for (const [key, name] of names) {
    const v = budget[key];
    if (!Number.isFinite(v) || v < 0 || v > MAX_BUDGET_S) throw new InputError(`${name} must be a number of seconds in [0, ${MAX_BUDGET_S}], got ${v}`);
  }
}

function rejectDuplicates(selectors: readonly WorkerSelector[]): void {
  const seen = new Set<string>();
  for (const s of selectors) {
    const key = `${s.teamStatePath}\u0000${s.workerId}`;
    if (seen.has(key)) throw new InputError(`worker '${s.workerId}' is selected twice`, { file: s.teamStatePath });
    seen.add(key);
  }
}
