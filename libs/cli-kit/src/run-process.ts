import { childProcess } from '@okstra/core';

/** The outcome of {@link runProcess}. Never a rejection: every failure is a field. */
export interface ProcessResult {
  /** The exit code, or null when the process was ended by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended the process, or null. */
  signal: NodeJS.Signals | null;
  /** True when the executable was not found (`ENOENT` at spawn). */
  notFound: boolean;
  /** Set when the process could not be started for another reason (EACCES, …). */
  spawnError: string | null;
  /** UTF-8 stdout with one final newline removed. */
  stdout: string;
  /** UTF-8 stderr with one final newline removed. */
  stderr: string;
}

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  /** The child's whole environment (nothing of this process's is added), so `PATH` decides which executable runs. */
  env: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed (default: empty, closed at once). */
  input?: string;
  cwd?: string;
}

/**
 * Run `file` with an argv array — never through a shell, so no argument is
 * ever interpreted — collecting its output. The one subprocess runner for
 * tools that call another CLI and wait for it (`gh`); it loads nothing but
 * node:child_process, which keeps start-up cheap (docs/release.md "Bundled
 * bins"). A child that exits before reading its stdin is not an error.
 * @returns the exit code or signal and both outputs; resolves even when the executable is missing.
 */
export function runProcess(file: string, args: readonly string[], opts: RunProcessOptions): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let settled = false;
    const finish = (r: Omit<ProcessResult, 'stdout' | 'stderr'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, stdout: text(out), stderr: text(err) });
    };
    const child = childProcess().spawn(file, [...args], { env: opts.env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    // EPIPE when the child exits without reading its input: its exit code tells the story.
    child.stdin.on('error', () => {});
    child.on('error', (e: NodeJS.ErrnoException) =>
      finish({ exitCode: null, signal: null, notFound: e.code === 'ENOENT', spawnError: e.code === 'ENOENT' ? null : e.message }),
    );
    child.on('close', (code, signal) => finish({ exitCode: code, signal, notFound: false, spawnError: null }));
    child.stdin.end(opts.input ?? '');
  });
}

function text(chunks: Buffer[]): string {
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
