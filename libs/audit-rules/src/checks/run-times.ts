import { FUTURE_START_TOLERANCE_S, startedInFuture } from '@okstra/heartbeat';
import type { Finding, RunUnderAudit } from '../run-context.js';

/**
 * Invariant 17 `run-time-order` over the run-manifest's own times: its
 * `endedAt` is not before its `startedAt`; a `completed` run has an `endedAt`;
 * and no team-state row ended after the run ended (times compared as instants).
 */
export function checkRunTimes(run: RunUnderAudit): Finding[] {
  const m = run.manifest;
  const out: Finding[] = [];
  const add = (message: string, evidence: string[]) => out.push({ invariant: 'run-time-order', message, evidence });
  const end = m.endedAt ? Date.parse(m.endedAt) : null;
  if (end !== null && end < Date.parse(m.startedAt)) add(`the run ended at ${m.endedAt}, before it started at ${m.startedAt}`, [run.manifestPath]);
  if (m.status === 'completed' && !m.endedAt) add('the run-manifest says completed but has no endedAt', [run.manifestPath]);
  if (end === null || !run.teamState || !run.teamStatePath) return out;
  for (const row of run.teamState.workers) {
    if (row.endedAt && Date.parse(row.endedAt) > end) {
      add(`worker '${row.workerId}' ended at ${row.endedAt}, after the run ended at ${m.endedAt}`, [run.manifestPath, run.teamStatePath]);
    }
  }
  return out;
}

/**
 * Invariant 20 `time-in-future`: the run-manifest's `startedAt` / `endedAt` or a team-state
 * row's `startedAt` / `endedAt` lies more than FUTURE_START_TOLERANCE_S (libs/heartbeat, the
 * one home; 5 min) in the future of the audit — a skewed clock, or a launch
 * stamped but never made, which worker-liveness would otherwise call live
 * until that time (docs/worker-liveness.md "A start in the future").
 */
export function checkFutureStarts(run: RunUnderAudit, now: Date = new Date()): Finding[] {
  const out: Finding[] = [];
  const flag = (what: string, at: string | null | undefined, evidence: string[], verb = 'started') => {
    const ahead = at ? startedInFuture(new Date(at), now) : null;
    if (ahead === null) return false;
    out.push({
      invariant: 'time-in-future',
      message: `${what} ${verb} at ${at}, ${ahead} s after the audit's clock (tolerance ${FUTURE_START_TOLERANCE_S} s)`,
      evidence,
    });
    return true;
  };
  // One finding per run or row: an end is judged only when its start is not already in the future.
  if (!flag('the run', run.manifest.startedAt, [run.manifestPath])) flag('the run', run.manifest.endedAt, [run.manifestPath], 'ended');
  if (!run.teamState || !run.teamStatePath) return out;
  for (const row of run.teamState.workers) {
    // An end not yet come is no end (the same clock rule): a row claims a finish the audit's clock has not reached.
    if (!flag(`worker '${row.workerId}'`, row.startedAt, [run.teamStatePath])) flag(`worker '${row.workerId}'`, row.endedAt, [run.teamStatePath], 'ended');
  }
  return out;
}
