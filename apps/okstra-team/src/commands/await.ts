import { createProgress, parseMinutes, pathArg, writeJson, type CliContext } from '@okstra/cli-kit';
import { writeTextAtomic } from '@okstra/state-file';
import { awaitEndedSteps, awaitStatusLine, awaitWorkers } from '@okstra/team-run/await';

/** Flags of `team await` (0.161.0 docs/cli.md team row). */
export interface AwaitFlags {
  projectRoot: string;
  runManifest: string;
  deadline?: string;
  json?: boolean;
  dispatchKind?: string;
  quiet?: boolean;
  /** Also write the JSON document to this file (atomically): what the collectors take with `--await`. */
  output?: string;
}

/**
 * `okstra-team await` (libs/team-run `awaitWorkers`, docs/contracts.md §7): while it polls, one stderr
 * line when it starts waiting and one per worker that ends, in every mode (cli-kit `createProgress`; on a
 * terminal a live line that also ticks each worker's time; none with `--quiet`), then one JSON document
 * (`--json`) or one tab-separated line per worker on stdout. Exit 0 when every judged worker completed, 1 otherwise.
 */
export async function runAwait(flags: AwaitFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const progress = createProgress(io, ctx.name, { quiet: flags.quiet });
  const reported = new Set<string>();
  let started = false;
  const result = await awaitWorkers(
    {
      projectRoot: flags.projectRoot,
      runManifest: flags.runManifest,
      deadlineMinutes: flags.deadline === undefined ? undefined : parseMinutes('--deadline', flags.deadline),
      dispatchKind: flags.dispatchKind,
      onPoll: (poll) => {
        if (!started) progress.step(`awaiting ${poll.records.length} worker(s): ${poll.records.map((r) => r.workerId).join(', ')}`);
        started = true;
        for (const line of awaitEndedSteps(poll, reported)) progress.step(line);
        if (reported.size < poll.records.length) progress.status(awaitStatusLine(poll));
      },
    },
    io,
  );
  progress.done();
  const rows = result.workers;
  const doc = {
    allCompleted: result.allCompleted,
    dispatch: rows.map((r) => `${r.workerId}=${r.status}:${r.durationMs}`),
    round: result.round,
    judged: result.judged.map((r) => ({ workerId: r.workerId, dispatchKind: r.dispatchKind, startedAt: r.startedAt, jobPath: r.jobPath ?? null })),
    notJudged: result.notJudged.map((r) => ({ workerId: r.workerId, dispatchKind: r.dispatchKind, startedAt: r.startedAt })),
    runManifest: flags.runManifest,
    workers: rows,
  };
  if (flags.output !== undefined) await writeTextAtomic(pathArg(io, flags.output, '--output'), JSON.stringify(doc, null, 2) + '\n');
  if (flags.json) {
    writeJson(io, doc);
  } else {
    for (const r of rows) io.stdout.write(`${r.workerId}\t${r.status}\t${r.durationMs}\t${r.reason ?? ''}${r.retryable ? '\tretryable' : ''}\n`);
  }
  return result.allCompleted ? 0 : 1;
}
