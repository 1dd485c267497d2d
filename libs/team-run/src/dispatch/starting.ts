import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { WorkerDispatch } from '@okstra/schemas/run-manifest';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { procPids } from '../backends/subprocess.js';
import { listPanes, Tmux } from '../backends/tmux.js';
import { readCurrentStatus } from '../await/judge.js';

/**
 * Whether the dispatch behind a `starting` record (one killed before it recorded what it started,
 * docs/team.md "dispatch" steps 5–8) launched its worker. Never, when the worker's row did not take
 * the record's `startedAt` (killed before step 6); else it launched when any trace of the wrapper
 * exists: a pane on the tmux server tagged with this run's owner, the job file's name and that
 * `startedAt` (alive or dead: `remain-on-exit`); a live process whose argv holds the job file (the
 * wrapper, in a pane or degraded to a subprocess — found in `/proc`); the wrapper's pid on the row;
 * or a status sidecar of this dispatch. A cmux record counts as launched once the row took it (its
 * panes cannot be listed). Used so that a resumed dispatch re-launches, exactly once, a worker that
 * was recorded but never started, and never starts a running one a second time.
 */
export async function startingLaunched(
  run: { projectRoot: string; realRoot: string; owner: string },
  record: WorkerDispatch,
  row: TeamStateRow | undefined,
  env: NodeJS.ProcessEnv,
): Promise<boolean> {
  if (!row || row.startedAt !== record.startedAt || row.status === 'pending') return false;
  if (record.backend === 'cmux-pane') return true;
  if (row.wrapperPid) return true;
  if (await readCurrentStatus(run.projectRoot, row)) return true;
  if (!record.jobPath) return true; // nothing to look for: assume it may run
  const jobName = basename(record.jobPath);
  const panes = await listPanes(new Tmux(env));
  if (panes.panes.some((p) => p.owner === run.owner && p.job === jobName && p.started === record.startedAt)) return true;
  // The wrapper's argv holds the job file's absolute path as that dispatch spelled the root (or its real path).
  return processWithArgument(new Set([resolve(run.projectRoot, record.jobPath), resolve(run.realRoot, record.jobPath)]));
}

/** True when a process of this host has one of `args` as an argv word (`/proc/<pid>/cmdline`; false where there is no `/proc`). */
function processWithArgument(args: ReadonlySet<string>): boolean {
  for (const pid of procPids() ?? []) {
    try {
      if (
        readFileSync(`/proc/${pid}/cmdline`, 'utf8')
          .split('\0')
          .some((w) => args.has(w))
      )
        return true;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return false;
}
