import { maxOf, printable } from '@okstra/cli-kit';
import type { ProbeResult } from '@okstra/heartbeat';
import { isPendingLivenessVerdict, NOT_DISPATCHED_VERDICT } from '@okstra/schemas/vocabulary';

/**
 * The human report: one line per worker, columns padded to align —
 * `<worker> <verdict> <mode> <detail>`, plus `[<team-state>]` when the call
 * spans several team-state files. Deterministic for the same results.
 */
export function formatHuman(results: readonly ProbeResult[]): string {
  const several = new Set(results.map((r) => r.teamStatePath)).size > 1;
  // Reasons and paths come from the team-state and sidecars: shown escaped, one line per worker.
  const rows = results.map((r) => [r.workerId, r.verdict, r.mode ?? '-', detail(r) + (several ? `  [${r.teamStatePath}]` : '')].map(printable));
  const widths = [0, 1, 2].map((c) =>
    maxOf(
      rows.map((row) => row[c].length),
      0,
    ),
  );
  return rows.map((row) => row.map((cell, c) => (c < 3 ? cell.padEnd(widths[c]) : cell)).join('  ') + '\n').join('');
}

function detail(r: ProbeResult): string {
  if (r.reason) return r.reason;
  const { newestHeartbeatAt, ageSeconds, artifact } = r.evidence;
  if (r.verdict === NOT_DISPATCHED_VERDICT) return 'pending in team-state: not dispatched yet, not judged';
  if (!isPendingLivenessVerdict(r.verdict)) return 'terminal status in team-state';
  if (r.mode === 'audit-heartbeat') {
    return newestHeartbeatAt ? `heartbeat ${newestHeartbeatAt} (${ageSeconds} s ago) in ${artifact}` : `no heartbeat yet, within launch grace (${artifact})`;
  }
  return `wrapper artifact ${artifact}`;
}
