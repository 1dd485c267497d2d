import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkWorkerFiles, indexDirs } from '@okstra/audit-rules';
import { InputError, parseMinutes, traceStep, writeJson, type CliContext } from '@okstra/cli-kit';
import {
  convergenceFinalStatePath,
  runLockPath,
  convergenceWorkStatePath,
  criticResultsPath,
  coverageBatchPath,
  gapVoteJobsPath,
  reverifyJobsPath,
  roundPlanPath,
  roundResultsPath,
  toProjectRelative,
} from '@okstra/paths';
import { criticResultsArtifact, roundPlanArtifact, type WorkingState } from '@okstra/schemas/convergence';
import { readArtifact } from '@okstra/state-file';
import { readTeamState } from '@okstra/team-state';
import { loadRun, startingLaunched, takeRunLock, teamBinPath, type RunContext } from '@okstra/team-run';
import { awaitKind, dispatchJobs, teardown } from './team.js';
import { startProgress } from './progress.js';
import { runApplyCriticGaps } from '../apply-critic-gaps.js';
import { runApplyRound } from '../apply-round.js';
import { runCollectCriticGaps } from '../collect-critic-gaps.js';
import { runCollectResults } from '../collect-results.js';
import { readWorkingState } from '../documents.js';
import { runFinalize } from '../finalize.js';
import { runPlanRound } from '../plan-round.js';
import { runValidate } from '../validate.js';
import { criticOutcome } from './critic-outcome.js';
import { workerRoute } from '@okstra/schemas/worker-route';
import { writeGapVotePrompts, writeJobsFile, writeReverifyPrompts, type RunPlace, type WorkerFiles } from './round-files.js';
import { gapRepairsOf, repairRefused, repairsOf, resumeRepair, type RepairReport } from './repair.js';
import { callCommand } from './sub-command.js';

/** Flags of `okstra-convergence run` (docs/convergence.md "run"). */
export interface RunOptions {
  projectRoot: string;
  runManifest: string;
  untilTerminal?: boolean;
  rounds?: string;
  deadline?: string;
  json?: boolean;
  quiet?: boolean;
}

/** One worker of a round in `run`'s output. */
interface WorkerReport {
  workerId: string;
  status: string;
  durationMs: number;
  reason: string | null;
  /** This batch is the worker's one retry (plan `priorFailures` 1). */
  retry: boolean;
  /** Worker audit rule failures of its response (they make the outcome `error`). */
  audit: Array<{ rule: string; message: string }>;
  /** Why its response was refused by collect (recorded as `error`, no votes) — the repair dispatch's seam. */
  refused: string | null;
  usage: unknown;
}

interface RoundReport {
  round: number;
  dispatchKind: string;
  /** Workers dispatched by this invocation (a resumed round re-dispatches none that already started). */
  dispatched: string[];
  workers: WorkerReport[];
  /** Repair dispatches of refused responses and how each ended (docs/convergence.md "Repair dispatch"). */
  repairs: RepairReport[];
  counts: unknown;
  droppedWorkers: string[];
  deadlinePassed: boolean;
}

/**
 * `okstra-convergence run --project-root <dir> --run-manifest <p> [--until-terminal | --rounds <n>] [--deadline <min>]`
 * (docs/convergence.md "run"): the lead's convergence rounds as one command. Per round: plan-round,
 * render each worker's prompt, write the jobs file, dispatch (okstra team's code, every backend) the
 * planned workers not yet started this round, await them, check each response against the worker audit
 * rules, collect-results, tear the round's panes down, apply-round. `--until-terminal` repeats until the
 * queue is terminal (retry rounds included), then the critic's gap vote, finalize and validate.
 * Every step leaves its artifact before the next starts, so a killed run resumes where it stopped;
 * a run lock (pid + start time) refuses a second live `run` on the same working state.
 * @returns 0 when what was asked is reached, 1 when a round's deadline passed (state applied, resumable).
 * @throws InputError (exit 2) for bad input, a live run lock, or a step refusing its input.
 */
export async function runRun(opts: RunOptions, ctx: CliContext): Promise<number> {
  if (opts.untilTerminal && opts.rounds !== undefined) throw new InputError('--until-terminal and --rounds are exclusive', { field: '--rounds' });
  const maxRounds = opts.untilTerminal ? Infinity : opts.rounds === undefined ? 1 : positiveInt('--rounds', opts.rounds);
  if (opts.deadline !== undefined) parseMinutes('--deadline', opts.deadline);
  const team = await loadRun(ctx.io, opts.projectRoot, opts.runManifest);
  const place: RunPlace = { projectRoot: team.projectRoot, runDir: team.runDir, run: { taskType: team.manifest.taskType, seq: team.manifest.seq } };
  const statePath = convergenceWorkStatePath(place.runDir, place.run);
  if (!existsSync(statePath))
    throw new InputError('no working state: seed it first (okstra convergence seed)', { file: statePath, hint: 'prompts/lead/convergence-rounds.md §1' });
  await refuseNativeWorkers(team, statePath);
  if (!existsSync(teamBinPath())) throw new InputError(`okstra-team is not built or installed: its bin ${teamBinPath()} runs each worker's pane`);
  const release = await takeRunLock(runLockPath(place.runDir, place.run), ctx.io.now(), 'okstra convergence run');
  traceStep(ctx.io.env, 'lock');
  try {
    return await drive(opts, ctx, team, place, statePath, maxRounds);
  } finally {
    await release();
  }
}

async function drive(opts: RunOptions, ctx: CliContext, team: RunContext, place: RunPlace, statePath: string, maxRounds: number): Promise<number> {
  const rounds: RoundReport[] = [];
  const reporter = startProgress(ctx, opts.quiet);
  const progress = (line: string) => reporter.step(line);
  try {
    return await driveRounds(opts, ctx, team, place, statePath, maxRounds, rounds, progress);
  } finally {
    reporter.done();
  }
}

async function driveRounds(
  opts: RunOptions,
  ctx: CliContext,
  team: RunContext,
  place: RunPlace,
  statePath: string,
  maxRounds: number,
  rounds: RoundReport[],
  progress: (line: string) => void,
): Promise<number> {
  const step = (name: string) => traceStep(ctx.io.env, name);
  const d: Drive = { opts, ctx, team, place, statePath, progress, step };
  let queueTerminal = false;
  let deadlinePassed = false;
  while (rounds.length < maxRounds) {
    const report = await runOneRound(d);
    if (report === null) {
      queueTerminal = true;
      break;
    }
    rounds.push(report);
    if (report.deadlinePassed) {
      deadlinePassed = true;
      break;
    }
  }
  if (!queueTerminal) queueTerminal = (await readWorkingState(statePath)).derived.queueTerminal;
  let critic: unknown = null;
  let final: unknown = null;
  if (opts.untilTerminal && queueTerminal && !deadlinePassed) {
    critic = await criticGapVote(d);
    const finalPath = convergenceFinalStatePath(place.runDir, place.run);
    const f = await callCommand(ctx, runFinalize, { workState: statePath, output: finalPath });
    step('finalize');
    await callCommand(ctx, runValidate, { state: statePath, kind: 'working' as const });
    step('validate working');
    await callCommand(ctx, runValidate, { state: finalPath, kind: 'final' as const });
    step('validate final');
    final = { path: resolve(finalPath), rounds: f.json?.rounds, counts: f.json?.counts, validated: true };
    progress(`final state validated: ${toProjectRelative(place.projectRoot, finalPath)}`);
  }
  const state = await readWorkingState(statePath);
  writeJson(ctx.io, {
    workState: resolve(statePath),
    rounds,
    queueTerminal: state.derived.queueTerminal,
    critic,
    final,
    deadlinePassed,
  });
  return deadlinePassed ? 1 : 0;
}

/** A round's status counts as words (`2 pending, 9 agreed, 1 refuted`), the statuses with none left out. */
function countsLine(counts: Record<string, number> | undefined): string {
  const parts = Object.entries(counts ?? {}).filter(([, n]) => n > 0);
  return parts.length ? parts.map(([status, n]) => `${n} ${status}`).join(', ') : 'no findings';
}

/** What every step of one `run` invocation works with. */
interface Drive {
  opts: RunOptions;
  ctx: CliContext;
  team: RunContext;
  place: RunPlace;
  statePath: string;
  progress: (line: string) => void;
  /** Marks a step boundary for the crash-safety suite (libs/cli-kit `traceStep`; a no-op outside tests). */
  step: (name: string) => void;
}

/** One round, resumed where a previous run stopped; null when the queue is terminal (no plan). */
async function runOneRound(d: Drive): Promise<RoundReport | null> {
  const { opts, ctx, team, place, statePath, progress } = d;
  const before = await readWorkingState(statePath);
  const round = before.derived.round + 1;
  const planPath = roundPlanPath(place.runDir, round, place.run);
  const planned = await callCommand(ctx, runPlanRound, { workState: statePath, plan: planPath });
  const step = (name: string) => d.step(`r${round} ${name}`);
  step(planned.json?.queueTerminal ? 'plan-round terminal' : 'plan-round');
  if (planned.json?.queueTerminal) return null;
  const plan = await readArtifact(planPath, roundPlanArtifact);
  const dispatchKind = `reverify-r${plan.round}`;
  const files = await writeReverifyPrompts(place, before, plan);
  step('prompts');
  const workers = plan.batches.map((b, i) => ({ ...files[i]!, provider: b.provider, model: modelOf(team, before, b.workerId, b.provider) }));
  const jobsPath = reverifyJobsPath(place.runDir, plan.round, place.run);
  await writeJobsFile(place, jobsPath, dispatchKind, workers);
  step('jobs-file');
  const dispatched = await dispatchNotStarted(ctx, team, jobsPath, dispatchKind, workers);
  await resumeRepair(place, dispatchKind, (path, kind, ws) => dispatchNotStarted(ctx, team, path, kind, ws));
  step('dispatch');
  progress(
    `round ${plan.round}: ${plan.batches.map((b) => `${b.workerId} re-verifies ${b.findingIds.length} finding(s)${b.priorFailures ? ' (retry)' : ''}`).join(', ')}`,
  );
  const awaited = await awaitKind(ctx, team, opts.deadline, dispatchKind);
  step('await');
  const rows = new Map(awaited.map((w) => [w.workerId, w]));
  const reports: WorkerReport[] = [];
  for (const [i, b] of plan.batches.entries()) {
    const row = rows.get(b.workerId);
    const status: string = row?.status ?? 'error';
    const audit = status === 'completed' ? await auditCheck(files[i]!) : [];
    if (status === 'completed') step(`audit-check ${b.workerId}`);
    reports.push({
      workerId: b.workerId,
      status: audit.length > 0 ? 'error' : status,
      durationMs: row?.durationMs ?? 0,
      reason: audit.length > 0 ? `worker audit: ${audit.map((a) => a.rule).join(', ')}` : (row?.reason ?? null),
      retry: b.priorFailures > 0,
      audit,
      refused: null,
      usage: row?.usage ?? null,
    });
  }
  step('usage');
  const resultsPath = roundResultsPath(place.runDir, plan.round, place.run);
  const repair = () =>
    repairRefused(ctx, team, place, dispatchKind, opts.deadline, reports, (path, kind, ws) => dispatchNotStarted(ctx, team, path, kind, ws), step);
  await collect(ctx, team.projectRoot, planPath, plan.mode, resultsPath, reports, files, repair);
  const repairs = await repairsOf(resultsPath, reports);
  step('collect');
  await teardown(ctx, team);
  step('teardown');
  const applied = await callCommand(ctx, runApplyRound, { workState: statePath, plan: planPath, results: resultsPath });
  step('apply-round');
  progress(`round ${plan.round} applied: ${countsLine(applied.json?.counts)}`);
  return {
    round: plan.round,
    dispatchKind,
    dispatched,
    workers: reports,
    repairs,
    counts: applied.json?.counts ?? null,
    droppedWorkers: applied.json?.droppedWorkers ?? [],
    deadlinePassed: reports.some((r) => r.status === 'timeout' && /^deadline of /.test(r.reason ?? '')),
  };
}

/**
 * Dispatch the workers of this round's jobs file that have not started this round. A worker's newest
 * `workerDispatches[]` record of `dispatchKind` decides: a started one, or a `not-started` one (that
 * dispatch already recorded its launch failure on the row), is never dispatched again; a `starting`
 * one (a killed dispatch) is dispatched again only when it never launched its worker (libs/team-run
 * `startingLaunched`: dispatch then replaces that record), so a running worker is never started twice
 * and a recorded-but-never-started one is started exactly once. @returns the worker ids dispatched now.
 */
async function dispatchNotStarted(
  ctx: CliContext,
  team: RunContext,
  jobsPath: string,
  dispatchKind: string,
  workers: ReadonlyArray<{ workerId: string }>,
): Promise<string[]> {
  const run = await loadRun(ctx.io, team.projectRoot, team.manifestPath);
  const rows = existsSync(run.teamStatePath) ? (await readTeamState(run.teamStatePath)).workers : [];
  const todo: string[] = [];
  for (const { workerId } of workers) {
    const newest = run.manifest.workerDispatches.filter((d) => d.workerId === workerId && d.dispatchKind === dispatchKind).at(-1);
    const row = rows.find((r) => r.workerId === workerId);
    if (!newest) {
      // A row of this kind with no record at all is a dispatch from before records came first: it started.
      if (!(row && row.dispatchKind === dispatchKind && row.status !== 'pending')) todo.push(workerId);
    } else if (newest.phase === 'starting' && !(row?.startedAt === newest.startedAt && row.status !== 'in-progress')) {
      if (!(await startingLaunched(run, newest, row, ctx.io.env))) todo.push(workerId);
    }
  }
  if (todo.length > 0) await dispatchJobs(ctx, team, jobsPath, dispatchKind, todo);
  return todo;
}

/** The worker audit rules (libs/audit-rules `checkWorkerFiles`) on one round response, its sidecar and its prompt. */
async function auditCheck(files: WorkerFiles): Promise<Array<{ rule: string; message: string }>> {
  const index = await indexDirs([...new Set([files.resultPath, files.auditSidecarPath, files.promptPath].map((p) => p.slice(0, p.lastIndexOf('/'))))]);
  const failures = await checkWorkerFiles(
    { worker: files.workerId, resultFile: files.resultPath, sidecarFile: files.auditSidecarPath, promptFile: files.promptPath },
    index,
  );
  return failures.map((f) => ({ rule: f.rule, message: f.message }));
}

/**
 * collect-results `--repair` for the round. Refused responses first get their one repair
 * (`repair`: dispatch the repair jobs file collect wrote, await it; docs/convergence.md "Repair
 * dispatch"), then are collected again — a repair refused again or failed is `error` in the results.
 * A response still refused (no repair written) is recorded `error` with no votes (what
 * prompts/lead/convergence-rounds.md §2.4 tells a lead to do), so its findings take its one retry next round.
 */
async function collect(
  ctx: CliContext,
  projectRoot: string,
  planPath: string,
  mode: WorkingState['seed']['mode'],
  output: string,
  reports: WorkerReport[],
  files: readonly WorkerFiles[],
  repair: () => Promise<boolean>,
): Promise<void> {
  // Response paths project-relative, read from the project root: what a lead types (they are recorded as `resultPath`).
  const rel = (p: string) => toProjectRelative(projectRoot, p);
  const args = () => ({
    plan: planPath,
    mode,
    output,
    dispatch: reports.map((r) => `${r.workerId}=${r.status}:${r.durationMs}`),
    result: reports.filter((r) => r.status === 'completed').map((r) => `${r.workerId}=${rel(files.find((f) => f.workerId === r.workerId)!.resultPath)}`),
    repair: true,
  });
  let repaired = false;
  for (;;) {
    try {
      await callCommand(ctx, runCollectResults, args(), projectRoot);
      return;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      if (!repaired) {
        repaired = true;
        if (await repair()) continue;
      }
      const culprit = reports.find((r) => r.status === 'completed' && (error.message.includes(`'${r.workerId}'`) || mentions(error, files, r.workerId)));
      if (!culprit) throw error;
      culprit.status = 'error';
      culprit.refused = error.message;
      culprit.reason = `response refused: ${error.message}`;
    }
  }
}

function mentions(error: InputError, files: readonly WorkerFiles[], workerId: string): boolean {
  const f = files.find((x) => x.workerId === workerId);
  return !!f && (error.file === f.resultPath || error.message.includes(f.resultPath));
}

/**
 * The coverage critic's gap vote (prompts/lead/convergence-rounds.md §3), once the main queue is terminal
 * and the roster has a critic whose batch is not applied yet: each analyser still in the roster votes on
 * the critic's candidates (`gap-vote` dispatch), then collect-critic-gaps and apply-critic-gaps.
 */
async function criticGapVote(d: Drive): Promise<unknown> {
  const { opts, ctx, team, place, statePath, progress } = d;
  const step = (name: string) => d.step(`gap-vote ${name}`);
  const state = await readWorkingState(statePath);
  const critic = state.seed.roster.find((w) => w.role === 'critic');
  if (!critic || state.criticBatch !== null) return critic ? { applied: 'earlier' } : null;
  const criticPath = criticResultsPath(place.runDir, place.run);
  const outcome = await criticOutcome(place, critic.workerId);
  const hasResults = outcome.resultsPath !== undefined;
  const criticStatus = outcome.dispatch.slice(critic.workerId.length + 1, outcome.dispatch.lastIndexOf(':'));
  const candidates = hasResults ? (await readArtifact(criticPath, criticResultsArtifact)).candidates : [];
  const dropped = new Set(state.derived.workers.filter((w) => w.droppedInRound !== null).map((w) => w.workerId));
  const analysers = state.seed.roster.filter((w) => w.role === 'analyser' && !dropped.has(w.workerId));
  const reports: WorkerReport[] = [];
  if (candidates.length > 0 && analysers.length > 0) {
    const files = await writeGapVotePrompts(
      place,
      state.seed.mode,
      analysers.map((a) => a.workerId),
      candidates,
    );
    step('prompts');
    const workers = analysers.map((a, i) => ({ ...files[i]!, provider: a.provider, model: modelOf(team, state, a.workerId, a.provider) }));
    const jobsPath = gapVoteJobsPath(place.runDir, place.run);
    await writeJobsFile(place, jobsPath, 'gap-vote', workers);
    step('jobs-file');
    await dispatchNotStarted(ctx, team, jobsPath, 'gap-vote', workers);
    await resumeRepair(place, 'gap-vote', (path, kind, ws) => dispatchNotStarted(ctx, team, path, kind, ws));
    step('dispatch');
    progress(`critic gap vote: ${analysers.map((a) => a.workerId).join(', ')} on ${candidates.length} gap(s)`);
    const awaited = await awaitKind(ctx, team, opts.deadline, 'gap-vote');
    step('await');
    for (const a of analysers) {
      const row = awaited.find((w) => w.workerId === a.workerId);
      reports.push({
        workerId: a.workerId,
        status: row?.status ?? 'error',
        durationMs: row?.durationMs ?? 0,
        reason: row?.reason ?? null,
        retry: false,
        audit: [],
        refused: null,
        usage: row?.usage ?? null,
      });
    }
    step('usage');
    await teardown(ctx, team);
    step('teardown');
    const batchPath = coverageBatchPath(place.runDir, place.run);
    const args = () => ({
      workState: statePath,
      criticDispatch: outcome.dispatch,
      criticResults: criticPath,
      result: reports
        .filter((r) => r.status === 'completed')
        .map((r) => `${r.workerId}=${toProjectRelative(place.projectRoot, files.find((f) => f.workerId === r.workerId)!.resultPath)}`),
      dispatch: reports.map((r) => `${r.workerId}=${r.status}:${r.durationMs}`),
      model: [],
      output: batchPath,
      repair: true,
    });
    // A refused gap vote gets its one repair, as a round's answer does (docs/convergence.md "run");
    // the collect after it records a repair refused again or failed as error, so it never refuses twice.
    try {
      await callCommand(ctx, runCollectCriticGaps, args(), place.projectRoot);
    } catch (error) {
      const gapStep = (name: string) => d.step(`gap-${name}`);
      const dispatch = (path: string, kind: string, ws: ReadonlyArray<{ workerId: string }>) => dispatchNotStarted(ctx, team, path, kind, ws);
      if (!(error instanceof InputError) || !(await repairRefused(ctx, team, place, 'gap-vote', opts.deadline, reports, dispatch, gapStep))) throw error;
      await teardown(ctx, team);
      gapStep('repair teardown');
      await callCommand(ctx, runCollectCriticGaps, args(), place.projectRoot);
    }
    const repairs = await gapRepairsOf(batchPath, reports);
    step('collect-critic-gaps');
    const applied = await callCommand(ctx, runApplyCriticGaps, { workState: statePath, results: batchPath });
    step('apply-critic-gaps');
    return { critic: critic.workerId, criticStatus, gaps: candidates.length, workers: reports, repairs, decisions: applied.json };
  }
  const batchPath = coverageBatchPath(place.runDir, place.run);
  await callCommand(ctx, runCollectCriticGaps, {
    workState: statePath,
    criticDispatch: outcome.dispatch,
    criticResults: hasResults ? criticPath : undefined,
    result: [],
    dispatch: [],
    model: [],
    output: batchPath,
  });
  const applied = await callCommand(ctx, runApplyCriticGaps, { workState: statePath, results: batchPath });
  return { critic: critic.workerId, criticStatus, gaps: candidates.length, workers: [], repairs: [], decisions: applied.json };
}

/**
 * `run` dispatches every worker through `okstra team`; a roster worker the lead starts as its own native session
 * (libs/schemas `workerRoute` = `host`: `runner: native-session` outside cmux, a Claude Code lead's Claude rows)
 * must not be put in a pane through its CLI wrapper. Such a run's rounds are the host lead's
 * (prompts/lead/convergence-rounds.md §2, `render-prompts` for the mixed round).
 * @throws InputError (exit 2) naming the first such worker.
 */
async function refuseNativeWorkers(team: RunContext, statePath: string): Promise<void> {
  const rows = existsSync(team.teamStatePath) ? (await readTeamState(team.teamStatePath)).workers : [];
  for (const w of (await readWorkingState(statePath)).seed.roster) {
    const row = rows.find((r) => r.workerId === w.workerId) ?? { workerId: w.workerId, role: w.role };
    if (workerRoute(team.manifest, row) !== 'host') continue;
    throw new InputError(
      `worker '${w.workerId}' runs as the lead's own native session (its assignment's runner is native-session): okstra convergence run starts workers only through okstra team; run the rounds as prompts/lead/convergence-rounds.md §2 says (okstra convergence render-prompts for the round's mixed roster)`,
      { file: team.manifestPath, field: 'workerAssignments' },
    );
  }
}

/** The model execution value a worker is dispatched with: its run-manifest assignment, else the roster's, else its provider id. */
function modelOf(team: RunContext, state: WorkingState, workerId: string, provider: string): string {
  const a = team.manifest.workerAssignments.find((w: { workerId?: string | null; provider: string }) => (w.workerId ?? w.provider) === workerId);
  return a?.executionValue ?? state.seed.roster.find((w) => w.workerId === workerId)?.modelExecutionValue ?? provider;
}

function positiveInt(flag: string, raw: string): number {
  if (!/^[1-9][0-9]*$/.test(raw)) throw new InputError(`${flag} expects a positive whole number, got '${raw}'`, { field: flag });
  return Number(raw);
}
