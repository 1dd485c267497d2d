import { execFile } from 'node:child_process';

/** Result of one tmux client invocation. */
export interface TmuxResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  missing: boolean;
}

/**
 * A tmux client bound to one server. The server is chosen, in order, by an
 * explicit socket path (recorded at dispatch, `-S`), `OKSTRA_TMUX_SOCKET`
 * (a socket name, `-L`: tests use a private server and never touch the
 * user's), or tmux's own default (`$TMUX` inside a session).
 */
export class Tmux {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly socketPath: string | null = null,
  ) {}

  /** The socket selection argv words. */
  socketArgs(): string[] {
    if (this.socketPath) return ['-S', this.socketPath];
    const name = this.env.OKSTRA_TMUX_SOCKET;
    return name ? ['-L', name] : [];
  }

  /** Run `tmux <socket> ...args` (argv, no shell). Never throws: `missing` when tmux is not on PATH. */
  run(args: string[]): Promise<TmuxResult> {
    return new Promise((resolvePromise) => {
      execFile('tmux', [...this.socketArgs(), ...args], { env: this.env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        resolvePromise({ ok: !error, stdout: stdout ?? '', stderr: (stderr ?? '').trim() || (error ? String(error.message) : ''), missing: code === 'ENOENT' });
      });
    });
  }
}

/** Join tmux commands into one invocation (`a ; b ; c`): they run in order inside the server, with no round trip between them. */
export function sequence(commands: string[][]): string[] {
  return commands.flatMap((c, i) => (i === 0 ? c : [';', ...c]));
}

/** One row of `list-panes -a` as okstra reads it. */
export interface PaneInfo {
  paneId: string;
  dead: boolean;
  deadStatus: number | null;
  deadSignal: number | null;
  tag: string;
  sessionId: string;
  sessionName: string;
  startCommand: string;
}

const PANE_FORMAT = '#{pane_id}\t#{pane_dead}\t#{pane_dead_status}\t#{@okstra-run}\t#{session_id}\t#{session_name}\t#{pane_dead_signal}\t#{pane_start_command}';

/** Every pane of the server (empty when there is no server). */
export async function listPanes(tmux: Tmux): Promise<{ ok: boolean; panes: PaneInfo[]; error: string }> {
  const r = await tmux.run(['list-panes', '-a', '-F', PANE_FORMAT]);
  if (!r.ok) return { ok: false, panes: [], error: r.stderr };
  const panes = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [paneId, dead, status, tag, sessionId, sessionName, signal, ...command] = line.split('\t');
      return {
        paneId: paneId!,
        dead: dead === '1',
        deadStatus: status ? Number(status) : null,
        deadSignal: signal ? Number(signal) : null,
        tag: tag ?? '',
        sessionId: sessionId ?? '',
        sessionName: sessionName ?? '',
        startCommand: command.join('\t'),
      };
    });
  return { ok: true, panes, error: '' };
}
