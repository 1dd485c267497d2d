import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { teamJobsDir, toProjectRelative } from '@okstra/paths';
import type { WorkerDispatch } from '@okstra/schemas/run-manifest';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { teamJobArtifact } from '@okstra/schemas/team-job';
import { tryReadArtifact } from '@okstra/state-file';

/**
 * Dispatches the team-state knows of but the run manifest does not: a
 * dispatch killed after it set the rows `in-progress` (and maybe started the
 * panes) but before it appended `workerDispatches[]`. For each dispatched row
 * whose `startedAt` is newer than its newest record, the job file that
 * dispatch wrote (`state/team-jobs/<kind>-<worker>-<type>-<seq>.job.json` with that
 * `rowStartedAt`) stands in as the record, so a rerun of await still judges
 * the worker from its artifacts. Such records carry no pane (`backend`
 * `subprocess`, no pid): only sidecars, completion paths, liveness and the
 * deadline decide.
 */
export async function unrecordedDispatches(
  projectRoot: string,
  runDir: string,
  rows: readonly TeamStateRow[],
  records: readonly WorkerDispatch[],
): Promise<WorkerDispatch[]> {
  const dir = teamJobsDir(runDir);
  let files: string[] = [];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.job.json')).sort();
  } catch {
    return [];
  }
  const out: WorkerDispatch[] = [];
  for (const row of rows) {
    if (!row.startedAt || row.status === 'pending') continue;
    const newest = records.filter((r) => r.workerId === row.workerId).at(-1);
    if (newest && Date.parse(newest.startedAt) >= Date.parse(row.startedAt)) continue;
    for (const f of files.filter((n) => n.includes(`-${row.workerId}-`))) {
      // A FIFO among the job files is exit 2 at once (it hung await and teardown); an invalid one is skipped.
      const job = tryReadArtifact(join(dir, f), teamJobArtifact);
      if (!job || job.workerId !== row.workerId || job.rowStartedAt !== row.startedAt) continue;
      out.push({
        dispatchKind: job.dispatchKind,
        workerId: row.workerId,
        backend: 'subprocess',
        paneId: null,
        pid: null,
        startedAt: row.startedAt,
        jobPath: toProjectRelative(projectRoot, join(dir, f)),
        reason: 'dispatch ended before recording this worker',
      });
      break;
    }
  }
  return out;
}
