import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliContext } from '@okstra/cli-kit';
import { wrapperLogPath, wrapperStatusPath } from '@okstra/paths';
import { TeamJob, teamJobArtifact } from '@okstra/schemas/team-job';
import { readJsonFile, writeJsonAtomic } from '@okstra/state-file';
import { transitionWorker, wrapperVerdict } from '@okstra/team-state';
import { runProvider } from '../wrapper/run-provider.js';

/**
 * `okstra-team exec --job <file>`: the pane wrapper. Runs the job's provider
 * CLI (argv from the job file, prompt on stdin), tees its output to the
 * prompt's `.log`, writes the `.status.json` atomically at the end and
 * records the terminal transition through libs/team-state (applied only to
 * the dispatch that wrote this job: `rowStartedAt`).
 * Exit 0 completed, 1 error, 2 an invalid job file (nothing written).
 */
export async function runExec(opts: { job: string }, ctx: CliContext): Promise<number> {
  const job = await readJsonFile(resolve(ctx.io.cwd, opts.job), { schema: TeamJob, schemaVersions: teamJobArtifact.versions });
  const startedAt = ctx.io.now();
  const observed = await runProvider(
    {
      file: job.command.file, args: job.command.args, cwd: job.projectRoot,
      promptPath: job.promptPath, promptDelivery: job.promptDelivery, logPath: wrapperLogPath(job.promptPath),
    },
    ctx.io.stdout, ctx.io.stderr,
  );
  const missingPaths = job.completionPaths.filter((p) => !existsSync(p));
  const verdict = wrapperVerdict({ ...observed, missingPaths });
  const endedAt = ctx.io.now();
  await writeJsonAtomic(wrapperStatusPath(job.promptPath), {
    schemaVersion: '1.0', workerId: job.workerId, dispatchKind: job.dispatchKind,
    status: verdict.status, exitCode: observed.exitCode, signal: observed.signal,
    startedAt: startedAt.toISOString(), endedAt: endedAt.toISOString(),
    durationMs: Math.max(0, endedAt.getTime() - startedAt.getTime()), reason: verdict.reason,
  });
  await transitionWorker(job.teamStatePath, {
    workerId: job.workerId, status: verdict.status, reason: verdict.reason, now: endedAt, ifStartedAt: job.rowStartedAt,
  });
  ctx.io.stderr.write(`\n[okstra] ${job.workerId}: ${verdict.status}${verdict.reason ? ` (${verdict.reason})` : ''}\n`);
  return verdict.status === 'completed' ? 0 : 1;
}
