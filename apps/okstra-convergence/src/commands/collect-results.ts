import { isStdio, parseKeyValue, writeJson, type CliContext } from '@okstra/cli-kit';
import { checkResults, collectRoundResults, parseDispatchFlag, type WorkerResponse } from '@okstra/convergence';
import { roundPlanArtifact, roundResultsArtifact, type ConvergenceMode } from '@okstra/schemas/convergence';
import { assertOutputNotInput, readTextFile, renderArtifact, writeArtifact } from '@okstra/state-file';
import { documentArg, MAX_RESPONSE_BYTES, note, pathArg, readDocument } from './documents.js';

/**
 * `collect-results --plan <p> [--mode <m>] --result <w>=<path>… --dispatch <w>=<status>:<ms>… --output <p>`:
 * read one round's worker responses into the `apply-round --results` shape.
 * `--mode` defaults to the plan's own `mode` (a given one must match it).
 * Every check runs before the output is written; any failure exits 2 and writes nothing.
 */
export async function runCollectResults(
  opts: { plan: string; mode?: ConvergenceMode; result: string[]; dispatch: string[]; output: string },
  ctx: CliContext,
): Promise<number> {
  const planPath = documentArg(ctx.io, opts.plan);
  const toStdout = isStdio(opts.output); // `--output -`: the results document on stdout, no summary
  const outputPath = toStdout ? '-' : pathArg(ctx.io, opts.output);
  const dispatches = opts.dispatch.map(parseDispatchFlag);
  const files = opts.result.map((raw) => {
    const { key, value } = parseKeyValue('--result', raw);
    return { workerId: key, file: value, path: pathArg(ctx.io, value) };
  });
  if (!toStdout)
    assertOutputNotInput({ path: outputPath, flag: '--output' }, [
      { path: planPath, flag: '--plan' },
      ...files.map((f) => ({ path: f.path, flag: `--result ${f.workerId}` })),
    ]);
  const plan = await readDocument(planPath, { kind: 'round-plan', flag: '--plan', artifact: roundPlanArtifact, io: ctx.io });
  const responses: WorkerResponse[] = [];
  for (const f of files)
    responses.push({ workerId: f.workerId, file: f.file, text: await readTextFile(f.path, { maxBytes: MAX_RESPONSE_BYTES, label: f.file }) });
  const results = collectRoundResults({ plan, planFile: planPath, mode: opts.mode ?? plan.mode, responses, dispatches });
  checkResults(plan, results, { results: outputPath });
  if (toStdout) {
    ctx.io.stdout.write(renderArtifact(roundResultsArtifact, results));
    return 0;
  }
  await writeArtifact(outputPath, roundResultsArtifact, results);
  writeJson(ctx.io, {
    output: outputPath,
    round: results.round,
    workers: results.workers.map((w) => ({ workerId: w.workerId, status: w.status, durationMs: w.durationMs, votes: w.verdicts.length })),
  });
  note(ctx, `round ${results.round}: ${results.workers.map((w) => `${w.workerId} ${w.status} (${w.verdicts.length} votes)`).join(', ')}`);
  return 0;
}
