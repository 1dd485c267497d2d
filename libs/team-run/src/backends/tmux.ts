import { childProcess } from '@okstra/core';
/** Result of one tmux client invocation. */
export interface TmuxResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  missing: boolean;
}

/**
 * A tmux format okstra itself wrote (`#{pane_id}`, `socket=#{socket_path}`):
 * the only kind of word passed to tmux unescaped. Build one with {@link fmt};
 * never from input.
 */
export class TmuxFormat {
  constructor(readonly text: string) {}
}

/** An okstra-written tmux format (see {@link TmuxFormat}). */
export function fmt(text: string): TmuxFormat {
  return new TmuxFormat(text);
}

/** One argv word of a tmux command: literal text (a string), or an okstra format. */
export type TmuxWord = string | TmuxFormat;
/** One tmux command (`['select-pane', '-t', id, '-T', title]`). */
export type TmuxCommand = readonly TmuxWord[];

/**
 * The flags whose value tmux 3.x format-expands (`#{…}` replaced, `#(…)`
 * RUN as a shell command), per command okstra sends. A string after one of
 * these gets every `#` doubled, so tmux shows it exactly as given. Every
 * other string is taken literally by tmux (option values without `-F`, the
 * pane's command argv, targets) and passed as is — doubling there would store
 * `##`. Formats (`-F`, `display-message`'s message) must be {@link fmt} words.
 */
const EXPANDED_FLAGS: Readonly<Record<string, readonly string[]>> = {
  'new-session': ['-s', '-n', '-c'],
  'new-window': ['-n', '-c'],
  'split-window': ['-c'],
  'select-pane': ['-T'],
  'rename-window': [],
};

/** Flags that take a format in every command (`-F` output format, `-f` filter). */
const FORMAT_FLAGS = ['-F', '-f'];
/** `display-message` flags that take a (literal) value; any other string of it is its message, a format. */
const DISPLAY_VALUE_FLAGS = ['-c', '-t', '-d'];

/**
 * Why `text` cannot be shown by tmux exactly as a title or name, or null:
 * tmux silently ignores a title with a control character, and keeps a style
 * sequence `#[…]` as `##[…]` (inert, but not read back as given).
 */
export function tmuxTextProblem(text: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'contains a control character (newline, tab, …), which tmux cannot show';
  if (text.includes('#[')) return "contains a tmux style sequence '#[', which tmux cannot show as typed";
  return null;
}

/**
 * THE escaping home for every word okstra passes to tmux (docs/team.md
 * "Nothing reaches a shell or a tmux format"):
 * - any string ending in `;` would end the tmux command there (tmux's own
 *   argument rule): a `\` goes before that last `;`, which tmux removes again;
 * - a string in a position tmux format-expands ({@link EXPANDED_FLAGS}) gets
 *   `#` → `##` (so `#(…)` never runs and `#{…}` is shown as typed) and its
 *   control characters replaced by `?` (dispatch refuses those earlier);
 * - a {@link TmuxFormat} is passed as okstra wrote it (`-F` formats, a
 *   `display-message` message); a plain string there is escaped like any
 *   other expanded position, so input can never become a format.
 * @returns the argv words of one command.
 */
export function tmuxArgv(command: TmuxCommand): string[] {
  const name = typeof command[0] === 'string' ? command[0] : '';
  const expanded = EXPANDED_FLAGS[name] ?? [];
  let afterDashDash = false;
  return command.map((word, i) => {
    if (word instanceof TmuxFormat) {
      return word.text;
    }
    if (word === '--' && i > 0 && !afterDashDash) {
      afterDashDash = true;
      return word;
    }
    const prev = command[i - 1];
    const prevFlag = typeof prev === 'string' ? prev : '';
    const message = name === 'display-message' && i > 0 && !word.startsWith('-') && !DISPLAY_VALUE_FLAGS.includes(prevFlag);
    let out = word;
    if (!afterDashDash && (expanded.includes(prevFlag) || FORMAT_FLAGS.includes(prevFlag) || message)) {
      // eslint-disable-next-line no-control-regex
      out = out.replace(/#/g, '##').replace(/[\u0000-\u001f\u007f]/g, '?');
    }
    return out.endsWith(';') ? `${out.slice(0, -1)}\\;` : out;
  });
}

/**
 * How many bytes one tmux client invocation may carry: the client packs its
 * argv (each word and its NUL) into one message of at most 16 KiB (tmux's
 * `MAX_IMSGSIZE`, header included) and refuses anything larger with
 * "command too long" before the server sees it. 1 KiB is left as margin.
 */
export const TMUX_INVOCATION_BYTES = 15_360;

/** The argv words of `commands` run in one invocation (`a ; b ; c`), each escaped by {@link tmuxArgv}. */
function invocationArgv(commands: readonly TmuxCommand[]): string[] {
  const argv: string[] = [];
  commands.forEach((c, i) => {
    if (i > 0) argv.push(';');
    for (const word of tmuxArgv(c)) argv.push(word);
  });
  return argv;
}

/** The size of `commands` as one invocation's packed argv (words + NULs, UTF-8 bytes): compare with {@link TMUX_INVOCATION_BYTES}. */
export function invocationBytes(commands: readonly TmuxCommand[]): number {
  let bytes = 0;
  for (const word of invocationArgv(commands)) bytes += Buffer.byteLength(word) + 1;
  return bytes;
}

/**
 * Pack consecutive groups of commands (a group must stay in one invocation:
 * a pane's creation and its tags) into as few invocations as fit
 * {@link TMUX_INVOCATION_BYTES}, in order. A group larger than the limit
 * alone is its own invocation (tmux then refuses it, and its caller reports that).
 */
export function packInvocations(groups: ReadonlyArray<readonly TmuxCommand[]>): TmuxCommand[][] {
  const out: TmuxCommand[][] = [];
  let current: TmuxCommand[] = [];
  let size = 0;
  for (const group of groups) {
    const bytes = invocationBytes(group) + 2; // the ';' joining it to the previous group
    if (current.length > 0 && size + bytes > TMUX_INVOCATION_BYTES) {
      out.push(current);
      current = [];
      size = 0;
    }
    for (const c of group) current.push(c);
    size += bytes;
  }
  if (current.length > 0) out.push(current);
  return out;
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

  /**
   * Run one or more tmux commands in ONE invocation (`a ; b ; c`: they run in
   * order inside the server, with no round trip between them). Every word goes
   * through {@link tmuxArgv}; argv, no shell. Never throws: `missing` when
   * tmux is not on PATH.
   */
  run(...commands: TmuxCommand[]): Promise<TmuxResult> {
    const argv = invocationArgv(commands);
    return new Promise((resolvePromise) => {
      childProcess().execFile(
        'tmux',
        [...this.socketArgs(), ...argv],
        { env: this.env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = (error as NodeJS.ErrnoException | null)?.code;
          resolvePromise({
            ok: !error,
            stdout: stdout ?? '',
            stderr: (stderr ?? '').trim() || (error ? String(error.message) : ''),
            missing: code === 'ENOENT',
          });
        },
      );
    });
  }
}

/** The pane user options okstra sets on each of its panes (docs/team.md "Ownership"). */
export const PANE_TAGS = {
  /** Matched by teardown: {@link ownerTag} of the project root's realpath and the run. */
  owner: '@okstra-owner',
  /** For people: the run (`<taskKey>/<taskType>-<seq>[/stage-<N>]`). */
  run: '@okstra-run',
  /** For people: the project root's realpath. */
  root: '@okstra-root',
  /** The job file's name (adoption of an unrecorded dispatch matches it). */
  job: '@okstra-job',
  /** The dispatch's `startedAt` (adoption matches it too). */
  started: '@okstra-started',
} as const;

/** One row of `list-panes -a` as okstra reads it. */
export interface PaneInfo {
  paneId: string;
  dead: boolean;
  deadStatus: number | null;
  deadSignal: number | null;
  /** `@okstra-run` */
  tag: string;
  /** `@okstra-owner` */
  owner: string;
  /** `@okstra-job` */
  job: string;
  /** `@okstra-started` */
  started: string;
  /** The pane's process (okstra's wrapper), null when unknown. */
  pid: number | null;
  sessionId: string;
  sessionName: string;
}

const PANE_FORMAT = fmt(
  [
    '#{pane_id}',
    '#{pane_dead}',
    '#{pane_dead_status}',
    `#{${PANE_TAGS.run}}`,
    '#{session_id}',
    '#{session_name}',
    '#{pane_dead_signal}',
    `#{${PANE_TAGS.owner}}`,
    `#{${PANE_TAGS.job}}`,
    `#{${PANE_TAGS.started}}`,
    '#{pane_pid}',
  ].join('\t'),
);

/** Every pane of the server (empty when there is no server). */
export async function listPanes(tmux: Tmux): Promise<{ ok: boolean; panes: PaneInfo[]; error: string }> {
  const r = await tmux.run(['list-panes', '-a', '-F', PANE_FORMAT]);
  if (!r.ok) return { ok: false, panes: [], error: r.stderr };
  const num = (s: string | undefined) => (s ? Number(s) : null);
  const panes = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [paneId, dead, status, tag, sessionId, sessionName, signal, owner, job, started, pid] = line.split('\t');
      return {
        paneId: paneId!,
        dead: dead === '1',
        deadStatus: num(status),
        deadSignal: num(signal),
        tag: tag ?? '',
        owner: owner ?? '',
        job: job ?? '',
        started: started ?? '',
        pid: num(pid),
        sessionId: sessionId ?? '',
        sessionName: sessionName ?? '',
      };
    });
  return { ok: true, panes, error: '' };
}
