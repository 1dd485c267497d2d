import { cadenceBreaches } from '@okstra/heartbeat';
import type { Finding, RunUnderAudit } from '../run-context.js';
import { resolveRecorded } from './recorded-path.js';

/**
 * Invariant 10 `heartbeat-cadence`: for each `completed` row with
 * `livenessMode: audit-heartbeat`, `startedAt`, `endedAt` and an
 * `auditSidecarPath`, the sidecar's heartbeats between the two times leave no
 * gap the live probe would have reported `stalled` — decided by
 * `cadenceBreaches` of libs/heartbeat (the one home of the rule; docs/contracts.md §7).
 * A missing sidecar is left to invariant 13.
 */
export async function checkHeartbeatCadence(run: RunUnderAudit): Promise<Finding[]> {
  const out: Finding[] = [];
  for (const row of run.teamState?.workers ?? []) {
    if (row.status !== 'completed' || row.livenessMode !== 'audit-heartbeat') continue;
    if (!row.startedAt || !row.endedAt || !row.auditSidecarPath) continue;
    const startedAt = new Date(row.startedAt);
    const endedAt = new Date(row.endedAt);
    if (!(endedAt.getTime() >= startedAt.getTime())) continue; // invariant 3 reports it
    const abs = resolveRecorded(run.projectRoot, row.auditSidecarPath);
    if (!abs || !run.files.exists(abs)) continue;
    const text = await run.files.readText(abs);
    if (text === null) continue;
    for (const gap of cadenceBreaches(text, { startedAt, endedAt })) {
      out.push({
        invariant: 'heartbeat-cadence',
        message: `worker '${row.workerId}' was silent ${Math.round(gap.gapSeconds)} s (${gap.from} → ${gap.to}), longer than the live probe allows`,
        evidence: [...(run.teamStatePath ? [run.teamStatePath] : []), abs],
      });
    }
  }
  return out;
}
