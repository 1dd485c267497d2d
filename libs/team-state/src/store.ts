import { existsSync } from 'node:fs';
import { InputError } from '@okstra/core';
import { readArtifact, withFileLock, writeArtifact } from '@okstra/state-file';
import { teamStateArtifact, type TeamState, type TeamStateRow } from '@okstra/schemas/team-state';
import { applyTransition, validateTransition, type SkipReason, type Transition } from './transitions.js';

/** Read and validate a team-state file. @throws InputError (exit 2) naming the file and JSON path. */
export function readTeamState(path: string): Promise<TeamState> {
  return readArtifact(path, teamStateArtifact);
}

/** One worker's requested transition inside {@link transitionWorkers}. */
export interface WorkerTransition extends Transition {
  workerId: string;
  /**
   * A row to add (status `pending`) when the worker has none — dispatch of a
   * jobs file whose worker (e.g. a report writer) has no row yet. Without it
   * an unknown worker is an input error.
   */
  createRow?: Omit<TeamStateRow, 'workerId' | 'status' | 'attempt'>;
  /** Row fields (paths, livenessMode, provider, role) set together with an applied transition — dispatch records the job's paths here. */
  set?: Partial<Omit<TeamStateRow, 'workerId' | 'status' | 'attempt' | 'startedAt' | 'endedAt'>>;
}

/** Per-worker outcome of {@link transitionWorkers}. */
export interface WorkerTransitionOutcome {
  workerId: string;
  applied: boolean;
  skipped?: SkipReason;
  row: TeamStateRow;
}

/**
 * Apply transitions to several workers of one team-state file in ONE locked
 * read-modify-write (`withFileLock` + `writeArtifact`): concurrent callers
 * on distinct workers never lose each other's rows. Every transition is
 * validated before anything is written; when none applies the file is not
 * rewritten. Used by `worker-state transition`, the exec wrapper, dispatch
 * and await alike (docs/contracts.md §7).
 * With `options.create`, a missing file is started as that header with no
 * workers (dispatch's first write of a run's team-state).
 * @throws InputError for an unreadable/invalid file, an unknown worker
 *   without `createRow`, or a missing reason — the file is then untouched.
 */
export async function transitionWorkers(
  path: string,
  transitions: readonly WorkerTransition[],
  options: { create?: Pick<TeamState, 'taskKey' | 'taskType' | 'seq'> } = {},
): Promise<WorkerTransitionOutcome[]> {
  transitions.forEach(validateTransition);
  return withFileLock(path, async () => {
    const state: TeamState = options.create && !existsSync(path) ? { schemaVersion: '1.0', ...options.create, workers: [] } : await readTeamState(path);
    const workers = [...state.workers];
    const outcomes: WorkerTransitionOutcome[] = [];
    for (const t of transitions) {
      let at = workers.findIndex((w) => w.workerId === t.workerId);
      if (at < 0) {
        if (!t.createRow) throw new InputError(`no worker row '${t.workerId}'`, { file: path, field: 'workers' });
        workers.push({ ...t.createRow, workerId: t.workerId, status: 'pending', attempt: 0 } as TeamStateRow);
        at = workers.length - 1;
      }
      const result = applyTransition(workers[at]!, t);
      if (result.applied && t.set) result.row = { ...result.row, ...t.set };
      workers[at] = result.row;
      outcomes.push(
        result.applied
          ? { workerId: t.workerId, applied: true, row: result.row }
          : { workerId: t.workerId, applied: false, skipped: result.skipped, row: result.row },
      );
    }
    if (outcomes.some((o) => o.applied)) await writeArtifact(path, teamStateArtifact, { ...state, workers }, { replace: 'any' });
    return outcomes;
  });
}

/** {@link transitionWorkers} for one worker. */
export async function transitionWorker(path: string, t: WorkerTransition): Promise<WorkerTransitionOutcome> {
  const [outcome] = await transitionWorkers(path, [t]);
  return outcome!;
}

/** A process okstra recorded: its pid and its `/proc/<pid>/stat` start time (so a recycled pid is never taken for it). */
export interface RecordedProcess {
  pid: number;
  startTime: string | null;
}

/**
 * Record the processes of a worker's current dispatch on its row (one locked
 * write): the wrapper (`wrapperPid`, `wrapperPidStartTime`) and the provider
 * CLI's process group (`providerPgid` = its leader's pid, `providerPidStartTime`).
 * Teardown reads them to tell a running worker from a finished one and to
 * stop an orphaned provider group (docs/team.md "teardown"). Applied only
 * while the row's `startedAt` is `ifStartedAt` (a late write of an earlier
 * dispatch is dropped). Never throws for a missing row or file: returns false.
 */
export async function recordWorkerProcesses(
  path: string,
  workerId: string,
  procs: { wrapper?: RecordedProcess; provider?: RecordedProcess },
  ifStartedAt: string,
): Promise<boolean> {
  try {
    return await withFileLock(path, async () => {
      const state = await readTeamState(path);
      const at = state.workers.findIndex((w) => w.workerId === workerId && w.startedAt === ifStartedAt);
      if (at < 0) return false;
      const row = { ...state.workers[at]! };
      if (procs.wrapper) Object.assign(row, { wrapperPid: procs.wrapper.pid, wrapperPidStartTime: procs.wrapper.startTime });
      if (procs.provider) Object.assign(row, { providerPgid: procs.provider.pid, providerPidStartTime: procs.provider.startTime });
      const workers = state.workers.map((w, i) => (i === at ? row : w));
      await writeArtifact(path, teamStateArtifact, { ...state, workers }, { replace: 'any' });
      return true;
    });
  } catch {
    return false;
  }
}
