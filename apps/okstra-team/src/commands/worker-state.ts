import { InputError, pathArg, writeJson, type CliContext, type Io } from '@okstra/cli-kit';
import { projectRootOf, resolveInsideRoot, toProjectRelative } from '@okstra/paths';
import type { LivenessMode, TeamStateRow } from '@okstra/schemas/team-state';
import type { TransitionStatus } from '@okstra/schemas/vocabulary';
import { transitionWorker, validateTransition, type WorkerTransition } from '@okstra/team-state';
import { assertRegularIfExists } from '@okstra/state-file';

/** Flags of `worker-state transition` (0.161.0 docs/cli.md row, plus the native-worker row fields of docs/team.md). */
export interface WorkerStateTransitionOptions {
  teamState: string;
  worker: string;
  status: TransitionStatus;
  reason?: string;
  model?: string;
  /** Row fields a lead records for a worker it starts itself (only with `--status in-progress`). */
  provider?: string;
  role?: string;
  livenessMode?: LivenessMode;
  auditSidecar?: string;
  prompt?: string;
  result?: string;
  dispatchKind?: string;
}

const ROW_FLAGS = [
  ['provider', '--provider'],
  ['role', '--role'],
  ['livenessMode', '--liveness-mode'],
  ['auditSidecar', '--audit-sidecar'],
  ['prompt', '--prompt'],
  ['result', '--result'],
  ['dispatchKind', '--dispatch-kind'],
] as const;

/**
 * `okstra-team worker-state transition`: one locked read-modify-write of the
 * worker row through libs/team-state. Prints `{ applied, skipped?, row }`.
 * A terminal row asked for another terminal status is kept (applied: false),
 * exit 0. Exit 2 for a missing reason, an unknown worker or an invalid file.
 *
 * With `--status in-progress`, the row fields of a worker the lead starts
 * itself (an in-process Claude Code worker) are recorded in the same write:
 * provider, role, liveness mode, audit sidecar, prompt and result paths
 * (project-root-relative, each refused when it escapes the project of the
 * team-state), and `startedAt` = now. A worker with no row gets one when
 * `--provider` and `--role` are given. Rule: docs/team.md "Native workers".
 */
export async function runWorkerStateTransition(opts: WorkerStateTransitionOptions, ctx: CliContext): Promise<number> {
  validateTransition(opts);
  const path = pathArg(ctx.io, opts.teamState);
  const given = ROW_FLAGS.filter(([key]) => opts[key] !== undefined);
  if (given.length > 0 && opts.status !== 'in-progress') {
    throw new InputError(`${given[0]![1]} records a worker it starts, so it needs --status in-progress (got '${opts.status}')`, { field: given[0]![1] });
  }
  const outcome = await transitionWorker(path, {
    workerId: opts.worker,
    status: opts.status,
    reason: opts.reason ?? null,
    model: opts.model ?? null,
    now: ctx.io.now(),
    ...nativeRow(opts, path, ctx.io),
  });
  if (!outcome.applied) {
    ctx.io.stderr.write(`${ctx.name}: worker '${opts.worker}' is already ${outcome.row.status}; row kept\n`);
  }
  writeJson(ctx.io, outcome);
  return 0;
}

/** The row fields and creation data of a native worker's `in-progress` transition. */
function nativeRow(opts: WorkerStateTransitionOptions, teamStatePath: string, io: Pick<Io, 'cwd'>): Partial<WorkerTransition> {
  if (opts.status !== 'in-progress') return {};
  if (opts.livenessMode === 'audit-heartbeat' && !opts.auditSidecar) {
    throw new InputError('--liveness-mode audit-heartbeat needs --audit-sidecar (the file the worker heartbeats into)', { field: '--audit-sidecar' });
  }
  if (opts.livenessMode === 'wrapper-status' && !opts.prompt) {
    throw new InputError('--liveness-mode wrapper-status needs --prompt (its .log and .status.json sit beside it)', { field: '--prompt' });
  }
  const root = projectRootOf(teamStatePath);
  const rel = (p: string | undefined, flag: string) => {
    if (p === undefined) return undefined;
    if (!root) throw new InputError(`${flag} needs a team-state inside a project's .okstra tree`, { field: '--team-state' });
    const abs = resolveInsideRoot(root, pathArg(io, p), flag);
    assertRegularIfExists(abs, p);
    return toProjectRelative(root, abs);
  };
  const set: Partial<TeamStateRow> = {};
  const put = <K extends keyof TeamStateRow>(key: K, value: TeamStateRow[K] | undefined) => {
    if (value !== undefined) set[key] = value;
  };
  put('provider', opts.provider);
  put('role', opts.role);
  put('livenessMode', opts.livenessMode);
  put('auditSidecarPath', rel(opts.auditSidecar, '--audit-sidecar'));
  put('promptPath', rel(opts.prompt, '--prompt'));
  put('resultPath', rel(opts.result, '--result'));
  const createRow = opts.provider && opts.role ? { provider: opts.provider, role: opts.role } : undefined;
  return {
    ...(Object.keys(set).length > 0 ? { set } : {}),
    ...(createRow ? { createRow } : {}),
    ...(opts.dispatchKind ? { dispatchKind: opts.dispatchKind } : {}),
  };
}
