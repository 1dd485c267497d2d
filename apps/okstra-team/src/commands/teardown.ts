import { writeJson, type CliContext } from '@okstra/cli-kit';
import type { WorkerDispatch } from '@okstra/schemas/run-manifest';
import { runCmux } from '../backends/cmux.js';
import { listPanes, sequence, Tmux } from '../backends/tmux.js';
import { toProjectRelative } from '@okstra/paths';
import { readTeamState } from '@okstra/team-state';
import { unrecordedDispatches } from '../await/unrecorded.js';
import { loadRun, updateWorkerDispatches, type RunContext } from '../dispatch/run-context.js';

/** Flags of `team teardown` (0.161.0 docs/cli.md team row). */
export interface TeardownOptions {
  projectRoot: string;
  runManifest: string;
  dryRun?: boolean;
  json?: boolean;
}

interface Entry {
  workerId: string;
  dispatchKind: string;
  backend: string;
  paneId: string;
  reason?: string;
}

/**
 * `okstra-team teardown`: close only the panes recorded in this run's
 * `workerDispatches[]` — a tmux pane only when it still carries this run's
 * `@okstra-run` tag (so the lead's or the user's panes, or a recycled pane id,
 * are never touched); a cmux surface by its recorded id. A detached session
 * okstra created disappears with its last pane. Closed records get
 * `tornDownAt`, so a second teardown is a no-op. `--dry-run` lists what
 * would close and changes nothing. Exit 0.
 */
export async function runTeardown(opts: TeardownOptions, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const run = await loadRun(io.cwd, opts.projectRoot, opts.runManifest);
  const open = run.manifest.workerDispatches.filter((r) => (r.backend === 'tmux-pane' || r.backend === 'cmux-pane') && r.paneId && !r.tornDownAt);
  const close: Entry[] = [];
  const skipped: Entry[] = [];
  const entry = (r: WorkerDispatch, reason?: string): Entry => ({
    workerId: r.workerId,
    dispatchKind: r.dispatchKind,
    backend: r.backend,
    paneId: r.paneId!,
    ...(reason ? { reason } : {}),
  });
  const sockets = [...new Set(open.filter((r) => r.backend === 'tmux-pane').map((r) => r.tmuxSocket ?? ''))];
  const killBySocket = new Map<string, string[]>();
  for (const socket of sockets) {
    const tmux = new Tmux(io.env, socket || null);
    const list = await listPanes(tmux);
    const panes = new Map(list.panes.map((p) => [p.paneId, p]));
    for (const r of open.filter((x) => x.backend === 'tmux-pane' && (x.tmuxSocket ?? '') === socket)) {
      const pane = panes.get(r.paneId!);
      if (!pane) skipped.push(entry(r, 'pane already gone'));
      else if (pane.tag !== run.runTag) skipped.push(entry(r, 'pane is not tagged for this run'));
      else {
        close.push(entry(r));
        killBySocket.set(socket, [...(killBySocket.get(socket) ?? []), r.paneId!]);
      }
    }
  }
  const adopted = await adoptUnrecordedPanes(run, io.env);
  for (const a of adopted) {
    close.push(entry(a));
    killBySocket.set(a.tmuxSocket ?? '', [...(killBySocket.get(a.tmuxSocket ?? '') ?? []), a.paneId!]);
  }
  const cmuxRecords = open.filter((r) => r.backend === 'cmux-pane');
  close.push(...cmuxRecords.map((r) => entry(r)));
  if (!opts.dryRun) {
    for (const [socket, ids] of killBySocket) await new Tmux(io.env, socket || null).run(sequence(ids.map((id) => ['kill-pane', '-t', id])));
    for (const r of cmuxRecords) {
      const res = await runCmux(io.env, ['close-surface', '--surface', r.surfaceId ?? r.paneId!]);
      if (!res.ok) {
        close.splice(
          close.findIndex((c) => c.workerId === r.workerId && c.paneId === r.paneId),
          1,
        );
        skipped.push(entry(r, `cmux close-surface failed: ${res.stderr}`));
      }
    }
    const done = new Set(
      [...close, ...skipped.filter((s) => s.reason === 'pane already gone')].map((e) => `${e.dispatchKind}\u0000${e.workerId}\u0000${e.paneId}`),
    );
    if (done.size > 0) {
      const at = io.now().toISOString();
      await updateWorkerDispatches(run.manifestPath, (records) => [
        ...records.map((r) => (done.has(`${r.dispatchKind}\u0000${r.workerId}\u0000${r.paneId}`) && !r.tornDownAt ? { ...r, tornDownAt: at } : r)),
        ...adopted.map((a) => ({ ...a, tornDownAt: at })),
      ]);
    }
  }
  if (opts.json) writeJson(io, { closed: close, dryRun: Boolean(opts.dryRun), skipped });
  else {
    for (const c of close) io.stdout.write(`${opts.dryRun ? 'would close' : 'closed'}\t${c.workerId}\t${c.backend}\t${c.paneId}\n`);
    for (const s of skipped) io.stdout.write(`skipped\t${s.workerId}\t${s.backend}\t${s.paneId}\t${s.reason}\n`);
  }
  return 0;
}

/**
 * Panes of a dispatch that was killed before it appended `workerDispatches[]`:
 * the job file it wrote (with the row's `startedAt`) is the record, and the
 * pane is the one on the default server (`OKSTRA_TMUX_SOCKET` / `$TMUX`)
 * carrying this run's `@okstra-run` tag whose start command runs that job
 * file. Returned as records (with `reason`) that teardown appends, so a second
 * teardown finds them recorded and closed.
 */
async function adoptUnrecordedPanes(run: RunContext, env: NodeJS.ProcessEnv): Promise<WorkerDispatch[]> {
  const state = await readTeamState(run.teamStatePath);
  const unrecorded = await unrecordedDispatches(run.projectRoot, run.runDir, state.workers, run.manifest.workerDispatches);
  if (unrecorded.length === 0) return [];
  const tmux = new Tmux(env);
  const list = await listPanes(tmux);
  if (!list.ok) return [];
  const socket = (await tmux.run(['display-message', '-p', '#{socket_path}'])).stdout.trim() || null;
  const out: WorkerDispatch[] = [];
  for (const u of unrecorded) {
    const name = `/${u.jobPath!.split('/').pop()}`;
    for (const pane of list.panes.filter((p) => p.tag === run.runTag && p.startCommand.includes(name))) {
      out.push({
        ...u,
        backend: 'tmux-pane',
        paneId: pane.paneId,
        tmuxSocket: socket,
        tmuxSession: pane.sessionName,
        jobPath: u.jobPath ?? toProjectRelative(run.projectRoot, name),
        reason: 'recorded by teardown: the dispatch ended before recording this pane',
      });
    }
  }
  return out;
}
