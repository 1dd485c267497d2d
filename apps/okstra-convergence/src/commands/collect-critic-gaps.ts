import { InputError, parseKeyValue, writeJson, type CliContext } from '@okstra/cli-kit';
import { collectCriticGaps, parseDispatchFlag, type WorkerResponse } from '@okstra/convergence';
import { coverageBatchArtifact, criticResultsArtifact } from '@okstra/schemas/convergence';
import { assertOutputNotInput, readTextFile, writeArtifact } from '@okstra/state-file';
import { MAX_RESPONSE_BYTES, note, pathArg, readDocument, readWorkingState } from './documents.js';

/**
 * `collect-critic-gaps --work-state <p> --critic-dispatch <critic>=<status>:<ms> [--critic-results <p>]
 * --result <w>=<path>… --dispatch <w>=<status>:<ms>… [--model <w>=<value>…] --output <coverage-batch.json>`:
 * parse each analyser's gap-vote Markdown into the `apply-critic-gaps --results`
 * batch (docs/convergence.md "Critic gaps"). The working state is only read (and
 * must replay). Every check — those of apply-critic-gaps included — runs before the
 * output is written; any failure exits 2 and writes nothing.
 */
export async function runCollectCriticGaps(
  opts: { workState: string; criticDispatch: string; criticResults?: string; result: string[]; dispatch: string[]; model: string[]; output: string },
  ctx: CliContext,
): Promise<number> {
  const statePath = pathArg(ctx.io, opts.workState, '--work-state');
  const outputPath = pathArg(ctx.io, opts.output, '--output');
  const criticDispatch = parseDispatchFlag(opts.criticDispatch);
  const dispatches = opts.dispatch.map(parseDispatchFlag);
  const models: Record<string, string> = {};
  for (const raw of opts.model) {
    const { key, value } = parseKeyValue('--model', raw);
    models[key] = value;
  }
  const files = opts.result.map((raw) => {
    const { key, value } = parseKeyValue('--result', raw);
    return { workerId: key, file: value, path: pathArg(ctx.io, value) };
  });
  const criticPath = opts.criticResults === undefined ? undefined : pathArg(ctx.io, opts.criticResults);
  assertOutputNotInput({ path: outputPath, flag: '--output' }, [
    { path: statePath, flag: '--work-state' },
    ...(criticPath ? [{ path: criticPath, flag: '--critic-results' }] : []),
    ...files.map((f) => ({ path: f.path, flag: `--result ${f.workerId}` })),
  ]);
  const state = await readWorkingState(statePath);
  const critic = state.seed.roster.find((w) => w.role === 'critic');
  if (critic && criticDispatch.workerId !== critic.workerId) {
    throw new InputError(`--critic-dispatch names ${criticDispatch.workerId}, but the roster's critic is ${critic.workerId}`);
  }
  const criticResults = criticPath
    ? await readDocument(criticPath, { kind: 'critic-results', flag: '--critic-results', artifact: criticResultsArtifact })
    : undefined;
  const responses: WorkerResponse[] = [];
  for (const f of files)
    responses.push({ workerId: f.workerId, file: f.file, text: await readTextFile(f.path, { maxBytes: MAX_RESPONSE_BYTES, label: f.file }) });
  const batch = collectCriticGaps({
    state,
    stateFile: statePath,
    criticResults,
    criticDispatch: { status: criticDispatch.status, durationMs: criticDispatch.durationMs },
    responses,
    dispatches,
    models,
  });
  await writeArtifact(outputPath, coverageBatchArtifact, batch);
  writeJson(ctx.io, {
    output: outputPath,
    criticStatus: criticDispatch.status,
    gaps: batch.gaps.length,
    workers: batch.dispatches.map((d) => ({ workerId: d.workerId, status: d.status, durationMs: d.durationMs })),
  });
  note(
    ctx,
    `coverage batch: critic ${criticDispatch.status}, ${batch.gaps.length} gap(s), ${batch.dispatches.map((d) => `${d.workerId} ${d.status}`).join(', ') || 'no analyser dispatched'}`,
  );
  return 0;
}
