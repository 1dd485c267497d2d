import { basename } from 'node:path';
import type { LivenessMode } from '@okstra/schemas/team-state';

/**
 * The liveness mode of a CLI-wrapper worker's row — the one home of this rule
 * (docs/team.md "Liveness of CLI workers"; seed 000 worker-liveness row):
 * `audit-heartbeat` only when the job carries an audit sidecar AND its prompt
 * tells it to heartbeat there (the prompt names the sidecar file and the
 * `- PROGRESS:` line); otherwise `wrapper-status`, judged by the wrapper's
 * `.log`/`.status.json` ("did-not-launch when neither appears"), so a busy
 * worker whose prompt never asked for PROGRESS lines is not called stalled.
 */
export function livenessModeOf(job: { auditSidecarPath: string | null; promptText: string }): LivenessMode {
  if (!job.auditSidecarPath) return 'wrapper-status';
  const tellsHeartbeat = job.promptText.includes('- PROGRESS:') && job.promptText.includes(basename(job.auditSidecarPath));
  return tellsHeartbeat ? 'audit-heartbeat' : 'wrapper-status';
}
