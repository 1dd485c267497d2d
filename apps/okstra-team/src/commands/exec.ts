import { existsSync, realpathSync, rmSync, statSync, truncateSync } from 'node:fs';
import { mkdir, realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputError, OkstraError, pathArg, resourceCause, type CliContext } from '@okstra/cli-kit';
import { answerSchemaPath, isInside, resolveInsideRoot, wrapperLogPath, wrapperStatusPath } from '@okstra/paths';
import { teamJobArtifact, type TeamJob } from '@okstra/schemas/team-job';
import { wrapperStatusArtifact } from '@okstra/schemas/team-wrapper-status';
import { isRegularIfExists, readArtifact, tryReadArtifact, withFileLock, writeArtifact } from '@okstra/state-file';
import { codexHomeOf, codexModelRequests, createCapture } from '@okstra/providers';
import { isStatusCurrent, readTeamState, recordWorkerProcesses, transitionWorker, wrapperVerdict, writtenByDispatch } from '@okstra/team-state';
import { processStartTime } from '@okstra/team-run';
import { clearLastMessage, deliverAnswer, readLastMessage, refineReason } from '../wrapper/answer.js';
import { moveEarlierAttemptsAside } from '../wrapper/attempts.js';
import { recordEvidence } from '../wrapper/evidence.js';
import { runProvider, UNREACHABLE_GRACE_MS } from '../wrapper/run-provider.js';
import { recordStructuredAnswer, writeAnswerSchema } from '../wrapper/structured-answer.js';

/**
 * `okstra-team exec --job <file>`: the pane wrapper. Runs the job's provider
 * CLI (argv from the job file, prompt on stdin), appends its output to the
 * prompt's `.log`, reads the provider's final answer and usage through the
 * job's `capture` (libs/providers) — writing the answer to the result file
 * when the worker ended without writing it — writes the `.status.json`
 * (with `usage` and `answer`) atomically at the end and records the terminal
 * transition through libs/team-state (applied only to the dispatch that
 * wrote this job: `rowStartedAt`). Before the provider starts, every
 * completion path an earlier attempt left is moved aside to its attempt file
 * (docs/team.md "exec"); a completion path counts only when this dispatch
 * wrote it (libs/team-state `writtenByDispatch`).
 * The whole job file is validated before the provider starts (see
 * {@link validateJob}); an invalid one exits 2 naming the job file and
 * field, with nothing written and no provider launched.
 * Exit 0 completed and all recorded; 1 the worker ended in error, or the
 * provider ran but a record of it could not be written (disk full: one line
 * each, the rest still written); 2 the provider never started — an invalid
 * job file, or its `.log` could not be opened (nothing written).
 */
export async function runExec(opts: { job: string }, ctx: CliContext): Promise<number> {
  const jobFile = pathArg(ctx.io, opts.job);
  const raw = await readArtifact(jobFile, teamJobArtifact);
  const job = await validateJob(jobFile, raw);
  // The delivery directories exist before the provider starts (codex's `--cd {writeRoot}` needs one).
  for (const p of [job.resultPath, ...job.completionPaths]) await mkdir(dirname(p), { recursive: true });
  clearLastMessage(job.lastMessagePath);
  // Only what this dispatch writes can complete it: an earlier attempt's completion paths go aside first (issue 26.4).
  let cannotStart: string | null = null;
  // A schema-bound job (docs/providers.md "Structured output"): an earlier answer record goes aside too, and the schema is written.
  const structured = job.structuredAnswer ?? null;
  try {
    for (const m of moveEarlierAttemptsAside([job.resultPath, ...job.completionPaths, ...(structured ? [structured.recordPath] : [])]))
      ctx.io.stderr.write(`[okstra] ${job.workerId}: an earlier attempt's ${m.from} moved aside to ${m.to}\n`);
    if (structured) await writeAnswerSchema(structured.kind, answerSchemaPath(job.promptPath));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    cannotStart = `cannot move an earlier attempt's ${e.path ?? 'completion path'} aside (${e.code ?? e.message})`;
  }
  // The provider manifest's `env` over the pane's (docs/providers.md "Bundled providers").
  const providerEnv = { ...ctx.io.env, ...job.command.env };
  const captureKind = job.capture ?? 'none';
  const capture = createCapture(captureKind);
  // The files the worker's own tools opened, for the citation checker's was-read (docs/providers.md "Evidence").
  const evidence = recordEvidence(job);
  const startedAt = ctx.io.now();
  // teardown tells a running worker by these processes (docs/team.md "teardown")
  let recording: Promise<unknown> = Promise.resolve();
  const wrapper = { pid: process.pid, startTime: processStartTime(process.pid) };
  const onSpawn = (pid: number) => {
    recording = recordWorkerProcesses(job.teamStatePath, job.workerId, { wrapper, provider: { pid, startTime: processStartTime(pid) } }, job.rowStartedAt);
    // Awaited (and its failure recorded) after the provider ends; never an unhandled rejection meanwhile.
    recording.catch(() => undefined);
  };
  const logPath = wrapperLogPath(job.promptPath);
  const logBefore = sizeIfExists(logPath);
  const observed = cannotStart
    ? { exitCode: null, signal: null, sawOutput: false, stderrTail: '', spawnError: cannotStart, stoppedFor: null }
    : await runProvider(
        {
          file: job.command.file,
          args: job.command.args,
          env: providerEnv,
          cwd: job.projectRoot,
          promptPath: job.promptPath,
          promptDelivery: job.promptDelivery,
          logPath,
          onSpawn,
          onStdoutLine: (line) => {
            capture.push(line);
            evidence?.push(line);
          },
          unreachable: () => capture.unreachable(),
          unreachableGraceMs: unreachableGraceMs(ctx.io.env),
        },
        ctx.io.stdout,
        ctx.io.stderr,
      );
  // A launch that never started leaves no transcript of its own (docs/team.md "exec"): the `.log` it opened
  // goes again (or back to its earlier attempts' bytes); the status sidecar and the row say why.
  if (observed.spawnError && !observed.sawOutput) forgetLog(logPath, logBefore);
  // From here the provider has run (or was refused a start): a write that fails (a full disk, EFBIG, EMFILE)
  // is recorded as far as it can be and makes the exit 1, never 2 or 70 (docs/team.md "exec").
  const unrecorded: string[] = [];
  const record = async <T>(what: Promise<T> | (() => Promise<T>), fallback: T): Promise<T> => {
    try {
      return await (typeof what === 'function' ? what() : what);
    } catch (error) {
      const line = writeFailure(error);
      if (line === null) throw error;
      unrecorded.push(line);
      return fallback;
    }
  };
  if ('logError' in observed && observed.logError) unrecorded.push(writeFailure(observed.logError) ?? String(observed.logError));
  await record(recording, undefined);
  // Codex's model requests are in its own session record, under the CODEX_HOME the CLI ran with (docs/providers.md "Usage").
  const codexHome = codexHomeOf(providerEnv);
  const captured = capture.finish({
    lastMessage: readLastMessage(job.lastMessagePath),
    jobModel: job.model,
    modelRequests: captureKind === 'codex-jsonl' && codexHome ? (id) => codexModelRequests(codexHome, id) : undefined,
  });
  if (evidence && !cannotStart)
    await record(
      () => evidence.write({ startedAt, sessionId: captured.usage?.sessionId ?? null, codexHome: captureKind === 'codex-jsonl' ? codexHome : null }),
      null,
    );
  const exitedCleanly = observed.exitCode === 0 && !observed.signal && !observed.spawnError;
  const answer = await record(() => deliverAnswer({ capture: captured, exitedCleanly, resultPath: job.resultPath, realRoot: job.realRoot }), null);
  // The answer object of a schema-bound run becomes the result; a missing or invalid one is recorded refused (docs/team.md "exec").
  if (structured && exitedCleanly) {
    const read = await record(
      () =>
        recordStructuredAnswer({
          job: { ...structured, workerId: job.workerId, dispatchKind: job.dispatchKind, resultPath: job.resultPath },
          startedAt,
          captureKind,
          capture: captured,
        }),
      null,
    );
    if (read) ctx.io.stderr.write(`[okstra] ${job.workerId}: answer object ${read.status}${read.problems.length > 0 ? `: ${read.problems.join('; ')}` : ''}\n`);
  }
  const missingPaths = job.completionPaths.filter((p) => !existsInsideRoot(job.realRoot, p) || !writtenByDispatch(p, job.rowStartedAt));
  const base = wrapperVerdict({ ...observed, missingPaths });
  // A provider the wrapper stopped for an unreachable model ends error with that reason (issue 26.2).
  const verdict = observed.stoppedFor
    ? { status: 'error' as const, reason: observed.stoppedFor }
    : {
        status: base.status,
        reason: refineReason({ verdict: base, exitCode: observed.exitCode, captureKind, capture: captured, lastEvent: capture.lastEvent() }),
      };
  const endedAt = ctx.io.now();
  const statusPath = wrapperStatusPath(job.promptPath);
  const status = {
    schemaVersion: '1.0' as const,
    workerId: job.workerId,
    dispatchKind: job.dispatchKind,
    status: verdict.status,
    exitCode: observed.exitCode,
    signal: observed.signal,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    durationMs: Math.max(0, endedAt.getTime() - startedAt.getTime()),
    reason: verdict.reason,
    usage: captured.usage,
    answer,
    endOfTurn: captured.endOfTurn,
  };
  // Checked and written under the sidecar's lock: a first attempt stopped by `teardown --force` after its
  // retry completed ends last, and must not write its error over the retry's record (the row is guarded
  // the same way: ifStartedAt below).
  const later = await record(
    () =>
      withFileLock(statusPath, async () => {
        const kept = laterDispatchStatus(statusPath, startedAt);
        if (!kept) await writeArtifact(statusPath, wrapperStatusArtifact, status);
        return kept;
      }),
    null,
  );
  if (later)
    ctx.io.stderr.write(
      `[okstra] ${job.workerId}: a later dispatch's ${statusPath} (started ${later}) is kept; this attempt's ${verdict.status} is not written\n`,
    );
  await record(
    () =>
      transitionWorker(job.teamStatePath, {
        workerId: job.workerId,
        status: verdict.status,
        reason: verdict.reason,
        now: endedAt,
        ifStartedAt: job.rowStartedAt,
      }),
    undefined,
  );
  ctx.io.stderr.write(`\n[okstra] ${job.workerId}: ${verdict.status}${verdict.reason ? ` (${verdict.reason})` : ''}\n`);
  for (const line of unrecorded) ctx.io.stderr.write(`${ctx.name}: the provider ran, but ${line}\n`);
  return verdict.status === 'completed' && unrecorded.length === 0 ? 0 : 1;
}

/**
 * One line for a write that failed after the provider ran because the machine
 * ran out of something (ENOSPC, EDQUOT, EFBIG, EMFILE — core `resourceCause`),
 * or an InputError a writer raised for it; null for anything else (a bug,
 * rethrown). The file is named when the error carries it.
 */
function writeFailure(error: unknown): string | null {
  if (error instanceof OkstraError) return error.toLine();
  const e = error as NodeJS.ErrnoException;
  const cause = resourceCause(e?.code);
  return cause ? `${e.path ? `${e.path}: ` : ''}cannot write it: ${cause}` : null;
}

/**
 * The fail-fast grace (ms): `OKSTRA_UNREACHABLE_GRACE_MS` when it is a whole
 * number of ms from 1000 to 50000 (tests shorten it), else the default — so an
 * unreachable model always ends the worker well within 60 s.
 */
function unreachableGraceMs(env: NodeJS.ProcessEnv): number {
  const v = Number(env.OKSTRA_UNREACHABLE_GRACE_MS);
  return Number.isInteger(v) && v >= 1_000 && v <= 50_000 ? v : UNREACHABLE_GRACE_MS;
}

/** A job whose paths are absolute, resolved inside `projectRoot`; `realRoot` is the root's realpath. */
type ValidatedJob = TeamJob & { realRoot: string };

/**
 * Validate everything of a job file the wrapper relies on, before anything
 * runs or is written (docs/team.md "exec"):
 * - `projectRoot` is an existing directory;
 * - `promptPath`, `resultPath`, `lastMessagePath`, every `completionPaths[i]`,
 *   `structuredAnswer.recordPath` and `teamStatePath` resolve inside `projectRoot` (lexically, then — for the
 *   parts that exist — by realpath, so a symlink cannot lead out);
 * - the prompt and its `.log`/`.status.json`, when they exist, are regular
 *   files (a FIFO would block the wrapper) whose realpaths are inside;
 * - `teamStatePath` is an existing regular file with a row for `workerId`.
 * @returns the job with those paths absolute.
 * @throws InputError (exit 2) naming the job file and the field.
 */
export async function validateJob(jobFile: string, job: TeamJob): Promise<ValidatedJob> {
  const fail = (field: string, message: string): never => {
    throw new InputError(message, { file: jobFile, field });
  };
  let realRoot = '';
  try {
    if (!(await stat(job.projectRoot)).isDirectory()) fail('projectRoot', `'${job.projectRoot}' is not a directory`);
    realRoot = await realpath(job.projectRoot);
  } catch (error) {
    if (error instanceof OkstraError) throw error;
    fail('projectRoot', `'${job.projectRoot}' does not exist or is unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  // resolveInsideRoot (libs/paths) checks both halves: lexically, and by the real path of the nearest existing ancestor.
  const inside = async (field: string, path: string): Promise<string> => {
    try {
      return resolveInsideRoot(job.projectRoot, path, field);
    } catch (error) {
      return fail(field, error instanceof Error ? error.message : String(error));
    }
  };
  const promptPath = await inside('promptPath', job.promptPath);
  // The prompt (the child's stdin) and the `.log` (opened for writing, following symlinks)
  // must be regular files when they exist — a FIFO would block the wrapper — and really inside.
  for (const p of [promptPath, wrapperLogPath(promptPath), wrapperStatusPath(promptPath)]) {
    await inside('promptPath', p);
    if (!isRegularIfExists(p)) fail('promptPath', `'${p}' is not a regular file`);
  }
  const resultPath = await inside('resultPath', job.resultPath);
  let lastMessagePath: string | null = null;
  if (job.lastMessagePath) {
    lastMessagePath = await inside('lastMessagePath', job.lastMessagePath);
    if (!isRegularIfExists(lastMessagePath)) fail('lastMessagePath', `'${lastMessagePath}' is not a regular file`);
  }
  const completionPaths: string[] = [];
  for (const [i, p] of job.completionPaths.entries()) completionPaths.push(await inside(`completionPaths[${i}]`, p));
  const structuredAnswer = job.structuredAnswer
    ? { ...job.structuredAnswer, recordPath: await inside('structuredAnswer.recordPath', job.structuredAnswer.recordPath) }
    : null;
  const teamStatePath = await inside('teamStatePath', job.teamStatePath);
  try {
    const st = await stat(teamStatePath);
    if (!st.isFile()) fail('teamStatePath', `'${job.teamStatePath}' is not a regular file`);
  } catch (error) {
    if (error instanceof OkstraError) throw error;
    fail('teamStatePath', `'${job.teamStatePath}' does not exist (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let hasRow = false;
  try {
    hasRow = (await readTeamState(teamStatePath)).workers.some((w) => w.workerId === job.workerId);
  } catch (error) {
    fail('teamStatePath', `'${job.teamStatePath}' is not a valid team-state file: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!hasRow) fail('teamStatePath', `'${job.teamStatePath}' has no row for worker '${job.workerId}'`);
  return { ...job, promptPath, resultPath, lastMessagePath, completionPaths, teamStatePath, structuredAnswer, realRoot };
}

/** A completion path counts only when it exists and its realpath is inside the project root. */
function existsInsideRoot(realRoot: string, path: string): boolean {
  if (!existsSync(path)) return false;
  try {
    return isInside(realRoot, realpathSync(path));
  } catch {
    return false;
  }
}

/**
 * The `startedAt` (ISO-8601) of the status sidecar at `path` when a wrapper that
 * started no earlier than `startedAt` wrote it — a later dispatch of the same prompt, whose
 * record an earlier attempt ending late must not overwrite (docs/team.md "exec") —
 * else null (no sidecar, one that does not parse, or an earlier one's).
 */
function laterDispatchStatus(path: string, startedAt: Date): string | null {
  const current = tryReadArtifact(path, wrapperStatusArtifact)?.startedAt;
  // The rule that dates a sidecar against a dispatch's start has one home (libs/team-state).
  return isStatusCurrent(current, startedAt.toISOString()) ? current! : null;
}

/** The size of `path`, or null when there is none. */
function sizeIfExists(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/** Remove the `.log` a launch that never started opened (`before` null), or cut it back to its earlier bytes. */
function forgetLog(path: string, before: number | null): void {
  try {
    if (before === null) rmSync(path, { force: true });
    else truncateSync(path, before);
  } catch {
    // best effort: the status sidecar still records the failed start
  }
}
