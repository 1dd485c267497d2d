import { resolve } from 'node:path';
import { writeJson, type CliContext } from '@okstra/cli-kit';
import { transitionWorker, validateTransition, type TransitionStatus } from '@okstra/team-state';

/** Flags of `worker-state transition` (0.161.0 docs/cli.md row). */
export interface WorkerStateTransitionOptions {
  teamState: string;
  worker: string;
  status: TransitionStatus;
  reason?: string;
  model?: string;
}

/**
 * `okstra-team worker-state transition`: one locked read-modify-write of the
 * worker row through libs/team-state. Prints `{ applied, skipped?, row }`.
 * A terminal row asked for another terminal status is kept (applied: false),
 * exit 0. Exit 2 for a missing reason, an unknown worker or an invalid file.
 */
export async function runWorkerStateTransition(opts: WorkerStateTransitionOptions, ctx: CliContext): Promise<number> {
  validateTransition(opts);
  const path = resolve(ctx.io.cwd, opts.teamState);
  const outcome = await transitionWorker(path, {
    workerId: opts.worker,
    status: opts.status,
    reason: opts.reason ?? null,
    model: opts.model ?? null,
    now: ctx.io.now(),
  });
  if (!outcome.applied) {
    ctx.io.stderr.write(`${ctx.name}: worker '${opts.worker}' is already ${outcome.row.status}; row kept\n`);
  }
  writeJson(ctx.io, outcome);
  return 0;
}
