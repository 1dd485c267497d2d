import type { WorkerDispatch } from '@okstra/schemas/run-manifest';
import {
  planTeardown,
  readTeamState,
  TORN_DOWN_WHILE_RUNNING,
  transitionWorkers,
  type TeardownItem,
  type TeardownPane,
  type TeardownProbe,
} from '@okstra/team-state';
import { runCmux } from '../backends/cmux.js';
import type { TeamHost } from '../host.js';
import { isGroupAlive, isWrapperAlive, stopGroup, stopProcess } from '../backends/subprocess.js';
import { fmt, listPanes, Tmux } from '../backends/tmux.js';
import { unrecordedDispatches } from '../await/unrecorded.js';
import { loadRun, startedDispatches, updateWorkerDispatches } from '../dispatch/run-context.js';
import { appendAll } from '@okstra/core';

/** What `team teardown` takes (0.161.0 docs/cli.md team row; `--force` docs/team.md); paths relative to the host's cwd. */
export interface TeardownOptions {
  projectRoot: string;
  runManifest: string;
  dryRun?: boolean;
  force?: boolean;
}

/** What a teardown closed (or would close), left running and skipped; anything `running` makes its exit 1. */
export interface TeardownResult {
  closed: TeardownEntry[];
  dryRun: boolean;
  running: TeardownEntry[];
  skipped: TeardownEntry[];
}

export interface TeardownEntry {
  workerId: string;
  dispatchKind: string;
  backend: string;
  paneId: string | null;
  reason?: string;
  running?: string;
  /** A provider group stopped because it outlived its wrapper (docs/team.md "teardown"). */
  orphan?: string;
}

/** The real machine behind the teardown policy: tmux servers and `/proc`. */
function realProbe(env: NodeJS.ProcessEnv): TeardownProbe {
  return {
    async listPanes(socket): Promise<TeardownPane[] | null> {
      const list = await listPanes(new Tmux(env, socket));
      return list.ok ? list.panes : null;
    },
    async defaultSocket() {
      return (await new Tmux(env).run(['display-message', '-p', fmt('#{socket_path}')])).stdout.trim() || null;
    },
    processAlive: isWrapperAlive,
    groupAlive: isGroupAlive,
  };
}

/**
 * `okstra-team teardown`: reclaim this checkout's, this run's, finished
 * panes (the rule is `planTeardown` in libs/team-state; docs/team.md
 * "teardown"). A worker still running (live wrapper or provider process
 * group) is left alone and listed in `running[]` — exit 1 — unless
 * `--force`, which stops it (its non-terminal row becomes `error`,
 * `torn down while running`, before any signal). A provider group that
 * outlived its wrapper is an orphan, not a running worker: it is stopped
 * without `--force` and listed in `closed[]` with `orphan`. Closed records
 * get `tornDownAt`, so a second teardown is a no-op; `--dry-run` changes
 * nothing.
 */
export async function teardownRun(opts: TeardownOptions, io: TeamHost): Promise<TeardownResult> {
  const run = await loadRun(io, opts.projectRoot, opts.runManifest);
  const state = await readTeamState(run.teamStatePath);
  const records = startedDispatches(run.manifest.workerDispatches);
  const unrecorded = await unrecordedDispatches(run.projectRoot, run.runDir, state.workers, records);
  const plan = await planTeardown({ owner: run.owner, records, unrecorded, rows: state.workers, force: Boolean(opts.force) }, realProbe(io.env));
  const entry = (r: WorkerDispatch, paneId: string | null, extra: Partial<TeardownEntry> = {}): TeardownEntry => ({
    workerId: r.workerId,
    dispatchKind: r.dispatchKind,
    backend: r.backend,
    paneId,
    ...extra,
  });
  const closed: TeardownEntry[] = [];
  const skipped: TeardownEntry[] = plan.skipped.map((s) => entry(s.record, s.record.paneId ?? null, { reason: s.reason }));
  const done = new Set<WorkerDispatch>(plan.skipped.filter((s) => s.done).map((s) => s.record));
  const adopted: WorkerDispatch[] = [];
  if (!opts.dryRun) {
    const forced = plan.act.filter((i) => i.markRow);
    if (forced.length > 0) {
      // Before any signal: the wrapper's own report of the kill (SIGHUP) then finds the row terminal and is dropped.
      await transitionWorkers(
        run.teamStatePath,
        forced.map((i) => ({ workerId: i.record.workerId, status: 'error' as const, reason: TORN_DOWN_WHILE_RUNNING, now: io.now(), ifStartedAt: i.markRow! })),
      );
    }
    for (const item of plan.act) {
      const failure = await reclaim(item, io.env);
      if (failure) skipped.push(entry(item.record, item.pane, { reason: failure }));
      else {
        closed.push(entry(item.record, item.pane, closedExtra(item)));
        if (item.adopted) adopted.push(item.record);
        else done.add(item.record);
      }
    }
    if (done.size > 0 || adopted.length > 0) {
      const at = io.now().toISOString();
      const key = (r: WorkerDispatch) => `${r.dispatchKind}\u0000${r.workerId}\u0000${r.startedAt}\u0000${r.paneId ?? ''}`;
      const doneKeys = new Set([...done].map(key));
      // An adopted pane's dispatch may have left its `starting` record: the adopted record takes its place.
      const same = (a: WorkerDispatch, r: WorkerDispatch) => a.workerId === r.workerId && a.dispatchKind === r.dispatchKind && a.startedAt === r.startedAt;
      await updateWorkerDispatches(run.manifestPath, (current) => {
        const placed = new Set<WorkerDispatch>();
        const next = current.map((r) => {
          const a = r.phase === 'starting' ? adopted.find((x) => !placed.has(x) && same(x, r)) : undefined;
          if (a) {
            placed.add(a);
            return { ...a, tornDownAt: at };
          }
          return doneKeys.has(key(r)) && !r.tornDownAt ? { ...r, tornDownAt: at } : r;
        });
        return [...next, ...adopted.filter((a) => !placed.has(a)).map((a) => ({ ...a, tornDownAt: at }))];
      });
    }
  } else {
    appendAll(
      closed,
      plan.act.map((i) => entry(i.record, i.pane, closedExtra(i))),
    );
  }
  const running = plan.running.map((i) => entry(i.record, i.pane, { running: i.running! }));
  return { closed, dryRun: Boolean(opts.dryRun), running, skipped };
}

/** What a closed entry says beyond its record: why a forced worker ran, or the orphan it stopped. */
function closedExtra(item: TeardownItem): Partial<TeardownEntry> {
  if (item.running) return { running: item.running };
  return item.orphan ? { orphan: item.orphan } : {};
}

/**
 * Carry out one planned item: close its pane (tmux kill-pane / cmux
 * close-surface), stop its wrapper when no pane does it, and stop its
 * provider's process group. @returns a failure reason, or null.
 */
async function reclaim(item: TeardownItem, env: NodeJS.ProcessEnv): Promise<string | null> {
  const r = item.record;
  if (item.pane && r.backend === 'tmux-pane') await new Tmux(env, r.tmuxSocket || null).run(['kill-pane', '-t', item.pane]);
  if (item.pane && r.backend === 'cmux-pane') {
    const res = await runCmux(env, ['close-surface', '--surface', item.pane]);
    if (!res.ok) return `cmux close-surface failed: ${res.stderr}`;
  }
  if (item.stopWrapper) await stopProcess(item.stopWrapper.pid, item.stopWrapper.startTime);
  if (item.killGroup && !(await stopGroup(item.killGroup.pid, item.killGroup.startTime))) {
    return `provider process group ${item.killGroup.pid} survived SIGKILL`;
  }
  return null;
}
