import { wrapperEvidencePath } from '@okstra/paths';
import { codexRolloutPath, createEvidenceRecorder, readRollout, resolveEvidence } from '@okstra/providers';
import type { TeamJob } from '@okstra/schemas/team-job';
import { workerEvidenceArtifact, type WorkerEvidence } from '@okstra/schemas/worker-evidence';
import { tryReadArtifact, withFileLock, writeArtifact } from '@okstra/state-file';

/** The evidence the wrapper keeps of one provider run (docs/providers.md "Evidence"). */
export interface EvidenceRecording {
  /** Each stdout line of the provider. */
  push(line: string): void;
  /**
   * Write `prompts/<…>.evidence.json` beside the status sidecar: the references of the provider's
   * events (and, for codex, of its session record under `codexHome` for thread `sessionId`)
   * that name a path inside the project. A later dispatch's file is never overwritten.
   * @returns the path written, or null when a later dispatch's file was kept.
   */
  write(end: { startedAt: Date; sessionId: string | null; codexHome: string | null }): Promise<string | null>;
}

/**
 * The evidence recording of a job, or null when its provider's events are not read (capture `none`):
 * such a worker has no evidence file, and its citations' was-read is unknown.
 */
export function recordEvidence(job: TeamJob & { projectRoot: string; promptPath: string }): EvidenceRecording | null {
  const kind = job.capture ?? 'none';
  const recorder = createEvidenceRecorder(kind);
  if (!recorder) return null;
  // codex runs in its `--cd` directory (the write root); claude in the project root (its init event says).
  const cd = job.command.args.findIndex((a) => a === '--cd' || a === '-C');
  const launchCwd = cd >= 0 ? (job.command.args[cd + 1] ?? null) : null;
  return {
    push: (line) => recorder.push(line),
    async write({ startedAt, sessionId, codexHome }) {
      if (kind === 'codex-jsonl' && sessionId && codexHome) {
        const rollout = codexRolloutPath(codexHome, sessionId);
        const text = rollout ? readRollout(rollout) : null;
        if (text) recorder.pushRollout(text);
      }
      const { entries, outside } = resolveEvidence(recorder.refs(), job.projectRoot, launchCwd ?? recorder.cwd() ?? job.projectRoot);
      const doc: WorkerEvidence = { schemaVersion: '1.0', workerId: job.workerId, source: kind, startedAt: startedAt.toISOString(), entries, outside };
      const path = wrapperEvidencePath(job.promptPath);
      return withFileLock(path, async () => {
        const kept = tryReadArtifact(path, workerEvidenceArtifact)?.startedAt;
        if (kept && kept > doc.startedAt) return null;
        await writeArtifact(path, workerEvidenceArtifact, doc);
        return path;
      });
    },
  };
}
