import { parseMinutes, pathArg, writeJson, type CliContext } from '@okstra/cli-kit';
import { writeTextAtomic } from '@okstra/state-file';
import { awaitStatusLine, awaitWorkers } from '@okstra/team-run/await';

/** Flags of `team await` (0.161.0 docs/cli.md team row). */
export interface AwaitFlags {
  projectRoot: string;
  runManifest: string;
  deadline?: string;
  json?: boolean;
  dispatchKind?: string;
  /** Also write the JSON document to this file (atomically): what the collectors take with `--await`. */
  output?: string;
}

/**
 * `okstra-team await` (libs/team-run `awaitWorkers`, docs/contracts.md §7): a progress line on a
 * TTY stderr while it polls, then one JSON document (`--json`) or one tab-separated line per
 * worker. Exit 0 when every judged worker completed, 1 otherwise.
 */
export async function runAwait(flags: AwaitFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const tty = Boolean(io.stderr.isTTY);
  const result = await awaitWorkers(
    {
      projectRoot: flags.projectRoot,
      runManifest: flags.runManifest,
      deadlineMinutes: flags.deadline === undefined ? undefined : parseMinutes('--deadline', flags.deadline),
      dispatchKind: flags.dispatchKind,
      onPoll: tty ? (progress) => io.stderr.write(`\r\x1b[K${awaitStatusLine(progress)}`) : undefined,
    },
    io,
  );
  if (tty) io.stderr.write('\n');
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
