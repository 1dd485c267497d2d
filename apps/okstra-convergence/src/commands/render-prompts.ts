import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError, writeJson, type CliContext } from '@okstra/cli-kit';
import { convergenceWorkStatePath, criticResultsPath, gapVoteJobsPath, reverifyJobsPath, runManifestPath, teamStatePath } from '@okstra/paths';
import { criticResultsArtifact, roundPlanArtifact, type WorkingState } from '@okstra/schemas/convergence';
import { runManifestArtifact, type RunManifest } from '@okstra/schemas/run-manifest';
import { reverifyDispatchKind } from '@okstra/schemas/vocabulary';
import { workerRoute } from '@okstra/schemas/worker-route';
import { readArtifact } from '@okstra/state-file';
import { readTeamState } from '@okstra/team-state';
import { note, pathArg, readDocument, readWorkingState } from './documents.js';
import { placeOfPlan, placeOfWorkState, writeGapVotePrompts, writeJobsFile, writeReverifyPrompts, type RunPlace, type WorkerFiles } from './run/round-files.js';

/** One worker of a rendered round, as a host lead starts it. */
interface RenderedWorker {
  workerId: string;
  provider: string;
  model: string;
  /** `native-session`: the lead starts it itself and records its row; `cli-wrapper`: it is in the jobs file. */
  runner: 'native-session' | 'cli-wrapper';
  role: string;
  promptPath: string;
  resultPath: string;
  auditSidecarPath: string;
}

/**
 * `render-prompts (--plan <state/convergence-plan-r<N>-<type>-<seq>.json> | --gap-vote) [--work-state <p>]`: everything
 * one round of a host lead's mixed roster needs (docs/convergence.md "Reverify prompts"). Writes each worker's
 * prompt exactly as `run` dispatches it (`prompts/<worker>-prompt-reverify-r<N>-<type>-<seq>.md`, or with
 * `--gap-vote` each analyser's `prompts/<worker>-prompt-gap-vote-<type>-<seq>.md` over the critic's candidates),
 * and — when some of those workers run through their CLI wrapper (libs/schemas `workerRoute` = `team`) — the
 * round's jobs file holding only them (`state/reverify-jobs-r<N>-<type>-<seq>.json` or
 * `state/gap-vote-jobs-<type>-<seq>.json`). Prints `{ round, dispatchKind, role, jobsFile, prompts: [...] }`:
 * each worker's runner, role, model and prompt/result/sidecar paths (absolute), the values a native worker's
 * `okstra worker-state transition` record takes. The working state (default: the run's, beside the plan)
 * supplies the findings' text; it must be the state the plan was made from.
 * @throws InputError (exit 2): a plan outside a run's state/ directory, a terminal plan, a plan of another state,
 * `--gap-vote` before the critic wrote its candidates.
 */
export async function runRenderPrompts(opts: { plan?: string; gapVote?: boolean; workState?: string }, ctx: CliContext): Promise<number> {
  if ((opts.plan === undefined) === !opts.gapVote) throw new InputError('give --plan <round plan> or --gap-vote (one of them)', { field: '--plan' });
  if (opts.gapVote) {
    if (opts.workState === undefined) throw new InputError('--gap-vote needs --work-state', { field: '--work-state' });
    return renderGapVote(pathArg(ctx.io, opts.workState), ctx);
  }
  const planPath = pathArg(ctx.io, opts.plan!);
  const place = placeOfPlan(planPath);
  const statePath = opts.workState === undefined ? convergenceWorkStatePath(place.runDir, place.run) : pathArg(ctx.io, opts.workState);
  const plan = await readDocument(planPath, { kind: 'round-plan', flag: '--plan', artifact: roundPlanArtifact });
  if (plan.queueTerminal) throw new InputError('the plan says the queue is terminal: there is no prompt to render', { file: planPath, field: 'queueTerminal' });
  const state = await readWorkingState(statePath);
  if (state.seedDigest !== plan.seedDigest)
    throw new InputError('the plan was made from another working state (seedDigest differs)', { file: planPath, field: 'seedDigest' });
  const files = await writeReverifyPrompts(place, state, plan);
  const dispatchKind = reverifyDispatchKind(plan.round);
  const workers = await route(
    place,
    state,
    plan.batches.map((b, i) => ({ ...files[i]!, provider: b.provider })),
  );
  const jobsFile = await writeTeamJobs(place, reverifyJobsPath(place.runDir, plan.round, place.run), dispatchKind, workers);
  print(ctx, { round: plan.round, dispatchKind, role: `worker-${dispatchKind}`, jobsFile, workers });
  note(ctx, `round ${plan.round}: ${files.length} prompt(s) written${jobsFile ? `, jobs file ${jobsFile}` : ''}`);
  return 0;
}

async function renderGapVote(statePath: string, ctx: CliContext): Promise<number> {
  const place = placeOfWorkState(statePath);
  const state = await readWorkingState(statePath);
  if (!state.derived.queueTerminal) throw new InputError('the main queue is not terminal yet: the gap vote comes after it', { file: statePath });
  const critic = state.seed.roster.find((w) => w.role === 'critic');
  if (!critic) throw new InputError('the roster has no coverage critic: there is no gap vote', { file: statePath, field: 'seed.roster' });
  const criticPath = criticResultsPath(place.runDir, place.run);
  if (!existsSync(criticPath))
    throw new InputError(`the critic '${critic.workerId}' wrote no candidates: collect-critic-gaps records its outcome without a vote`, { file: criticPath });
  const candidates = (await readArtifact(criticPath, criticResultsArtifact)).candidates;
  const dropped = new Set(state.derived.workers.filter((w) => w.droppedInRound !== null).map((w) => w.workerId));
  const analysers = state.seed.roster.filter((w) => w.role === 'analyser' && !dropped.has(w.workerId));
  const files = await writeGapVotePrompts(
    place,
    state.seed.mode,
    analysers.map((a) => a.workerId),
    candidates,
  );
  const workers = await route(
    place,
    state,
    analysers.map((a, i) => ({ ...files[i]!, provider: a.provider })),
  );
  const jobsFile = await writeTeamJobs(place, gapVoteJobsPath(place.runDir, place.run), 'gap-vote', workers);
  print(ctx, { round: null, dispatchKind: 'gap-vote', role: 'worker-gap-vote', jobsFile, workers });
  note(ctx, `gap vote: ${files.length} prompt(s) over ${candidates.length} candidate(s)${jobsFile ? `, jobs file ${jobsFile}` : ''}`);
  return 0;
}

/** Each worker's runner (from the run manifest: libs/schemas `workerRoute`) and model (its assignment, else the roster's). */
async function route(place: RunPlace, state: WorkingState, files: ReadonlyArray<WorkerFiles & { provider: string }>): Promise<RenderedWorker[]> {
  const manifest = await readArtifact(runManifestPath(place.runDir, place.run), runManifestArtifact);
  const statePath = teamStatePath(place.runDir, place.run);
  const rows = existsSync(statePath) ? (await readTeamState(statePath)).workers : [];
  return files.map((f) => {
    const row = rows.find((r) => r.workerId === f.workerId) ?? { workerId: f.workerId, role: 'analyser' };
    const host = workerRoute(manifest, row) === 'host';
    return {
      workerId: f.workerId,
      provider: f.provider,
      model: modelOf(manifest, state, f.workerId, f.provider),
      runner: host ? 'native-session' : 'cli-wrapper',
      role: row.role,
      promptPath: f.promptPath,
      resultPath: f.resultPath,
      auditSidecarPath: f.auditSidecarPath,
    };
  });
}

/** Write the jobs file of the round's CLI-wrapper workers; null (nothing written) when every worker is native. */
async function writeTeamJobs(place: RunPlace, path: string, dispatchKind: string, workers: readonly RenderedWorker[]): Promise<string | null> {
  const team = workers.filter((w) => w.runner === 'cli-wrapper');
  if (team.length === 0) return null;
  await writeJobsFile(place, path, dispatchKind, team);
  return resolve(path);
}

function print(ctx: CliContext, doc: { round: number | null; dispatchKind: string; role: string; jobsFile: string | null; workers: RenderedWorker[] }): void {
  // stdout paths are absolute, as every tool's are (README); the prompts themselves name project-relative paths.
  const { workers, ...head } = doc;
  writeJson(ctx.io, {
    ...head,
    prompts: workers.map((w) => ({
      ...w,
      promptPath: resolve(w.promptPath),
      resultPath: resolve(w.resultPath),
      auditSidecarPath: resolve(w.auditSidecarPath),
    })),
  });
}

/** The model execution value of a worker: its run-manifest assignment, else the roster's, else its provider id. */
function modelOf(manifest: RunManifest, state: WorkingState, workerId: string, provider: string): string {
  const a = manifest.workerAssignments.find((w) => (w.workerId ?? w.provider) === workerId);
  return a?.executionValue ?? state.seed.roster.find((w) => w.workerId === workerId)?.modelExecutionValue ?? provider;
}
