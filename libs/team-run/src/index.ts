// @okstra/team-run: the dispatch, await and teardown of worker panes (docs/team.md), shared by
// okstra-team (its `dispatch` / `await` / `teardown` commands) and okstra-convergence (`run`).
// Functions over plain inputs and results: no CLI, no printing. The three operations are the
// `./dispatch`, `./await` and `./teardown` exports, loaded lazily by the bins.
export { isGroupAlive, isWrapperAlive, processStartTime, startDetachedWrapper, stopGroup, stopProcess } from './backends/subprocess.js';
export { fmt, listPanes, Tmux, tmuxArgv, tmuxTextProblem, type PaneInfo } from './backends/tmux.js';
export { teamBinPath, wrapperArgv } from './backends/wrapper-argv.js';
export { latestDispatches, loadRun, updateWorkerDispatches, type RunContext } from './dispatch/run-context.js';
export {
  repairDispatchCommand,
  repairedWorkers,
  repairSummary,
  writeRepairDispatch,
  type RepairDispatch,
  type RepairPlace,
  type RepairRequest,
} from './repair.js';
export { startingLaunched } from './dispatch/starting.js';
export type { TeamHost } from './host.js';
export { takeRunLock, withRunLock } from './run-lock.js';
