import { createProgress, parseCsv, writeJson, type CliContext } from '@okstra/cli-kit';
import { dispatchWorkers } from '@okstra/team-run/dispatch';

/** Flags of `team dispatch` (0.161.0 docs/cli.md team row; cmux adapter text). */
export interface DispatchFlags {
  projectRoot: string;
  runManifest: string;
  workers?: string;
  jobsFile?: string;
  dispatchKind?: string;
  dryRun?: boolean;
  quiet?: boolean;
}

/**
 * `okstra-team dispatch` (libs/team-run `dispatchWorkers`, docs/team.md "dispatch"): prints the
 * dry run's plan or the records; on stderr one progress line per worker started or not (cli-kit
 * `createProgress`, every mode, none with `--quiet`) and one per worker degraded to a detached wrapper.
 * Exit 0, or 1 when a worker got neither a pane nor a wrapper.
 */
export async function runDispatch(flags: DispatchFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const progress = createProgress(io, ctx.name, { quiet: flags.quiet });
  const { quiet: _quiet, ...options } = flags;
  const result = await dispatchWorkers({ ...options, workers: parseCsv(flags.workers) }, io);
  if (result.dryRun) {
    writeJson(io, result);
    return 0;
  }
  for (const r of result.dispatched)
    progress.step(r.phase === 'not-started' ? `${r.workerId} not started${r.reason ? `: ${r.reason}` : ''}` : `${r.workerId} started`);
  progress.done();
  for (const r of result.dispatched)
    if (r.phase === undefined && r.degradedFrom)
      progress.stderr.write(`${ctx.name}: ${r.workerId}: no ${r.degradedFrom} (${r.reason}); running the wrapper as a detached subprocess\n`);
  writeJson(io, result);
  return result.dispatched.some((r) => r.phase === 'not-started') ? 1 : 0;
}
