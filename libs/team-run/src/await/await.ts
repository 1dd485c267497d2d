import { setTimeout as delay } from 'node:timers/promises';
import { InputError, parseSeconds } from '@okstra/core';
import { probeWorkers } from '@okstra/heartbeat';
import type { WorkerDispatch } from '@okstra/schemas/run-manifest';
import { isRetryable, readTeamState, retryKindOf, roundOf, transitionWorkers, type WorkerTransition } from '@okstra/team-state';
import type { WorkerUsage } from '@okstra/schemas/worker-usage';
import { isWrapperAlive } from '../backends/subprocess.js';
import { listPanes, Tmux, type PaneInfo } from '../backends/tmux.js';
import type { TeamHost } from '../host.js';
import { workerDeadlineMs } from './deadline.js';
import { elapsed, endedFromArtifacts, readCurrentStatus, type Ended } from './judge.js';
import { latestDispatches, loadRun, startedDispatches } from '../dispatch/run-context.js';
import { unrecordedDispatches } from './unrecorded.js';
import { isTerminalWorkerStatus, repairDispatchKind } from '@okstra/schemas/vocabulary';
import { workerRoute } from '@okstra/schemas/worker-route';
import type { TeamStateRow } from '@okstra/schemas/team-state';

/** What `team await` takes (0.161.0 docs/cli.md team row); paths relative to the host's cwd. */
export interface AwaitOptions {
  projectRoot: string;
  runManifest: string;
  /** `--deadline`: the per-worker deadline in minutes (default: the task type's, `workerDeadlineMs`). */
  deadlineMinutes?: number;
  /** Judge only the workers whose newest dispatch is of this kind (or its `-retry`). */
  dispatchKind?: string;
  /** Called after each poll with where every judged worker stands (a CLI draws its progress line from it). */
  onPoll?: (progress: AwaitProgress) => void;
}

/** Where an await stands after one poll. */
export interface AwaitProgress {
  records: readonly WorkerDispatch[];
  ended: ReadonlyMap<string, Ended>;
  /** Each running worker's newest heartbeat (ISO time). */
  lastBeat: ReadonlyMap<string, string>;
  rows: ReadonlyArray<{ workerId: string; startedAt?: string | null }>;
  now: Date;
}

/** What an await found: `allCompleted` is its exit (0 when true, 1 otherwise). */
export interface AwaitResult {
  allCompleted: boolean;
  /** The round judged (`selectRound`). */
  round: string;
  judged: WorkerDispatch[];
  notJudged: WorkerDispatch[];
  workers: AwaitRow[];
}

/** One worker in await's output; `status`/`durationMs` are what `collect-results --dispatch` takes. */
export interface AwaitRow {
  workerId: string;
  dispatchKind: string;
  backend: string;
  status: string;
  durationMs: number;
  reason: string | null;
  attempt: number;
  retryable: boolean;
  /** What the provider reported about its run (the status sidecar's `usage`, libs/schemas WorkerUsage); null when unknown. */
  usage: WorkerUsage | null;
  /** The row's result path (project-relative, as recorded): what `collect-results --await` reads for a completed worker. */
  resultPath: string | null;
}

/** The backend await reports for a worker the lead started as its own session (no record, no pane). */
export const NATIVE_SESSION_BACKEND = 'native-session';

/**
 * `okstra-team await`: poll until every judged dispatch has ended
 * (docs/contracts.md §7): each worker's newest dispatch of the round just
 * dispatched, or of `--dispatch-kind` ({@link selectRound}); the JSON names
 * the dispatches judged. Each poll reads the artifacts (terminal rows, status
 * sidecars + completion paths), each tmux server's panes once
 * (`pane_dead`/`pane_dead_status`), the pid + start time of degraded
 * subprocesses, and runs ONE libs/heartbeat `probeWorkers` over the
 * still-running workers; `stalled` → timeout, `did-not-launch` → error, a
 * dead pane/process without a status sidecar → error, past the deadline →
 * timeout. await records those terminal transitions (one locked write per
 * poll) and never re-dispatches.
 */
export async function awaitWorkers(opts: AwaitOptions, io: TeamHost): Promise<AwaitResult> {
  const overrideMinutes = opts.deadlineMinutes;
  const run = await loadRun(io, opts.projectRoot, opts.runManifest);
  const recorded = latestDispatches(startedDispatches(run.manifest.workerDispatches));
  // Read once per poll: this first read also serves the first poll.
  let state = await readTeamState(run.teamStatePath);
  const unrecorded = await unrecordedDispatches(run.projectRoot, run.runDir, state.workers, recorded);
  const teamRecords = [...recorded.filter((r) => !unrecorded.some((u) => u.workerId === r.workerId)), ...unrecorded];
  const natives = nativeDispatches(run.manifest, state.workers, teamRecords);
  const newest = [...teamRecords.filter((r) => !natives.some((n) => n.workerId === r.workerId)), ...natives].sort((a, b) => (a.workerId < b.workerId ? -1 : 1));
  if (newest.length === 0)
    throw new InputError('no workerDispatches to await and no native worker recorded (run okstra team dispatch first)', {
      file: run.manifestPath,
      field: 'workerDispatches',
    });
  const round = selectRound(newest, opts.dispatchKind);
  const records = round.judged;
  if (records.length === 0) {
    throw new InputError(
      `no worker's newest dispatch is of kind '${opts.dispatchKind}' (newest: ${newest.map((r) => `${r.workerId}=${r.dispatchKind}`).join(', ')})`,
      {
        field: '--dispatch-kind',
      },
    );
  }
  const deadlineMs = workerDeadlineMs(run.manifest.taskType, overrideMinutes);
  const pollMs = Number(io.env.OKSTRA_TEAM_POLL_MS) > 0 ? Number(io.env.OKSTRA_TEAM_POLL_MS) : 2000;
  const probeOpts = livenessOptions(io.env);
  const ended = new Map<string, Ended>();
  const lastBeat = new Map<string, string>();
  for (;;) {
    const now = io.now();
    const rowOf = (id: string) => state.workers.find((w) => w.workerId === id);
    const pending = records.filter((r) => !ended.has(r.workerId));
    // Listed once per poll, and only when some worker's artifacts do not already say it ended: tmux
    // (and the child_process built-in behind it) costs a finished run's poll more than the rest.
    let panes: Promise<Map<string, Map<string, PaneInfo> | null>> | undefined;
    const panesNow = () => (panes ??= panesBySocket(pending, io.env));
    const toRecord: WorkerTransition[] = [];
    const probeThese: WorkerDispatch[] = [];
    for (const rec of pending) {
      const row = rowOf(rec.workerId);
      if (!row) throw new InputError(`no worker row '${rec.workerId}' for a recorded dispatch`, { file: run.teamStatePath, field: 'workers' });
      let end = await endedFromArtifacts(run.projectRoot, row, rec, now);
      if (!end) {
        const gone = processGone(rec, await panesNow());
        // The wrapper writes its sidecar before it exits: re-read so a worker that just finished is not called dead.
        if (gone)
          end = (await endedFromArtifacts(run.projectRoot, row, rec, now)) ?? {
            status: 'error',
            reason: gone,
            durationMs: elapsed(row.startedAt, now),
            record: true,
          };
        else if (elapsed(row.startedAt, now) > deadlineMs)
          end = { status: 'timeout', reason: `deadline of ${deadlineMs / 60_000} min exceeded`, durationMs: elapsed(row.startedAt, now), record: true };
        else probeThese.push(rec);
      }
      if (end) settle(rec, row.startedAt ?? undefined, end);
    }
    if (probeThese.length > 0) {
      const verdicts = await probeWorkers(
        probeThese.map((r) => ({ teamStatePath: run.teamStatePath, workerId: r.workerId })),
        { ...probeOpts, now: io.now },
      );
      for (const v of verdicts) {
        if (v.evidence.newestHeartbeatAt) lastBeat.set(v.workerId, v.evidence.newestHeartbeatAt);
        if (v.healthy) continue;
        const row = rowOf(v.workerId)!;
        const rec = probeThese.find((r) => r.workerId === v.workerId)!;
        const late = await readCurrentStatus(run.projectRoot, row);
        if (late) continue; // finished during the probe: judged from its sidecar next poll
        settle(
          rec,
          row.startedAt ?? undefined,
          v.verdict === 'stalled'
            ? { status: 'timeout', reason: `stalled: ${v.reason}`, durationMs: elapsed(row.startedAt, io.now()), record: true }
            : { status: 'error', reason: `did-not-launch: ${v.reason}`, durationMs: elapsed(row.startedAt, io.now()), record: true },
        );
      }
    }
    if (toRecord.length > 0) await transitionWorkers(run.teamStatePath, toRecord);
    opts.onPoll?.({ records, ended, lastBeat, rows: state.workers, now: io.now() });
    if (ended.size === records.length) break;
    await delay(pollMs);
    state = await readTeamState(run.teamStatePath);

    function settle(rec: WorkerDispatch, startedAt: string | undefined, end: Ended): void {
      ended.set(rec.workerId, end);
      if (end.record) toRecord.push({ workerId: rec.workerId, status: end.status, reason: end.reason, now: io.now(), ifStartedAt: startedAt });
    }
  }
  const finalState = await readTeamState(run.teamStatePath);
  const rows: AwaitRow[] = [];
  for (const rec of records) {
    const end = ended.get(rec.workerId)!;
    const row = finalState.workers.find((w) => w.workerId === rec.workerId)!;
    const status = isTerminalWorkerStatus(row.status) ? row.status : end.status;
    const usage = (await readCurrentStatus(run.projectRoot, row))?.usage ?? null;
    rows.push({
      workerId: rec.workerId,
      dispatchKind: rec.dispatchKind,
      backend: rec.backend,
      status,
      durationMs: end.durationMs,
      reason: status === end.status ? end.reason : (row.reason ?? null),
      attempt: row.attempt ?? 0,
      retryable: isRetryable({ status, failures: row.failures ?? 0 }),
      usage,
      resultPath: row.resultPath ?? null,
    });
  }
  return { allCompleted: rows.every((r) => r.status === 'completed'), round: round.round, judged: records, notJudged: round.others, workers: rows };
}

/**
 * The workers the lead started as its own native sessions (libs/schemas `workerRoute` = `host`: a Claude Code
 * lead's Claude rows, outside cmux), as await judges them beside the wrapper's: from the row the lead recorded
 * with `okstra worker-state transition` — its `dispatchKind` and `startedAt` stand in for a dispatch record,
 * its terminal status and `startedAt`→`endedAt` give the outcome, its audit sidecar's heartbeats the liveness.
 * A row never started, or one whose worker has a team record at least as new, is not one.
 */
function nativeDispatches(
  manifest: Parameters<typeof workerRoute>[0],
  rows: readonly TeamStateRow[],
  teamRecords: readonly WorkerDispatch[],
): WorkerDispatch[] {
  const out: WorkerDispatch[] = [];
  for (const row of rows) {
    if (!row.startedAt || row.status === 'pending' || workerRoute(manifest, row) !== 'host') continue;
    const rec = teamRecords.find((r) => r.workerId === row.workerId);
    if (rec && Date.parse(rec.startedAt) >= Date.parse(row.startedAt)) continue;
    // The record type's backend names where a pane lives; a native session has none (reported as `native-session`).
    out.push({
      dispatchKind: row.dispatchKind ?? 'initial',
      workerId: row.workerId,
      backend: NATIVE_SESSION_BACKEND as WorkerDispatch['backend'],
      startedAt: row.startedAt,
    });
  }
  return out;
}

/**
 * Which dispatches await judges (docs/team.md "await"): each worker's newest
 * dispatch, of one round only — the round (`roundOf`: a kind and its
 * `-retry`, and its repair `repair-<kind>`) of the newest dispatch of all, or with
 * `--dispatch-kind K` the workers whose newest dispatch is `K`, `K-retry` or
 * `repair-K` (a repair is judged with its kind's rules: docs/team.md "Dispatch
 * kinds"). A worker whose newest
 * dispatch belongs to another round is listed as not judged, never judged
 * from an older dispatch.
 */
export function selectRound(
  newest: readonly WorkerDispatch[],
  dispatchKind: string | undefined,
): { round: string; judged: WorkerDispatch[]; others: WorkerDispatch[] } {
  let matches: (kind: string) => boolean;
  let round: string;
  if (dispatchKind !== undefined) {
    round = dispatchKind;
    matches = (kind) => kind === dispatchKind || kind === retryKindOf(dispatchKind) || kind === repairDispatchKind(dispatchKind);
  } else {
    const last = [...newest].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt)).at(-1)!;
    round = roundOf(last.dispatchKind);
    matches = (kind) => roundOf(kind) === round;
  }
  return { round, judged: newest.filter((r) => matches(r.dispatchKind)), others: newest.filter((r) => !matches(r.dispatchKind)) };
}

/**
 * Liveness budget knobs (seconds) from the environment — for tests and slow hosts; defaults are libs/heartbeat's.
 * @throws UsageError (exit 2) naming the variable when a set knob is not decimal seconds (docs/team.md).
 */
function livenessOptions(env: NodeJS.ProcessEnv): { launchGraceS?: number; maxIdleS?: number; stallConfirmS?: number } {
  const num = (k: string) => (env[k] === undefined ? undefined : parseSeconds(k, env[k]));
  return {
    launchGraceS: num('OKSTRA_LIVENESS_LAUNCH_GRACE_S'),
    maxIdleS: num('OKSTRA_LIVENESS_MAX_IDLE_S'),
    stallConfirmS: num('OKSTRA_LIVENESS_STALL_CONFIRM_S'),
  };
}

/** One `list-panes -a` per tmux server the pending dispatches live on. */
async function panesBySocket(records: readonly WorkerDispatch[], env: NodeJS.ProcessEnv): Promise<Map<string, Map<string, PaneInfo> | null>> {
  const out = new Map<string, Map<string, PaneInfo> | null>();
  for (const rec of records) {
    if (rec.backend !== 'tmux-pane' || !rec.tmuxSocket || out.has(rec.tmuxSocket)) continue;
    const list = await listPanes(new Tmux(env, rec.tmuxSocket));
    out.set(rec.tmuxSocket, list.ok ? new Map(list.panes.map((p) => [p.paneId, p])) : null);
  }
  return out;
}

/** Why the wrapper can no longer write its sidecar (its pane died or vanished, its process is gone), or null. */
function processGone(rec: WorkerDispatch, panes: Map<string, Map<string, PaneInfo> | null>): string | null {
  if (rec.backend === 'tmux-pane' && rec.tmuxSocket && rec.paneId) {
    const server = panes.get(rec.tmuxSocket);
    const pane = server?.get(rec.paneId);
    if (server === null || server === undefined) return `tmux server ${rec.tmuxSocket} is gone and no status sidecar was written`;
    if (!pane) return `pane ${rec.paneId} is gone and no status sidecar was written`;
    if (pane.dead) {
      // tmux can show a pane dead before it has reaped the process, so neither may be known yet.
      const how = pane.deadSignal !== null ? ` (signal ${pane.deadSignal})` : pane.deadStatus !== null ? ` (status ${pane.deadStatus})` : '';
      return `pane ${rec.paneId} exited${how} without writing a status sidecar`;
    }
    return null;
  }
  if (rec.backend === 'subprocess' && rec.pid) {
    return isWrapperAlive(rec.pid, rec.pidStartTime) ? null : `wrapper process ${rec.pid} exited without writing a status sidecar`;
  }
  return null;
}
export { awaitEndedSteps, awaitStatusLine } from './status-line.js';
