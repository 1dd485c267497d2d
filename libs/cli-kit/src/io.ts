import type { Readable } from 'node:stream';
import { basename, dirname } from 'node:path';
import { ExitCode, InputError, oneLine } from '@okstra/core';

/** Something text can be written to: `process.stdout`, or a buffer in tests. */
export interface TextSink {
  write(chunk: string): unknown;
  /** True when the sink is a terminal (progress lines are shown only then). */
  isTTY?: boolean;
}

/**
 * Everything a tool's `main(argv, io)` touches outside its arguments, so a
 * command can run in-process (the umbrella) or in a test without globals.
 * `now` returns the current time; tests inject a fixed clock. `sleep`, when
 * set, is how a command waits (ms): tests inject one that advances their clock,
 * so a wait such as worker-liveness's stall confirmation costs no real time.
 */
export interface Io {
  stdin: Readable;
  stdout: TextSink;
  stderr: TextSink;
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  /** Wait this many milliseconds (default: a real timer). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The real process's io. A closed stdout (EPIPE: the reader, e.g. `head -1`,
 * went away) ends output quietly: later writes are dropped, no stack trace,
 * the command finishes its work, and a 0 or 1 exit becomes
 * {@link ExitCode.STDOUT_CLOSED} (141). Any other failed write to stdout
 * (`> /dev/full`: ENOSPC, EIO) is one stderr line and exit 2 (a 70 is kept):
 * the output is incomplete, so neither 0 nor 1 may be claimed. A closed
 * stderr is ignored.
 */
export function processIo(): Io {
  guardClosedPipes();
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    // Read when a command needs it, inside runCli: `--help` and `--version` work in a removed
    // directory, and a command that needs it gets one line and exit 2, never uv_cwd's stack trace.
    get cwd() {
      return workingDirectory();
    },
    env: process.env,
    now: () => new Date(),
  };
}

/**
 * `process.cwd()`, or an {@link InputError} (exit 2) when the directory was
 * removed under the shell that sits in it (node throws ENOENT `uv_cwd`).
 */
function workingDirectory(): string {
  try {
    return process.cwd();
  } catch (error) {
    throw new InputError('the working directory no longer exists: cd to a directory that does, or give absolute paths', { cause: error });
  }
}

/** A buffered io for tests: `out()`/`err()` return what was written. */
export function memoryIo(overrides: Partial<Io> = {}): Io & { out(): string; err(): string } {
  let out = '';
  let err = '';
  return {
    stdin: overrides.stdin ?? (undefined as unknown as Readable),
    stdout: overrides.stdout ?? { write: (s: string) => ((out += s), true) },
    stderr: overrides.stderr ?? { write: (s: string) => ((err += s), true) },
    cwd: overrides.cwd ?? process.cwd(),
    env: overrides.env ?? {},
    now: overrides.now ?? (() => new Date()),
    ...(overrides.sleep ? { sleep: overrides.sleep } : {}),
    out: () => out,
    err: () => err,
  };
}

let guarded = false;

function guardClosedPipes(): void {
  if (guarded) return;
  guarded = true;
  let stdoutClosed = false;
  let stdoutFailed: NodeJS.ErrnoException | null = null;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') stdoutClosed = true;
    else stdoutFailed ??= error;
  });
  process.stderr.on('error', () => undefined);
  process.on('exit', (code) => {
    if (stdoutFailed && code !== ExitCode.INTERNAL) {
      process.stderr.write(`${toolName()}: stdout: cannot write the output (${oneLine(stdoutFailed.message)}); it is incomplete\n`);
      process.exitCode = ExitCode.INVALID;
    } else if (stdoutClosed && (code === ExitCode.OK || code === ExitCode.JUDGEMENT)) process.exitCode = ExitCode.STDOUT_CLOSED;
  });
}

/**
 * Read all of `io.stdin` as UTF-8 text (an input given as `-`).
 * @throws InputError (exit 2, file `-`) past `maxBytes`, when there is no stdin,
 *   or when stdin is a terminal (it would wait for typed input forever).
 */
export async function readStdinText(io: Pick<Io, 'stdin'>, maxBytes = 256 * 1024 * 1024): Promise<string> {
  if (!io.stdin) throw new InputError('no stdin to read', { file: '-' });
  // A terminal would wait for typed input forever (a tmux pane nobody types into): refuse at once.
  if ((io.stdin as { isTTY?: boolean }).isTTY)
    throw new InputError("'-' reads the document from stdin, but stdin is a terminal: pipe the document in (< file) or give its path", { file: '-' });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > maxBytes) throw new InputError(`stdin is larger than ${maxBytes} bytes`, { file: '-' });
    chunks.push(b);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new InputError('stdin is not valid UTF-8', { file: '-' });
  }
}

/** The bin as invoked: its link name (`okstra-run-audit`), or the package of a `<pkg>/dist/bin.js` run by path. */
function toolName(): string {
  const script = process.argv[1] ?? 'okstra';
  return basename(script) === 'bin.js' ? basename(dirname(dirname(script))) : basename(script);
}
