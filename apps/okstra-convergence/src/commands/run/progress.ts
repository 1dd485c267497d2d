import { createProgress, type CliContext, type Progress } from '@okstra/cli-kit';

const reporters = new WeakMap<CliContext, Progress>();

/** Start `run`'s progress reporter (cli-kit `createProgress`) for this invocation; every step of run reports through it. */
export function startProgress(ctx: CliContext, quiet: boolean | undefined): Progress {
  const progress = createProgress(ctx.io, ctx.name, { quiet });
  reporters.set(ctx, progress);
  return progress;
}

/** The reporter `run` started for `ctx` (a silent one when none was: a step called on its own). */
export function progressOf(ctx: CliContext): Progress {
  return reporters.get(ctx) ?? createProgress(ctx.io, ctx.name, { quiet: true });
}
