import { createHash, randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { chunkIntoWindows, DETACHED_SIZE, panesPerWindow } from '../dispatch/placement.js';
import { fmt, packInvocations, PANE_TAGS, Tmux, type TmuxCommand } from './tmux.js';
import { wrapperArgv } from './wrapper-argv.js';

/** A job to place in a tmux pane: the wrapper's job file, and the pane title (the role). */
export interface PaneJob {
  workerId: string;
  title: string;
  jobPath: string;
}

/** The ownership of every pane of one dispatch (docs/team.md "Ownership"): set as pane user options. */
export interface PaneOwnership {
  /** `@okstra-owner`: the hash of the project root's realpath and the run (matched by teardown). */
  owner: string;
  /** `@okstra-run`: the run, for people. */
  runTag: string;
  /** `@okstra-root`: the project root's realpath, for people. */
  realRoot: string;
  /** `@okstra-started`: the dispatch's `startedAt`. */
  startedAt: string;
}

/** Where one job ended up: a pane, or the reason there is none (the job then degrades). */
export type PanePlacement =
  | { workerId: string; paneId: string; session: string; sessionCreated: boolean; socketPath: string; windowName: string }
  | { workerId: string; paneId: null; reason: string };

/** Options of {@link dispatchToTmux}. */
export interface TmuxDispatchOptions {
  env: NodeJS.ProcessEnv;
  ownership: PaneOwnership;
  dispatchKind: string;
}

/** Name of the detached session okstra creates for a run of one checkout (one per owner tag, reused by later dispatches). */
export function detachedSessionName(owner: string): string {
  return `okstra-${createHash('sha256').update(owner).digest('hex').slice(0, 10)}`;
}

/**
 * Start each job's wrapper in its own tmux pane (okstra-team issue, dispatch):
 * inside the current session when `$TMUX` is set (new okstra windows, the
 * lead's window untouched), else in a detached session okstra creates with an
 * explicit size (or reuses for this run). okstra computes placement (windows
 * of at most {@link panesPerWindow} tiled panes), sets `remain-on-exit` on its
 * windows before any pane can exit, titles each pane with its role and tags
 * it with its {@link PaneOwnership}. A window's panes are created in as few tmux
 * invocations as fit tmux's message limit, tags and titles included (no waits between panes). A window that cannot be created
 * leaves its jobs unplaced with the reason (no tmux, no server, no space).
 */
export async function dispatchToTmux(jobs: readonly PaneJob[], opts: TmuxDispatchOptions): Promise<PanePlacement[]> {
  const tmux = new Tmux(opts.env);
  const fail = (reason: string) => jobs.map((j) => ({ workerId: j.workerId, paneId: null, reason }));
  const inside = Boolean(opts.env.TMUX && opts.env.TMUX_PANE);
  let sessionTarget: string;
  let sessionName: string;
  let size: { cols: number; rows: number };
  let createSession = false;
  if (inside) {
    const r = await tmux.run(['display-message', '-p', '-t', opts.env.TMUX_PANE!, fmt('#{session_id}\t#{session_name}\t#{window_width}\t#{window_height}')]);
    if (r.missing) return fail('tmux not found on PATH');
    if (!r.ok) return fail(`tmux: ${r.stderr}`);
    const [id, name, w, h] = r.stdout.trim().split('\t');
    sessionTarget = id!;
    sessionName = name!;
    size = { cols: Number(w), rows: Number(h) };
  } else {
    sessionName = detachedSessionName(opts.ownership.owner);
    const has = await tmux.run(['has-session', '-t', `=${sessionName}`]);
    if (has.missing) return fail('tmux not found on PATH');
    createSession = !has.ok;
    sessionTarget = `=${sessionName}`;
    size = DETACHED_SIZE;
  }
  const windows = chunkIntoWindows(jobs, Math.max(1, panesPerWindow(size.cols, size.rows)));
  const placements: PanePlacement[] = [];
  let socketPath = '';
  let ordinal = 0;
  const nonce = randomBytes(3).toString('hex');
  for (const win of windows) {
    // unique per dispatch: the window is targeted by name inside one invocation (two dispatches of one process must not collide)
    const windowName = `okstra-${opts.dispatchKind}-${++ordinal}-${process.pid}-${nonce}`;
    const created = await createWindow(tmux, win, { createSession, sessionName, sessionTarget, windowName, ownership: opts.ownership });
    if (!created.ok) {
      for (const j of win) placements.push({ workerId: j.workerId, paneId: null, reason: created.reason });
      continue;
    }
    if (createSession) {
      createSession = false;
      sessionTarget = `=${sessionName}`;
    }
    socketPath = created.socketPath || socketPath;
    win.forEach((job, i) => {
      const paneId = created.paneIds[i];
      placements.push(
        paneId
          ? { workerId: job.workerId, paneId, session: sessionName, sessionCreated: !inside, socketPath, windowName }
          : { workerId: job.workerId, paneId: null, reason: `tmux: ${created.reason || 'no space for new pane'}` },
      );
    });
  }
  return placements;
}

interface WindowSpec {
  createSession: boolean;
  sessionName: string;
  sessionTarget: string;
  windowName: string;
  ownership: PaneOwnership;
}

/**
 * The window (or the session) with the first pane, `remain-on-exit` and border
 * titles on that okstra window, then a split + `tiled` layout per further
 * pane. Each new pane is the window's active pane right after its creation,
 * so its `@okstra-run` tag and title are set in the same invocation (a pane
 * never exists untagged). The commands go to tmux in as few invocations as fit
 * its message limit ({@link packInvocations}: about 15 KiB, some 15 panes of a
 * deep project root), a pane's creation and tags never split between two. Prints
 * one pane id per created pane; a command that fails ends the sequence (the
 * remaining jobs get no pane, with tmux's reason).
 */
async function createWindow(
  tmux: Tmux,
  jobs: readonly PaneJob[],
  spec: WindowSpec,
): Promise<{ ok: true; paneIds: string[]; socketPath: string; reason: string } | { ok: false; reason: string }> {
  const win = spec.createSession ? `=${spec.sessionName}:=${spec.windowName}` : `${spec.sessionTarget}:=${spec.windowName}`;
  const first = spec.createSession
    ? [
        'new-session',
        '-d',
        '-s',
        spec.sessionName,
        '-n',
        spec.windowName,
        '-x',
        String(DETACHED_SIZE.cols),
        '-y',
        String(DETACHED_SIZE.rows),
        '-P',
        '-F',
        fmt('#{pane_id}'),
        '--',
        ...wrapperArgv(jobs[0]!.jobPath),
      ]
    : ['new-window', '-d', '-t', `${spec.sessionTarget}:`, '-n', spec.windowName, '-P', '-F', fmt('#{pane_id}'), '--', ...wrapperArgv(jobs[0]!.jobPath)];
  const o = spec.ownership;
  const own = (job: PaneJob): TmuxCommand[] => [
    ['set-option', '-p', '-t', win, PANE_TAGS.owner, o.owner],
    ['set-option', '-p', '-t', win, PANE_TAGS.run, o.runTag],
    ['set-option', '-p', '-t', win, PANE_TAGS.root, o.realRoot],
    ['set-option', '-p', '-t', win, PANE_TAGS.started, o.startedAt],
    ['set-option', '-p', '-t', win, PANE_TAGS.job, basename(job.jobPath)],
    ['select-pane', '-t', win, '-T', job.title],
  ];
  const groups: TmuxCommand[][] = [
    [
      first,
      ['set-option', '-w', '-t', win, 'remain-on-exit', 'on'],
      ['set-option', '-w', '-t', win, 'pane-border-status', 'top'],
      ['set-option', '-w', '-t', win, 'allow-rename', 'off'],
      ...own(jobs[0]!),
      ['display-message', '-p', '-t', win, fmt('socket=#{socket_path}')],
    ],
  ];
  for (const job of jobs.slice(1)) {
    groups.push([
      // no -d: the new pane becomes the active pane of okstra's window (never the user's current window)
      ['split-window', '-t', win, '-P', '-F', fmt('#{pane_id}'), '--', ...wrapperArgv(job.jobPath)],
      ...own(job),
      ['select-layout', '-t', win, 'tiled'],
    ]);
  }
  const paneIds: string[] = [];
  let socketPath = '';
  let reason = '';
  for (const commands of packInvocations(groups)) {
    const r = await tmux.run(...commands);
    if (r.missing) return { ok: false, reason: 'tmux not found on PATH' };
    for (const line of r.stdout.split('\n')) {
      const s = line.trim();
      if (/^%\d+$/.test(s)) paneIds.push(s);
      else if (s.startsWith('socket=')) socketPath = s.slice('socket='.length);
    }
    if (!r.ok) {
      reason = r.stderr;
      break;
    }
  }
  if (paneIds.length === 0) return { ok: false, reason: `tmux: ${reason || 'pane creation failed'}` };
  return { ok: true, paneIds, socketPath, reason };
}
