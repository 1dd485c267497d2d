import { citationSignals } from '@okstra/citations';
import { isStdio, parseKeyValue, writeJson, type CliContext } from '@okstra/cli-kit';
import { checkResults, parseDispatchFlag, readRoundResults, renderReverifyRepairPrompt, type WorkerResponse } from '@okstra/convergence';
import { toProjectRelative } from '@okstra/paths';
import { roundPlanArtifact, roundResultsArtifact, type ConvergenceMode } from '@okstra/schemas/convergence';
import { reverifyDispatchKind } from '@okstra/schemas/vocabulary';
import { assertOutputNotInput, readTextFile, renderArtifact, writeArtifact } from '@okstra/state-file';
import { repairDispatchCommand, repairedWorkers, repairSummary, writeRepairDispatch } from '@okstra/team-run';
import { mergeAwaitFlags, readAwaitOutcomes } from '@okstra/team-run/await-report';
import { refuseAnswers, type AnswerProblem } from '@okstra/verdict-blocks';
import { documentArg, MAX_RESPONSE_BYTES, note, pathArg, readDocument } from './documents.js';
import { placeOfPlan } from './run/round-files.js';
import { answerObjectBeside } from './answer-objects.js';

/**
 * `collect-results --plan <p> [--mode <m>] (--await <await.json> | --result <w>=<path>… --dispatch <w>=<status>:<ms>…) --output <p> [--repair]`:
 * read one round's worker responses into the `apply-round --results` shape.
 * `--mode` defaults to the plan's own `mode` (a given one must match it).
 * Every check runs before the output is written; any failure exits 2 and writes nothing.
 * With `--repair` (docs/convergence.md "Repair dispatch"; the plan must be a run's): refused answers
 * still exit 2 listing every problem, but first write the repair dispatch of the refused workers not
 * yet repaired this round (their repair prompts and `state/repair-jobs-reverify-r<N>-<type>-<seq>.json`,
 * printed on stdout as `{ refused, repair: { dispatchKind, jobsFile, workers } }`) and nothing else; a
 * worker whose newest dispatch (team-state) was this round's repair is collected as `error` when its
 * repair failed or its restated answer is refused again, never repaired twice.
 */
export async function runCollectResults(
  opts: { plan: string; mode?: ConvergenceMode; result: string[]; dispatch: string[]; await?: string; output: string; repair?: boolean },
  ctx: CliContext,
): Promise<number> {
  const planPath = documentArg(ctx.io, opts.plan);
  const toStdout = isStdio(opts.output); // `--output -`: the results document on stdout, no summary
  const outputPath = toStdout ? '-' : pathArg(ctx.io, opts.output);
  // An output naming an input is refused before anything is read (the --await results are checked once known).
  if (!toStdout && opts.await === undefined)
    assertNotInput(
      outputPath,
      planPath,
      opts.result.map((raw) => resultFile(ctx, raw)),
    );
  const plan = await readDocument(planPath, { kind: 'round-plan', flag: '--plan', artifact: roundPlanArtifact, io: ctx.io });
  // `--await <file>`: team await's saved JSON gives every planned worker's outcome and result path (docs/team.md "await").
  const flags =
    opts.await === undefined
      ? { dispatch: opts.dispatch, result: opts.result }
      : mergeAwaitFlags(await readAwaitOutcomes(opts.await, ctx.io.cwd, new Set(plan.batches.map((b) => b.workerId))), opts);
  const dispatches = flags.dispatch.map(parseDispatchFlag);
  const files = flags.result.map((raw) => resultFile(ctx, raw));
  if (!toStdout) assertNotInput(outputPath, planPath, files);
  const responses: WorkerResponse[] = [];
  for (const f of files) {
    const text = await readTextFile(f.path, { maxBytes: MAX_RESPONSE_BYTES, label: f.file });
    // A schema-bound answer is read from its object, never from its prose (docs/contracts.md "Answer objects").
    responses.push({ workerId: f.workerId, file: f.file, text, object: answerObjectBeside(f.path, 'reverify', text) });
  }
  const place = opts.repair ? placeOfPlan(planPath) : null;
  const kind = reverifyDispatchKind(plan.round);
  const repaired = new Set(place ? (await repairedWorkers(place, kind)).keys() : []);
  const { results, problems } = readRoundResults({ plan, planFile: planPath, mode: opts.mode ?? plan.mode, responses, dispatches, repaired });
  if (problems.length > 0) {
    if (place) {
      const byWorker = new Map<string, AnswerProblem[]>();
      for (const p of problems) byWorker.set(p.workerId, [...(byWorker.get(p.workerId) ?? []), p]);
      const requests = [...byWorker].map(([workerId, mine]) => {
        const file = files.find((f) => f.workerId === workerId)!;
        const answer = responses.find((r) => r.workerId === workerId)!.text;
        return {
          workerId,
          resultPath: file.path,
          prompt: renderReverifyRepairPrompt(plan, workerId, mine, answer, toProjectRelative(place.projectRoot, file.path)),
        };
      });
      const repair = await writeRepairDispatch(place, kind, requests);
      writeJson(ctx.io, repairSummary([...byWorker.keys()], repair, place));
      note(ctx, `repair dispatch written; from the project root run: ${repairDispatchCommand(place, repair)}`);
    }
    refuseAnswers(problems);
  }
  checkResults(plan, results, { results: outputPath });
  if (toStdout) {
    ctx.io.stdout.write(renderArtifact(roundResultsArtifact, results));
    return 0;
  }
  await writeArtifact(outputPath, roundResultsArtifact, results);
  // How each response's citations stand (libs/citations): a signal beside the votes, never a change of one.
  const cited = citationSignals(files.map((f) => ({ workerId: f.workerId, path: f.path, text: responses.find((r) => r.workerId === f.workerId)!.text })));
  const unheld = (id: string) => {
    const c = cited[id];
    return c?.status === 'checked' ? c.notHolding.length : 0;
  };
  writeJson(ctx.io, {
    output: outputPath,
    round: results.round,
    workers: results.workers.map((w) => ({
      workerId: w.workerId,
      status: w.status,
      durationMs: w.durationMs,
      votes: w.verdicts.length,
      ...(w.repair ? { repair: w.repair.outcome } : {}),
      ...(cited[w.workerId] ? { citations: cited[w.workerId] } : {}),
    })),
  });
  note(
    ctx,
    `round ${results.round}: ${results.workers.map((w) => `${w.workerId} ${w.status} (${w.verdicts.length} votes${w.repair ? `, repair ${w.repair.outcome}` : ''}${unheld(w.workerId) ? `, ${unheld(w.workerId)} citation(s) not holding` : ''})`).join(', ')}`,
  );
  return 0;
}

function resultFile(ctx: CliContext, raw: string): { workerId: string; file: string; path: string } {
  const { key, value } = parseKeyValue('--result', raw);
  return { workerId: key, file: value, path: pathArg(ctx.io, value) };
}

function assertNotInput(outputPath: string, planPath: string, files: readonly { workerId: string; path: string }[]): void {
  assertOutputNotInput({ path: outputPath, flag: '--output' }, [
    { path: planPath, flag: '--plan' },
    ...files.map((f) => ({ path: f.path, flag: `--result ${f.workerId}` })),
  ]);
}
