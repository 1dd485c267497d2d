import { parseMinutes, type CliContext } from '@okstra/cli-kit';
import type { RunContext } from '@okstra/team-run';
import { awaitEndedSteps, awaitStatusLine, awaitWorkers, type AwaitRow } from '@okstra/team-run/await';
import { dispatchWorkers } from '@okstra/team-run/dispatch';
import { teardownRun } from '@okstra/team-run/teardown';
import { progressOf } from './progress.js';

// `run`'s steps of libs/team-run: what `okstra-team dispatch / await / teardown` do, with their notes and
// progress lines through run's reporter (./progress.ts; run's own output is its one JSON document).

/** Dispatch `workers` of the jobs file (libs/team-run `dispatchWorkers`). */
export async function dispatchJobs(ctx: CliContext, team: RunContext, jobsFile: string, dispatchKind: string, workers: string[]): Promise<void> {
  const done = await dispatchWorkers({ projectRoot: team.projectRoot, runManifest: team.manifestPath, jobsFile, dispatchKind, workers }, ctx.io);
  for (const r of done.dryRun ? [] : done.dispatched)
    if (r.phase === undefined && r.degradedFrom)
      note(ctx, `${ctx.name}: ${r.workerId}: no ${r.degradedFrom} (${r.reason}); running the wrapper as a detached subprocess\n`);
}

/**
 * Await the round of `dispatchKind` (libs/team-run `awaitWorkers`); `deadline` is run's `--deadline`. A progress step
 * per worker that ends (`reverify-r1: codex error (1 of 2 ended)`), the workers' times as a terminal's live line.
 * @returns await's rows.
 */
export async function awaitKind(ctx: CliContext, team: RunContext, deadline: string | undefined, dispatchKind: string): Promise<AwaitRow[]> {
  const progress = progressOf(ctx);
  const reported = new Set<string>();
  const { workers } = await awaitWorkers(
    {
      projectRoot: team.projectRoot,
      runManifest: team.manifestPath,
      deadlineMinutes: deadline === undefined ? undefined : parseMinutes('--deadline', deadline),
      dispatchKind,
      onPoll: (poll) => {
        for (const line of awaitEndedSteps(poll, reported)) progress.step(`${dispatchKind}: ${line}`);
        if (reported.size < poll.records.length) progress.status(`${dispatchKind}: ${awaitStatusLine(poll)}`);
      },
    },
    ctx.io,
  );
  return workers;
}

/** Tear down the run's finished panes (libs/team-run `teardownRun`). */
export async function teardown(ctx: CliContext, team: RunContext): Promise<void> {
  const { running } = await teardownRun({ projectRoot: team.projectRoot, runManifest: team.manifestPath }, ctx.io);
  if (running.length > 0)
    note(ctx, `${ctx.name}: left ${running.length} running worker(s) alone: ${running.map((r) => r.workerId).join(', ')} (--force stops them)\n`);
}

function note(ctx: CliContext, line: string): void {
  progressOf(ctx).stderr.write(line);
}
