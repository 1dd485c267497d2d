import { resolve } from 'node:path';
import { wrapperStatusPath } from '@okstra/paths';
import type { WorkerDispatch } from '@okstra/schemas/run-manifest';
import { teamJobArtifact } from '@okstra/schemas/team-job';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { wrapperStatusArtifact, type WrapperStatus } from '@okstra/schemas/team-wrapper-status';
import { tryReadArtifact } from '@okstra/state-file';
import { isStatusCurrent, writtenByDispatch } from '@okstra/team-state';
import { isTerminalWorkerStatus, type TerminalWorkerStatus } from '@okstra/schemas/vocabulary';

/** A worker's end as await reports it. `record` is true when await itself must write the row's transition. */
export interface Ended {
  status: TerminalWorkerStatus;
  reason: string | null;
  durationMs: number;
  record: boolean;
}

/** The wrapper's status sidecar for this dispatch, or null (absent, unreadable, or from an earlier dispatch). */
export async function readCurrentStatus(projectRoot: string, row: TeamStateRow): Promise<WrapperStatus | null> {
  if (!row.promptPath) return null;
  const doc = tryReadArtifact(wrapperStatusPath(resolve(projectRoot, row.promptPath)), wrapperStatusArtifact);
  return doc && isStatusCurrent(doc.startedAt, row.startedAt) ? doc : null;
}

/** Completion paths of the dispatch's job file (absolute), or null when it cannot be read. */
export async function completionPathsOf(projectRoot: string, record: WorkerDispatch): Promise<string[] | null> {
  if (!record.jobPath) return null;
  return tryReadArtifact(resolve(projectRoot, record.jobPath), teamJobArtifact)?.completionPaths ?? null;
}

/**
 * What the artifacts already say about a worker (docs/contracts.md §7), never
 * pane text: a terminal row stands (the wrapper or an earlier await wrote
 * it); else a current terminal status sidecar decides — `completed` only
 * when every completion path exists and was written by this dispatch
 * (libs/team-state `writtenByDispatch`). null = no terminal evidence yet.
 */
export async function endedFromArtifacts(projectRoot: string, row: TeamStateRow, record: WorkerDispatch, now: Date): Promise<Ended | null> {
  const status = await readCurrentStatus(projectRoot, row);
  if (isTerminalWorkerStatus(row.status)) {
    const duration = status?.durationMs ?? elapsed(row.startedAt, row.endedAt ? new Date(row.endedAt) : now);
    return { status: row.status as Ended['status'], reason: row.reason ?? null, durationMs: duration, record: false };
  }
  if (!status) return null;
  if (status.status === 'completed') {
    const paths = await completionPathsOf(projectRoot, record);
    // Only what this dispatch wrote counts (docs/team.md "await"): an earlier attempt's file is not this one's.
    const missing = paths === null ? ['(job file unreadable)'] : paths.filter((p) => !writtenByDispatch(p, row.startedAt));
    if (missing.length > 0) return { status: 'error', reason: `completion path missing: ${missing.join(', ')}`, durationMs: status.durationMs, record: true };
  }
  return { status: status.status, reason: status.reason, durationMs: status.durationMs, record: true };
}

/** ms from `startedAt` to `end` (0 when unknown). */
export function elapsed(startedAt: string | null | undefined, end: Date): number {
  const s = startedAt ? Date.parse(startedAt) : NaN;
  return Number.isFinite(s) ? Math.max(0, end.getTime() - s) : 0;
}
