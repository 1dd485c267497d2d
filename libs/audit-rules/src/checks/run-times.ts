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
