import { InputError, parseKeyValue, writeJson, type CliContext } from '@okstra/cli-kit';
import { checkCoverageBatch, parseDispatchFlag, readCriticGaps, WORKER_TEXTS, type WorkerResponse } from '@okstra/convergence';
import { toProjectRelative } from '@okstra/paths';
import { coverageBatchArtifact, criticResultsArtifact } from '@okstra/schemas/convergence';
import { assertOutputNotInput, readTextFile, writeArtifact } from '@okstra/state-file';
import { repairedWorkers, repairSummary, writeRepairDispatch } from '@okstra/team-run';
import { refuseAnswers, renderRepairPrompt, type AnswerProblem } from '@okstra/verdict-blocks';
import { MAX_RESPONSE_BYTES, note, pathArg, readDocument, readWorkingState } from './documents.js';
import { placeOfWorkState } from './run/round-files.js';
import { criticOutcome } from './run/critic-outcome.js';
import { mergeAwaitFlags, readAwaitOutcomes } from '@okstra/team-run/await-report';
import { answerObjectBeside } from './answer-objects.js';

/**
 * `collect-critic-gaps --work-state <p> --critic-dispatch <critic>=<status>:<ms> [--critic-results <p>]
 * --result <w>=<path>… --dispatch <w>=<status>:<ms>… [--model <w>=<value>…] --output <coverage-batch.json>`:
 * parse each analyser's gap-vote Markdown into the `apply-critic-gaps --results`
 * batch (docs/convergence.md "Critic gaps"). The working state is only read (and
 * must replay). Every check — those of apply-critic-gaps included — runs before the
 * output is written; any failure exits 2 and writes nothing. `--repair` (the run's working state):
 * refused gap votes still exit 2, having written their repair dispatch
 * (`state/repair-jobs-gap-vote-<type>-<seq>.json`, docs/convergence.md "Repair dispatch"); an analyser
 * already repaired is collected as error.
 */
export async function runCollectCriticGaps(
  opts: {
    workState: string;
    criticDispatch?: string;
    criticResults?: string;
    result: string[];
    dispatch: string[];
    await?: string;
    model: string[];
    output: string;
    repair?: boolean;
  },
  ctx: CliContext,
): Promise<number> {
  const statePath = pathArg(ctx.io, opts.workState, '--work-state');
  const outputPath = pathArg(ctx.io, opts.output, '--output');
  const state = await readWorkingState(statePath);
  const critic = state.seed.roster.find((w) => w.role === 'critic');
  // Without --critic-dispatch the critic's outcome is its row's (and its results document's), as `run` reads it.
  const fromRun = opts.criticDispatch === undefined && critic ? await criticOutcome(placeOfWorkState(statePath), critic.workerId) : undefined;
  if (opts.criticDispatch === undefined && !fromRun)
    throw new InputError('--critic-dispatch is required when the roster has no critic', { field: '--critic-dispatch' });
  const criticDispatch = parseDispatchFlag(opts.criticDispatch ?? fromRun!.dispatch);
  const analysers = new Set(state.seed.roster.filter((w) => w.role === 'analyser').map((w) => w.workerId));
  // `--await <file>`: the gap-vote round's saved await JSON gives each analyser's outcome and result path.
  const flags = opts.await === undefined ? opts : mergeAwaitFlags(await readAwaitOutcomes(opts.await, ctx.io.cwd, analysers), opts);
  const dispatches = flags.dispatch.map(parseDispatchFlag);
  const models: Record<string, string> = {};
  for (const raw of opts.model) {
    const { key, value } = parseKeyValue('--model', raw);
    models[key] = value;
  }
  const files = flags.result.map((raw) => {
    const { key, value } = parseKeyValue('--result', raw);
    return { workerId: key, file: value, path: pathArg(ctx.io, value) };
  });
  const criticPath = opts.criticResults === undefined ? fromRun?.resultsPath : pathArg(ctx.io, opts.criticResults);
  assertOutputNotInput({ path: outputPath, flag: '--output' }, [
    { path: statePath, flag: '--work-state' },
    ...(criticPath ? [{ path: criticPath, flag: '--critic-results' }] : []),
    ...files.map((f) => ({ path: f.path, flag: `--result ${f.workerId}` })),
  ]);
  if (critic && criticDispatch.workerId !== critic.workerId) {
    throw new InputError(`--critic-dispatch names ${criticDispatch.workerId}, but the roster's critic is ${critic.workerId}`);
  }
  const criticResults = criticPath
    ? await readDocument(criticPath, { kind: 'critic-results', flag: '--critic-results', artifact: criticResultsArtifact })
    : undefined;
  const responses: WorkerResponse[] = [];
  for (const f of files) {
    const text = await readTextFile(f.path, { maxBytes: MAX_RESPONSE_BYTES, label: f.file });
    // A schema-bound answer is read from its object, never from its prose (docs/contracts.md "Answer objects").
    responses.push({ workerId: f.workerId, file: f.file, text, object: answerObjectBeside(f.path, 'gap-vote', text) });
  }
  const place = opts.repair ? placeOfWorkState(statePath) : null;
  const repaired = new Set(place ? (await repairedWorkers(place, 'gap-vote')).keys() : []);
  const { batch, problems } = readCriticGaps({
    state,
    stateFile: statePath,
    criticResults,
    criticDispatch: { status: criticDispatch.status, durationMs: criticDispatch.durationMs },
    responses,
    dispatches,
    models,
    repaired,
  });
  if (problems.length > 0) {
    if (place)
      await writeGapVoteRepair(
        ctx,
        place,
        problems,
        responses,
        files,
        batch.gaps.map((g) => g.id),
      );
    refuseAnswers(problems);
  }
  checkCoverageBatch(state, batch, { state: statePath });
  await writeArtifact(outputPath, coverageBatchArtifact, batch);
  writeJson(ctx.io, {
    output: outputPath,
    criticStatus: criticDispatch.status,
    gaps: batch.gaps.length,
    workers: batch.dispatches.map((d) => ({
      workerId: d.workerId,
      status: d.status,
      durationMs: d.durationMs,
      ...(d.repair ? { repair: (d.repair as { outcome: string }).outcome } : {}),
    })),
  });
  note(
    ctx,
    `coverage batch: critic ${criticDispatch.status}, ${batch.gaps.length} gap(s), ${batch.dispatches.map((d) => `${d.workerId} ${d.status}`).join(', ') || 'no analyser dispatched'}`,
  );
  return 0;
}

/** The gap vote's repair dispatch (docs/convergence.md "Repair dispatch"), printed on stdout as collect-results prints its own. */
async function writeGapVoteRepair(
  ctx: CliContext,
  place: ReturnType<typeof placeOfWorkState>,
  problems: readonly AnswerProblem[],
  responses: readonly WorkerResponse[],
  files: ReadonlyArray<{ workerId: string; path: string }>,
  ids: readonly string[],
): Promise<void> {
  const workers = [...new Set(problems.map((p) => p.workerId))];
  const requests = workers.map((workerId) => {
    const resultPath = files.find((f) => f.workerId === workerId)!.path;
    const prompt = renderRepairPrompt({
      problems: problems.filter((p) => p.workerId === workerId),
      expectedForm: WORKER_TEXTS['gap-vote'],
      answer: responses.find((r) => r.workerId === workerId)!.text,
      to: { workerId, kind: 'gap-vote', ids, resultPath: toProjectRelative(place.projectRoot, resultPath) },
    });
    return { workerId, prompt, resultPath };
  });
  const repair = await writeRepairDispatch(place, 'gap-vote', requests);
  writeJson(ctx.io, repairSummary(workers, repair, place));
}
