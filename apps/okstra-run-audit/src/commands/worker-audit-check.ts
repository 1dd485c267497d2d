import { stat } from 'node:fs/promises';
import { ExitCode, InputError, pathArg, UsageError, writeJson, type CliContext } from '@okstra/cli-kit';
import { checkWorkerCitations, checkWorkerResults, indexDirs, listDirSync, runArtifactDirs, workerResultIds } from '@okstra/audit-rules';
import { assertSegment, assertWorkerId, formatSeq, parseRunDir, projectRootOf, runSuffix, toProjectRelative } from '@okstra/paths';

/** Parsed flags of `okstra worker-audit-check` (program.ts). */
export interface WorkerAuditCheckOptions {
  runDir: string;
  taskType: string;
  seq: string;
  worker?: string;
}

/**
 * `okstra worker-audit-check --run-dir <runs/<task-type>/> --task-type <type> --seq <nnn> [--worker <id>]`
 * (seed 000 0.161.0 cli.md row; docs/worker-audit-check.md). Prints `{ok, failures[], citations[]}`
 * (`citations`: per worker, what the citation checker found — cited / exist / in range / match / read);
 * failure files are project-relative when the run dir is inside a `.okstra` tree.
 * @returns 0 when no failure, 2 when `failures[]` is non-empty (the seed's contract).
 * @throws UsageError / InputError (2) for a bad seq, task type, worker id or run dir (one
 *   that does not exist, or is not `<task-root>/runs/<task-type>[/stage-<N>]` of `--task-type`),
 *   for a selection that matches no worker result at all (without `--worker`),
 *   and for a worker artifact that is not a regular file (FIFO, device, directory).
 */
export async function runWorkerAuditCheck(opts: WorkerAuditCheckOptions, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  if (!/^[0-9]{3,}$/.test(opts.seq)) throw new UsageError(`--seq expects a zero-padded run seq like 001, got '${opts.seq}'`);
  const seq = formatSeq(opts.seq);
  assertSegment('task type', opts.taskType);
  if (opts.worker !== undefined) assertWorkerId(opts.worker);
  if (opts.runDir.trim() === '') throw new InputError('not a run directory: expected <task-root>/runs/<task-type>[/stage-<N>]', { file: opts.runDir });
  const runDir = pathArg(io, opts.runDir);
  if (!(await stat(runDir).catch(() => null))?.isDirectory()) throw new InputError('run directory does not exist', { file: opts.runDir });
  const parsed = parseRunDir(runDir);
  if (!parsed || parsed.taskRoot === '') {
    throw new InputError('not a run directory: expected <task-root>/runs/<task-type>[/stage-<N>]', { file: opts.runDir });
  }
  if (parsed.taskType !== opts.taskType) {
    throw new InputError(`run directory is for task type '${parsed.taskType}', not '${opts.taskType}'`, { file: opts.runDir });
  }
  const files = await indexDirs(runArtifactDirs(runDir));
  if (opts.worker === undefined && workerResultIds({ runDir, taskType: opts.taskType, seq }, files).length === 0) {
    // Nothing to check is not a pass: a wrong --seq or a non-stage directory would otherwise report ok.
    const stages = listDirSync(runDir).filter((n) => /^stage-[1-9][0-9]*$/.test(n));
    throw new InputError(`no worker result matches: looked for worker-results/<worker>${runSuffix(opts.taskType, seq)}.md`, {
      file: opts.runDir,
      hint: stages.length
        ? `this task type's runs are in ${stages.join(', ')}: pass --run-dir <run-dir>/${stages[0]}`
        : 'check --run-dir, --task-type and --seq',
    });
  }
  const scope = { runDir, taskType: opts.taskType, seq, worker: opts.worker };
  // The sidecar rules (shared with run-audit invariant 13), then the citations against the project (libs/citations).
  const cited = await checkWorkerCitations(scope, files);
  const failures = [...(await checkWorkerResults(scope, files)), ...cited.failures];
  const root = projectRootOf(runDir);
  const shown = failures.map((f) => ({ ...f, file: root ? toProjectRelative(root, f.file) : f.file }));
  writeJson(io, { ok: shown.length === 0, failures: shown, citations: cited.citations });
  if (shown.length > 0) {
    io.stderr.write(`${ctx.name}: ${shown.length} worker audit failure${shown.length === 1 ? '' : 's'}\n`);
    return ExitCode.INVALID;
  }
  return ExitCode.OK;
}
