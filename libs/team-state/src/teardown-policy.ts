import { createHash } from 'node:crypto';
import type { WorkerDispatch } from '@okstra/schemas/run-manifest';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { isTerminalWorkerStatus } from '@okstra/schemas/vocabulary';
import type { RecordedProcess } from './store.js';

/**
 * The ownership tag of every pane okstra starts (pane user option
 * `@okstra-owner`; docs/team.md "Ownership"): `okstra-` + the first 20 hex
 * digits of sha256(`<realpath of the project root>` NUL `<run tag>`). Two
 * checkouts of one project dispatching the same run get different tags, so
 * neither's teardown can reclaim the other's panes. `realRoot` must be the
 * realpath; `runTag` is `<taskKey>/<taskType>-<seq>[/stage-<N>]`.
 */
export function ownerTag(realRoot: string, runTag: string): string {
  return `okstra-${createHash('sha256').update(`${realRoot}\u0000${runTag}`).digest('hex').slice(0, 20)}`;
}

/** A tmux pane as the teardown policy sees it (its okstra pane options). */
export interface TeardownPane {
  paneId: string;
  dead: boolean;
  /** `@okstra-owner` */
  owner: string;
  /** `@okstra-job`: the job file's name. */
  job: string;
  /** `@okstra-started`: the dispatch's `startedAt`. */
  started: string;
  sessionName: string;
}

/**
 * What the policy asks of the machine — injected, so the policy is a
 * function: real tmux and `/proc` in okstra-team, fakes in unit tests.
 */
export interface TeardownProbe {
  /** Every pane of one tmux server (its socket path; null = the default server); null when that server cannot be reached. */
  listPanes(socket: string | null): Promise<TeardownPane[] | null>;
  /** The default server's socket path (recorded on adopted panes); null without a server. */
  defaultSocket(): Promise<string | null>;
  /** True when `pid` runs (a zombie does not) with that `/proc` start time (when one is given). */
  processAlive(pid: number, startTime: string | null | undefined): boolean;
  /** True when process group `pgid` still has a member and its leader is gone or still has `startTime` (a reused pid is not the group). */
  groupAlive(pgid: number, startTime: string | null | undefined): boolean;
}

/** The inputs: this checkout's ownership tag, the run's records, the job-file stand-ins of a killed dispatch, the team-state rows. */
export interface TeardownInput {
  owner: string;
  /** The run manifest's `workerDispatches[]`. */
  records: readonly WorkerDispatch[];
  /** Dispatches the manifest never recorded (a dispatch killed mid-way): their job files stand in (await/unrecorded.ts). */
  unrecorded: readonly WorkerDispatch[];
  rows: readonly TeamStateRow[];
  /** `--force`: stop running workers too. */
  force: boolean;
}

/** One dispatch teardown acts on (closes, stops, or leaves running). */
export interface TeardownItem {
  record: WorkerDispatch;
  /** True for a pane found through its job file (the dispatch never recorded it): teardown appends the record. */
  adopted: boolean;
  /** The tmux pane / cmux surface to close (null: nothing left to close). */
  pane: string | null;
  /** Why the worker counts as running (null when it has ended). */
  running: string | null;
  /** The wrapper process to stop (`--force`, no pane to close it through). */
  stopWrapper: RecordedProcess | null;
  /** The provider's process group to stop (its wrapper died, or `--force`). */
  killGroup: RecordedProcess | null;
  /** Why the provider group is an orphan (alive, its wrapper known dead): stopped without `--force`; null otherwise. */
  orphan: string | null;
  /** With `--force` on a non-terminal row: record it `error`, `torn down while running`, guarded by this `startedAt`. */
  markRow: string | null;
}

/** A record teardown leaves alone, and why. */
export interface TeardownSkip {
  record: WorkerDispatch;
  reason: string;
  /** True when the record is done with (its pane is gone): it gets `tornDownAt`. */
  done: boolean;
}

/** The plan: what to close/stop, what is left running (exit 1 unless `--force`), what is skipped. */
export interface TeardownPlan {
  act: TeardownItem[];
  running: TeardownItem[];
  skipped: TeardownSkip[];
}

/** Reason recorded on a row `--force` stops (docs/team.md "teardown"). */
export const TORN_DOWN_WHILE_RUNNING = 'torn down while running';

/**
 * Teardown's selection rule (docs/team.md "teardown"), as a function of the
 * run's records and what the probe sees:
 * - **ownership**: a tmux pane is this checkout's only while its
 *   `@okstra-owner` is `input.owner` (project-root realpath + run); any other
 *   pane — the lead's, the user's, another checkout's, a recycled id — is
 *   skipped untouched. A cmux surface is closed by its recorded id. A pane of
 *   an unrecorded dispatch is adopted only when owner, job file name and
 *   `startedAt` all match.
 * - **running**: a worker runs while its wrapper (live pane, recorded wrapper
 *   pid) or, its wrapper's fate unknown, its provider's process group is
 *   alive — whatever its row says. Such a worker is left alone (`running`)
 *   unless `force`; with `force` its pane is closed, its wrapper and provider
 *   group stopped, and a non-terminal row is recorded `error` / `torn down
 *   while running`.
 * - **orphaned**: a provider group still alive after its wrapper is known
 *   dead (its recorded wrapper pid, or its tmux pane, is dead) no longer
 *   works for the run — nothing will record its answer — so it is stopped
 *   without `force` (`orphan`), its pane closed; its row is not touched.
 * - **finished**: its pane is closed; nothing else is touched.
 * Records already `tornDownAt` are not looked at. Processes are checked by
 * pid + start time only; the row's recorded processes count only for the
 * dispatch whose `startedAt` is the row's.
 */
export async function planTeardown(input: TeardownInput, probe: TeardownProbe): Promise<TeardownPlan> {
  const plan: TeardownPlan = { act: [], running: [], skipped: [] };
  const open = input.records.filter((r) => !r.tornDownAt);
  const servers = new Map<string, Map<string, TeardownPane> | null>();
  const panesOf = async (socket: string | null) => {
    const key = socket ?? '';
    if (!servers.has(key)) {
      const list = await probe.listPanes(socket);
      servers.set(key, list ? new Map(list.map((p) => [p.paneId, p])) : null);
    }
    return servers.get(key)!;
  };
  const place = (item: TeardownItem) => (item.running && !input.force ? plan.running : plan.act).push(item);
  const decide = (record: WorkerDispatch, adopted: boolean, pane: TeardownPane | null) => place(judge(record, adopted, pane, input, probe));
  /** A record with no pane to close: acted on only while something of it is alive (running, or an orphan group). */
  const decideIfAlive = (record: WorkerDispatch): boolean => {
    const item = judge(record, false, null, input, probe);
    if (!item.running && !item.orphan) return false;
    place(item);
    return true;
  };
  for (const record of open) {
    if (record.backend === 'tmux-pane' && record.paneId) {
      const pane = (await panesOf(record.tmuxSocket ?? null))?.get(record.paneId) ?? null;
      if (pane && pane.owner !== input.owner) {
        plan.skipped.push({ record, reason: 'pane is not tagged for this run of this checkout', done: false });
        continue;
      }
      if (!pane) {
        if (!decideIfAlive(record)) plan.skipped.push({ record, reason: 'pane already gone', done: true });
        continue;
      }
      decide(record, false, pane);
    } else if (record.backend === 'cmux-pane' && (record.surfaceId || record.paneId)) {
      decide(record, false, null);
    } else {
      decideIfAlive(record);
    }
  }
  if (input.unrecorded.length > 0) {
    const socket = await probe.defaultSocket();
    const panes = [...((await panesOf(null))?.values() ?? [])];
    for (const u of input.unrecorded) {
      const name = u.jobPath?.split('/').pop() ?? '';
      for (const pane of panes.filter((p) => p.owner === input.owner && p.job === name && p.started === u.startedAt)) {
        const record: WorkerDispatch = {
          ...u,
          backend: 'tmux-pane',
          paneId: pane.paneId,
          tmuxSocket: socket,
          tmuxSession: pane.sessionName,
          reason: 'recorded by teardown: the dispatch ended before recording this pane',
        };
        decide(record, true, pane);
      }
    }
  }
  return plan;
}

/** One dispatch's item: what is alive, and (per `force`) what to stop. */
function judge(record: WorkerDispatch, adopted: boolean, pane: TeardownPane | null, input: TeardownInput, probe: TeardownProbe): TeardownItem {
  const row = input.rows.find((w) => w.workerId === record.workerId);
  const current = row && row.startedAt === record.startedAt ? row : null;
  const why: string[] = [];
  if (pane && !pane.dead) why.push(`its pane ${pane.paneId} still runs the wrapper`);
  let stopWrapper: RecordedProcess | null = null;
  const wrapper =
    record.backend === 'subprocess' && record.pid
      ? { pid: record.pid, startTime: record.pidStartTime ?? null }
      : current?.wrapperPid
        ? { pid: current.wrapperPid, startTime: current.wrapperPidStartTime ?? null }
        : null;
  const paneLive = Boolean(pane && !pane.dead);
  if (wrapper && !paneLive && probe.processAlive(wrapper.pid, wrapper.startTime)) {
    why.push(`its wrapper process ${wrapper.pid} is alive`);
    stopWrapper = wrapper;
  }
  // Known dead: its recorded pid is not alive, or (no pid) its pane's process has exited. A gone pane alone proves nothing.
  const wrapperDead = !paneLive && (wrapper ? !stopWrapper : pane?.dead === true);
  let killGroup: RecordedProcess | null = null;
  let orphan: string | null = null;
  if (current?.providerPgid && probe.groupAlive(current.providerPgid, current.providerPidStartTime)) {
    if (wrapperDead) orphan = `its provider process group ${current.providerPgid} outlived its wrapper`;
    else why.push(`its provider process group ${current.providerPgid} is alive`);
    killGroup = { pid: current.providerPgid, startTime: current.providerPidStartTime ?? null };
  }
  const running = why.length > 0 ? why.join('; ') : null;
  const closable = record.backend === 'cmux-pane' ? (record.surfaceId ?? record.paneId ?? null) : pane ? pane.paneId : null;
  return {
    record,
    adopted,
    pane: closable,
    running,
    stopWrapper: running ? stopWrapper : null,
    killGroup: running || orphan ? killGroup : null,
    orphan: running ? null : orphan,
    markRow: running && current && !isTerminalWorkerStatus(current.status) ? current.startedAt! : null,
  };
}
