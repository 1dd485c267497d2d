import { existsSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { ExitCode, findOnPath, InputError, OkstraError, resourceCause, traceStep } from '@okstra/core';
import { resolveInsideRoot, toProjectRelative } from '@okstra/paths';
import {
  argvOf,
  assertProviderRole,
  buildLaunch,
  getProvider,
  launchValuesOf,
  livenessModeOf,
  loadProviderRegistry,
  resolveProviderExecutable,
  structuredAnswerOf,
} from '@okstra/providers';
import type { WorkerDispatch } from '@okstra/schemas/run-manifest';
import { readRegularFileSync, withFileLock, writeArtifact, writeBytesAtomic } from '@okstra/state-file';
import { teamJobArtifact } from '@okstra/schemas/team-job';
import { hasRetryLeft } from '@okstra/schemas/retry-budget';
import { isRetryable, isRetryKind, readTeamState, transitionWorkers } from '@okstra/team-state';
import { repairedDispatchKind } from '@okstra/schemas/vocabulary';
import { dispatchToCmux } from '../backends/cmux.js';
import type { TeamHost } from '../host.js';
import { startDetachedWrapper } from '../backends/subprocess.js';
import { dispatchToTmux } from '../backends/tmux-dispatch.js';
import { tmuxTextProblem } from '../backends/tmux.js';
import { runLockPath, teamJobPath } from '@okstra/paths';
import { loadRun, updateWorkerDispatches } from './run-context.js';
import { resolveDispatchJobs, type ResolvedJob } from './resolve-jobs.js';
import { startingLaunched } from './starting.js';
import { withRunLock } from '../run-lock.js';

/** What `team dispatch` takes (0.161.0 docs/cli.md team row; cmux adapter text); paths relative to the host's cwd. */
export interface DispatchOptions {
  projectRoot: string;
  runManifest: string;
  /** Only these worker ids (empty or absent: every job). */
  workers?: readonly string[];
  jobsFile?: string;
  dispatchKind?: string;
  dryRun?: boolean;
}

/** A dry run's plan: each job as it would start. */
export interface DispatchPlan {
  dryRun: true;
  dispatchKind: string;
  backend: 'cmux-pane' | 'tmux-pane';
  runManifest: string;
  jobs: Array<{
    workerId: string;
    provider: string;
    providerSource: string;
    role: string;
    title: string;
    model: string | null;
    promptPath: string;
    completionPaths: string[];
    jobPath: string;
    command: string[];
  }>;
}

/**
 * What a dispatch did: one record per job, in job order — started (no `phase`; a `subprocess` one with
 * `degradedFrom` ran as a detached wrapper because its pane backend failed), then `not-started` ones.
 */
export interface DispatchDone {
  dryRun?: undefined;
  dispatchKind: string;
  dispatched: WorkerDispatch[];
}

/**
 * `okstra-team dispatch`: validate every job (paths inside the root, provider
 * known and able to take the role) before touching anything; `--dry-run`
 * prints the plan and stops. Otherwise: write each job file, set every row
 * `in-progress` (+ `startedAt`) in one locked write BEFORE any pane starts,
 * start the panes (tmux, or cmux for `terminalBackend=cmux-pane`), degrade
 * what got no pane to a detached wrapper subprocess, and append one
 * `workerDispatches[]` record per job (locked). @returns the plan, or the records.
 */
export async function dispatchWorkers(opts: DispatchOptions, io: TeamHost): Promise<DispatchPlan | DispatchDone> {
  if (opts.dryRun) return decideAndLaunch(opts, io);
  // One dispatcher per run (docs/team.md "One dispatcher per run"): what to launch is decided and
  // launched under the run lock, from the manifest and team-state as they are once it is held.
  const run = await loadRun(io, opts.projectRoot, opts.runManifest);
  const lock = runLockPath(run.runDir, { taskType: run.manifest.taskType, seq: run.manifest.seq });
  return withRunLock(lock, io.now(), 'okstra-team dispatch', () => decideAndLaunch(opts, io));
}

async function decideAndLaunch(opts: DispatchOptions, io: TeamHost): Promise<DispatchPlan | DispatchDone> {
  const run = await loadRun(io, opts.projectRoot, opts.runManifest);
  const plan = await resolveDispatchJobs({ ...run, jobsFile: opts.jobsFile, dispatchKind: opts.dispatchKind, workers: opts.workers });
  const registry = await loadProviderRegistry(io.env.HOME, run.projectRoot);
  const source = plan.jobsFile ?? run.manifestPath;
  const missing: InputError[] = [];
  const launches = plan.jobs.map((job) => {
    // the role is the pane title: one tmux cannot show exactly is refused (known role labels never are)
    const titleProblem = tmuxTextProblem(job.role);
    if (titleProblem) throw new InputError(`role '${job.role}' ${titleProblem}`, { file: source, field: `${job.where}.role` });
    const provider = getProvider(registry, job.provider, { file: source, field: `${job.where}.provider` });
    assertProviderRole(provider.manifest, job.role, { file: source, field: `${job.where}.role` });
    // A vote round of a schema-capable provider binds its answer to a JSON Schema (docs/providers.md "Structured output").
    const structuredAnswer = structuredAnswerOf(provider.manifest, plan.dispatchKind, job.resultPath);
    const values = launchValuesOf({ ...job, projectRoot: run.projectRoot, answerKind: structuredAnswer?.kind ?? null });
    const launch = buildLaunch(provider, values, job.role);
    // A CLI that is not installed fails here, before any job file, row or pane (docs/providers.md).
    let file = launch.file;
    try {
      file = resolveProviderExecutable(launch.file, (name) => findOnPath(name, io.env), { file: source, field: `${job.where}.provider` });
    } catch (error) {
      // Every missing CLI is named in one refusal, not one per attempt.
      if (!(error instanceof InputError)) throw error;
      missing.push(error);
    }
    const usesLastMessage = argvOf(provider.manifest, job.role).some((w) => w.includes('{lastMessagePath}'));
    // The liveness rule (libs/providers livenessModeOf): heartbeat only when the prompt asks for it.
    const livenessMode = livenessModeOf({ auditSidecarPath: job.auditSidecarPath, promptText: readRegularFileSync(job.promptPath)?.toString('utf8') ?? '' });
    return { job, provider, livenessMode, lastMessagePath: usesLastMessage ? values.lastMessagePath : null, structuredAnswer, launch: { ...launch, file } };
  });
  if (missing.length > 0) {
    const [first, ...more] = missing;
    if (more.length === 0) throw first;
    const also = more.map((e) => `${e.message.replace(/^provider CLI /, '').replace(/ not found on PATH$/, '')} for ${e.field}`).join(', ');
    throw new InputError(`${first!.message} (also: ${also})`, { file: first!.file, field: first!.field });
  }
  await assertRetryBudget(run.teamStatePath, plan.dispatchKind, plan.jobs, source, run.manifest.workerDispatches);
  const neverLaunched = await assertNoUnrecordedStart(run, plan.jobs, source, io.env);
  assertNotDispatched(run.manifest.workerDispatches, plan.dispatchKind, plan.jobs, source);
  const backend: 'cmux-pane' | 'tmux-pane' = run.manifest.terminalBackend === 'cmux-pane' ? 'cmux-pane' : 'tmux-pane';
  const rel = (p: string) => toProjectRelative(run.projectRoot, p);
  const jobPaths = new Map<string, string>();
  for (const { job } of launches)
    jobPaths.set(job.workerId, teamJobPath(run.runDir, plan.dispatchKind, job.workerId, { taskType: run.manifest.taskType, seq: run.manifest.seq }));
  if (opts.dryRun) {
    return {
      dryRun: true,
      dispatchKind: plan.dispatchKind,
      backend,
      runManifest: rel(run.manifestPath),
      jobs: launches.map(({ job, provider, launch }) => ({
        workerId: job.workerId,
        provider: job.provider,
        providerSource: provider.source,
        role: job.role,
        title: job.role,
        model: job.model,
        promptPath: rel(job.promptPath),
        completionPaths: job.completionPaths.map(rel),
        jobPath: rel(jobPaths.get(job.workerId)!),
        command: [launch.file, ...launch.args],
      })),
    };
  }
  // Everything the dispatch needs is validated before its first write (docs/team.md "dispatch"): the
  // team-state too (when it exists), read by assertRetryBudget, so a bad one fails there and not after the job files.
  const now = io.now();
  const startedAt = now.toISOString();
  // A symlinked state/team-jobs leading out of the project is refused before anything is written.
  for (const p of jobPaths.values()) resolveInsideRoot(run.projectRoot, p, 'jobPath');
  // Independent files: written concurrently (each is fsynced), all before any row or pane changes. A dispatch
  // that ends with exit 2 (no worker started) puts them back as they were (docs/team.md "dispatch").
  const jobFiles = keepJobFiles([...jobPaths.values()]);
  await jobFiles.guard(() =>
    launches.map(({ job, provider, launch, lastMessagePath, structuredAnswer }) =>
      writeArtifact(jobPaths.get(job.workerId)!, teamJobArtifact, {
        schemaVersion: '1.0',
        dispatchKind: plan.dispatchKind,
        workerId: job.workerId,
        provider: job.provider,
        role: job.role,
        model: job.model,
        projectRoot: run.projectRoot,
        teamStatePath: run.teamStatePath,
        promptPath: job.promptPath,
        resultPath: job.resultPath,
        completionPaths: job.completionPaths,
        promptDelivery: provider.manifest.promptDelivery,
        command: launch,
        rowStartedAt: startedAt,
        capture: provider.manifest.capture,
        lastMessagePath,
        ...(structuredAnswer ? { structuredAnswer } : {}),
      }),
    ),
  );
  const step = (name: string) => traceStep(io.env, `${plan.dispatchKind} dispatch ${name}`);
  step('job-files');
  const records: WorkerDispatch[] = [];
  const base = (workerId: string) => {
    const job = plan.jobs.find((j) => j.workerId === workerId)!;
    return {
      dispatchKind: plan.dispatchKind,
      workerId,
      startedAt,
      promptPath: rel(job.promptPath),
      jobsFile: plan.jobsFile ? rel(plan.jobsFile) : null,
      jobPath: rel(jobPaths.get(workerId)!),
    };
  };
  // Record before act (docs/team.md "dispatch"): what is about to start is in the manifest before any
  // row or pane changes. A failure here changes nothing else: exit 2, no worker started.
  const ours = (r: WorkerDispatch) => r.phase !== undefined && r.startedAt === startedAt && r.dispatchKind === plan.dispatchKind && jobPaths.has(r.workerId);
  // A `starting` record of a dispatch that never launched its worker is replaced, not kept beside this one.
  const superseded = (r: WorkerDispatch) => r.phase === 'starting' && neverLaunched.some((n) => n.workerId === r.workerId && n.startedAt === r.startedAt);
  const manifestBefore = readRegularFileSync(run.manifestPath)!;
  await jobFiles.guard(() => [
    updateWorkerDispatches(run.manifestPath, (existing) => [
      ...existing.filter((r) => !superseded(r)),
      ...plan.jobs.map((j) => ({ ...base(j.workerId), backend, paneId: null, phase: 'starting' as const })),
    ]),
  ]);
  const manifestStarting = readRegularFileSync(run.manifestPath);
  step('starting-recorded');
  try {
    await transitionWorkers(
      run.teamStatePath,
      launches.map(({ job, livenessMode }) => {
        const rowPaths = {
          provider: job.provider,
          role: job.role,
          promptPath: rel(job.promptPath),
          resultPath: rel(job.resultPath),
          livenessMode,
          auditSidecarPath: job.auditSidecarPath ? rel(job.auditSidecarPath) : null,
        };
        return {
          workerId: job.workerId,
          status: 'in-progress' as const,
          model: job.model,
          now,
          dispatchKind: plan.dispatchKind,
          relaunchOf: neverLaunched.find((n) => n.workerId === job.workerId)?.startedAt,
          createRow: rowPaths,
          set: rowPaths,
        };
      }),
      { create: { taskKey: run.manifest.taskKey, taskType: run.manifest.taskType, seq: run.manifest.seq } },
    );
  } catch (error) {
    // No row changed and nothing started: the manifest goes back to its records before this dispatch, and the
    // job files with it (best effort — a full disk may refuse this too: then the records say `not-started`).
    const why = error instanceof OkstraError ? error.message : String(error);
    const undone = await putBack(run.manifestPath, manifestBefore, manifestStarting, (existing) => [...existing.filter((r) => !ours(r)), ...neverLaunched]);
    if (undone) jobFiles.restore();
    else
      await updateWorkerDispatches(run.manifestPath, (existing) =>
        existing.map((r) => (ours(r) ? { ...r, phase: 'not-started' as const, reason: `dispatch failed before starting it: ${why}` } : r)),
      ).catch(() => undefined);
    throw error;
  }
  step('rows-in-progress');
  const paneJobs = plan.jobs.map((job) => ({ workerId: job.workerId, title: job.role, jobPath: jobPaths.get(job.workerId)! }));
  const degraded: Array<{ workerId: string; reason: string }> = [];
  const notStarted: WorkerDispatch[] = [];
  try {
    if (backend === 'cmux-pane') {
      for (const p of await dispatchToCmux(paneJobs, io.env)) {
        if (!('reason' in p)) records.push({ ...base(p.workerId), backend, paneId: p.paneId, surfaceId: p.surfaceId, degradedFrom: null, reason: null });
        else degraded.push({ workerId: p.workerId, reason: p.reason });
      }
    } else {
      const ownership = { owner: run.owner, runTag: run.runTag, realRoot: run.realRoot, startedAt };
      for (const p of await dispatchToTmux(paneJobs, { env: io.env, ownership, dispatchKind: plan.dispatchKind })) {
        if (!('reason' in p)) {
          records.push({
            ...base(p.workerId),
            backend,
            paneId: p.paneId,
            tmuxSocket: p.socketPath,
            tmuxSession: p.session,
            sessionCreated: p.sessionCreated,
            degradedFrom: null,
            reason: null,
          });
        } else degraded.push({ workerId: p.workerId, reason: p.reason });
      }
    }
    for (const d of degraded) {
      try {
        const { pid, pidStartTime } = startDetachedWrapper(jobPaths.get(d.workerId)!, run.projectRoot, io.env);
        records.push({ ...base(d.workerId), backend: 'subprocess', paneId: null, pid, pidStartTime, degradedFrom: backend, reason: d.reason });
      } catch (error) {
        const reason = `no ${backend} (${d.reason}) and no detached wrapper (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
        notStarted.push({ ...base(d.workerId), backend: 'subprocess', paneId: null, phase: 'not-started', reason });
      }
    }
  } catch (error) {
    throw unrecorded(run.manifestPath, records, error);
  }
  step('started');
  const order = new Map(plan.jobs.map((j, i) => [j.workerId, i]));
  records.sort((a, b) => order.get(a.workerId)! - order.get(b.workerId)!);
  try {
    await updateWorkerDispatches(run.manifestPath, (existing) => [...existing.filter((r) => !ours(r)), ...records, ...notStarted]);
  } catch (error) {
    throw unrecorded(run.manifestPath, records, error);
  }
  step('recorded');
  if (notStarted.length > 0) {
    // Their rows say in-progress for a worker that never started: recorded as the launch failure it is.
    await transitionWorkers(
      run.teamStatePath,
      notStarted.map((r) => ({ workerId: r.workerId, status: 'error' as const, reason: `did-not-launch: ${r.reason}`, now: io.now(), ifStartedAt: startedAt })),
    );
  }
  return { dispatchKind: plan.dispatchKind, dispatched: [...records, ...notStarted] };
}

/**
 * Undo this dispatch's `starting` records after a failure that started nothing: the manifest's bytes
 * as they were before, when nobody wrote it since (`starting`: its bytes right after our write);
 * else `withoutOurs` of its records (another writer's change kept).
 * @returns false when the write failed too (a full disk): the records stay for the caller to mark.
 */
async function putBack(
  manifestPath: string,
  before: Buffer,
  starting: Buffer | null,
  withoutOurs: (r: WorkerDispatch[]) => WorkerDispatch[],
): Promise<boolean> {
  try {
    const exact = await withFileLock(manifestPath, async () => {
      if (!starting || !readRegularFileSync(manifestPath)?.equals(starting)) return false;
      writeBytesAtomic(manifestPath, before);
      return true;
    });
    if (!exact) await updateWorkerDispatches(manifestPath, withoutOurs);
    return true;
  } catch {
    return false;
  }
}

/**
 * The job files a dispatch is about to write, as they were before it: `guard(writes)` runs writes and,
 * when one fails, puts every job file back (a new one removed, a replaced one rewritten) before the
 * error goes on — a dispatch that exits 2 leaves no job file of its own (docs/team.md "dispatch").
 */
function keepJobFiles(paths: readonly string[]) {
  const before = new Map(paths.map((p) => [p, readRegularFileSync(p)] as const));
  // `state/team-jobs/` of a run's first dispatch is made by the first write: it goes again with its files.
  const newDirs = [...new Set(paths.map((p) => dirname(p)))].filter((d) => !existsSync(d));
  const restore = () => {
    for (const [p, bytes] of before) {
      try {
        if (bytes === null) rmSync(p, { force: true });
        else writeBytesAtomic(p, bytes);
      } catch {
        // best effort: a full disk may refuse the rewrite; the old file then stays as this dispatch left it
      }
    }
    for (const d of newDirs) {
      try {
        rmdirSync(d);
      } catch {
        // not empty (another dispatch's files) or gone: left as it is
      }
    }
  };
  return {
    restore,
    async guard(writes: () => Array<Promise<unknown>>): Promise<void> {
      const settled = await Promise.allSettled(writes());
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (!failed) return;
      restore();
      throw failed.reason;
    },
  };
}

/**
 * The error of a dispatch that started workers but could not finish recording
 * them: exit 1, never 2 — something runs. The manifest still holds the
 * `starting` records (with each job file and `startedAt`), which await judges
 * and teardown adopts as unrecorded dispatches; a second dispatch of these
 * workers is refused until then (docs/team.md "dispatch", exit codes).
 */
function unrecorded(manifestPath: string, started: readonly WorkerDispatch[], error: unknown): OkstraError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const why = error instanceof OkstraError ? error.message : (resourceCause(code) ?? code ?? String(error));
  const who = started.map((r) => r.workerId).join(', ') || 'possibly some';
  return new OkstraError('OKSTRA_DISPATCH_UNRECORDED', `started worker(s) ${who} but could not record them (${why}); the manifest says 'starting' for them`, {
    exitCode: ExitCode.JUDGEMENT,
    file: manifestPath,
    hint: 'run okstra-team await or teardown (they take the job files as the record); do not dispatch them again',
  });
}

/**
 * A worker whose newest record is `starting` may be running unrecorded (a dispatch killed or failed
 * after it set the rows): when that dispatch launched it (libs/team-run `startingLaunched`: its pane,
 * its wrapper process, its pid on the row or its status sidecar), dispatching it again would run two
 * copies. One that never launched (the row never took that `startedAt`, or took it and no trace of
 * the wrapper exists) is dispatched again, its `starting` record replaced.
 * @returns the `starting` records of workers of `jobs` that never launched.
 * @throws InputError (exit 2) naming the worker that may still run; nothing written.
 */
async function assertNoUnrecordedStart(
  run: Awaited<ReturnType<typeof loadRun>>,
  jobs: readonly ResolvedJob[],
  source: string,
  env: NodeJS.ProcessEnv,
): Promise<WorkerDispatch[]> {
  const rows = existsSync(run.teamStatePath) ? (await readTeamState(run.teamStatePath)).workers : [];
  const never: WorkerDispatch[] = [];
  for (const job of jobs) {
    const newest = run.manifest.workerDispatches.filter((r) => r.workerId === job.workerId).at(-1);
    if (newest?.phase !== 'starting') continue;
    const row = rows.find((w) => w.workerId === job.workerId);
    // A row that ended this dispatch (it launched and finished) leaves the record as it is.
    if (row?.startedAt === newest.startedAt && row.status !== 'in-progress') continue;
    if (!(await startingLaunched(run, newest, row, env))) {
      never.push(newest);
      continue;
    }
    throw new InputError(
      `worker '${job.workerId}' may still run from a dispatch at ${newest.startedAt} that did not finish recording it; run okstra-team await or teardown first`,
      { file: source, field: `${job.where}.workerId` },
    );
  }
  return never;
}

/**
 * One dispatch per worker and kind (docs/team.md "One dispatcher per run"): a worker with a record
 * of `dispatchKind` that started it (a pane, a subprocess — not `not-started`, and not a `starting`
 * record, which {@link assertNoUnrecordedStart} judges) is not dispatched as that kind again — a
 * second `dispatch` of one manifest (two terminals, a lead's command retried by its host) would run
 * every provider twice. A failed worker goes again as `<kind>-retry`, a refused answer as
 * `repair-<kind>`: those kinds keep their own rules (assertRetryBudget).
 * @throws InputError (exit 2) naming the job's `workerId`; nothing written.
 */
function assertNotDispatched(records: readonly WorkerDispatch[], dispatchKind: string, jobs: readonly ResolvedJob[], source: string): void {
  if (isRetryKind(dispatchKind) || repairedDispatchKind(dispatchKind) !== undefined) return;
  for (const job of jobs) {
    const started = records.find((r) => r.workerId === job.workerId && r.dispatchKind === dispatchKind && r.phase === undefined);
    if (!started) continue;
    throw new InputError(
      `worker '${job.workerId}' was already dispatched as '${dispatchKind}' at ${started.startedAt} (${started.backend}); a second dispatch would run it twice`,
      { file: source, field: `${job.where}.workerId`, hint: `a failed worker goes again as '${dispatchKind}-retry'; okstra-team await reports where it is` },
    );
  }
}

/**
 * The retry budget at dispatch (docs/team.md "Retry accounting"; the rule is
 * `@okstra/schemas` retry-budget.ts): a worker out of the run (its second
 * failure) is never dispatched again, and a retry kind (`<kind>-retry`) only
 * dispatches workers whose last dispatch failed with their one retry unspent;
 * a repair kind (`repair-<kind>`) is refused for a worker whose newest dispatch
 * is that repair already (one repair per worker per dispatch) — unless that repair's newest record is
 * an unfinished `starting` one (a killed dispatch): assertNoUnrecordedStart then relaunches it only if
 * it never launched, replacing the record, so it stays one repair. It is also dispatch's one read of an existing team-state before anything
 * is written: an invalid one is refused here (readTeamState).
 * @throws InputError (exit 2) naming the job's `workerId`, or for an invalid
 *   team-state; nothing written.
 */
async function assertRetryBudget(
  teamStatePath: string,
  dispatchKind: string,
  jobs: readonly ResolvedJob[],
  source: string,
  records: readonly WorkerDispatch[],
): Promise<void> {
  if (!existsSync(teamStatePath)) {
    if (isRetryKind(dispatchKind) && jobs[0])
      throw new InputError(`'${dispatchKind}' retries a failed dispatch, but the run has no team-state yet`, {
        file: source,
        field: `${jobs[0].where}.workerId`,
      });
    return;
  }
  const rows = (await readTeamState(teamStatePath)).workers;
  for (const job of jobs) {
    const row = rows.find((w) => w.workerId === job.workerId);
    const failures = row?.failures ?? 0;
    if (!hasRetryLeft(failures)) {
      throw new InputError(`worker '${job.workerId}' is out of the run: it failed ${failures} times (one retry per worker per run)`, {
        file: source,
        field: `${job.where}.workerId`,
      });
    }
    // At most one repair per worker per dispatch (docs/convergence.md "Repair dispatch"): a second one is refused.
    const newest = records.filter((r) => r.workerId === job.workerId).at(-1);
    const unfinished =
      newest?.phase === 'starting' && newest.dispatchKind === dispatchKind && !(row?.startedAt === newest.startedAt && row.status !== 'in-progress');
    if (repairedDispatchKind(dispatchKind) !== undefined && row?.dispatchKind === dispatchKind && !unfinished) {
      throw new InputError(`worker '${job.workerId}' already had its repair '${dispatchKind}' (one repair per worker per dispatch)`, {
        file: source,
        field: `${job.where}.workerId`,
      });
    }
    if (isRetryKind(dispatchKind) && !(row && isRetryable(row))) {
      throw new InputError(`'${dispatchKind}' is a retry, but worker '${job.workerId}' has no failed dispatch to retry (status ${row?.status ?? 'none'})`, {
        file: source,
        field: `${job.where}.workerId`,
      });
    }
  }
}
