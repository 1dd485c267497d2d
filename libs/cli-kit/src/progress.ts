import type { Io, TextSink } from './io.js';

/** One human line per step of a long command, on stderr (docs/conventions.md "Progress"). */
export interface Progress {
  /** Report a step (`round 2: claude 4, codex 5`). The same line twice in a row is shown once. */
  step(line: string): void;
  /**
   * A transient status between steps (`claude 42s, heartbeat 3s ago`): on a terminal it replaces the live line;
   * elsewhere nothing (a log gets steps, not ticks).
   */
  status(line: string): void;
  /** End the reporting: a live line on a terminal is finished with a newline, so the shell prompt starts clean. */
  done(): void;
  /**
   * The command's stderr with the live line in mind: on a terminal, anything else written there first ends the
   * live line, so a warning never lands in the middle of it. Elsewhere the sink itself.
   */
  stderr: TextSink;
}

/**
 * The progress reporter every long command uses (convergence run, team dispatch/await, run-audit over many
 * runs): one line per step on stderr in every mode — on a terminal a live line rewritten in place
 * (`\r` + clear to end of line), elsewhere plain lines (a CI log, a background shell) — prefixed with the command
 * name; nothing at all with `quiet`. stdout is never touched: it stays data.
 */
export function createProgress(io: Pick<Io, 'stderr'>, name: string, opts: { quiet?: boolean } = {}): Progress {
  const sink = io.stderr;
  const tty = sink.isTTY === true;
  let live = false;
  let last: string | undefined;
  const endLive = () => {
    if (live) sink.write('\n');
    live = false;
  };
  return {
    step(line: string) {
      if (opts.quiet || line === last) return;
      last = line;
      const text = `${name}: ${oneLineOf(line)}`;
      if (tty) {
        sink.write(`\r\x1b[K${text}`);
        live = true;
      } else sink.write(`${text}\n`);
    },
    status(line: string) {
      if (opts.quiet || !tty) return;
      sink.write(`\r\x1b[K${name}: ${oneLineOf(line)}`);
      live = true;
    },
    done: endLive,
    stderr: tty
      ? {
          isTTY: true,
          write: (s: string) => {
            endLive();
            last = undefined;
            return sink.write(s);
          },
        }
      : sink,
  };
}

/** A step line never spans lines (a path or a reason with a newline would break the live line). */
function oneLineOf(line: string): string {
  return line.replace(/[\r\n]+/g, ' ');
}
