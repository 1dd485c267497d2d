import { closeSync, createWriteStream, openSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { childProcess, type TextSink } from '@okstra/cli-kit';
import type { ProviderRunObservation } from '@okstra/team-state';

const STDERR_TAIL_BYTES = 4096;
/** After the provider exits, how long its leftover children may keep its pipes open before they are killed. */
const DRAIN_AFTER_EXIT_MS = 2_000;
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];

/** One provider CLI launch: argv (no shell), its cwd, and where the prompt and transcript go. */
export interface ProviderLaunch {
  file: string;
  args: string[];
  /** The CLI's whole environment. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** With `stdin` delivery the prompt file is the child's stdin (a file, read to EOF, never an open pipe). */
  promptPath: string;
  promptDelivery: 'stdin' | 'argument';
  /** The `.log` transcript: stdout and stderr are appended to it (across dispatches of one prompt, as the seeds' `tee -a`). */
  logPath: string;
  /** Called once the child has a pid (it leads its own process group): the wrapper records it for teardown. */
  onSpawn?: (pid: number) => void;
  /** Called with each complete stdout line (and a last unterminated one at the end), for the provider capture. */
  onStdoutLine?: (line: string) => void;
}

/**
 * Run a provider CLI and tee its stdout/stderr to `logPath` (appended) and to the
 * pane (`out`/`err`). stdin is the prompt file itself (delivery `stdin`) or
 * /dev/null, so the child sees EOF after the prompt. The provider runs in
 * its own process group: SIGTERM/SIGHUP/SIGINT received by the wrapper (a
 * pane closed by teardown sends SIGHUP) go to that whole group, and children
 * the provider leaves behind when it exits are killed after a short drain, so
 * a wrapper never outlives its provider waiting on a grandchild's pipe.
 * @returns what the wrapper observed (never throws for a child failure).
 */
export async function runProvider(launch: ProviderLaunch, out: TextSink, err: TextSink): Promise<Omit<ProviderRunObservation, 'missingPaths'>> {
  const log = createWriteStream(launch.logPath, { flags: 'a' });
  const logOpen = new Promise<void>((res, rej) => {
    log.once('open', () => res());
    log.once('error', rej);
  });
  await logOpen;
  let stdinFd: number | 'ignore' = 'ignore';
  if (launch.promptDelivery === 'stdin') {
    try {
      stdinFd = openSync(launch.promptPath, 'r');
    } catch (error) {
      await closeLog(log);
      return {
        exitCode: null,
        signal: null,
        sawOutput: false,
        stderrTail: '',
        spawnError: `cannot open prompt file ${launch.promptPath} (${(error as NodeJS.ErrnoException).code})`,
      };
    }
  }
  let sawOutput = false;
  let stderrTail = '';
  const result = await new Promise<Omit<ProviderRunObservation, 'missingPaths'>>((resolvePromise) => {
    const child = childProcess().spawn(launch.file, launch.args, { cwd: launch.cwd, env: launch.env, stdio: [stdinFd, 'pipe', 'pipe'], detached: true });
    if (typeof stdinFd === 'number') closeSync(stdinFd);
    if (child.pid) launch.onSpawn?.(child.pid);
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // the group is already gone
      }
    };
    const forward = (signal: NodeJS.Signals) => killGroup(signal);
    FORWARDED_SIGNALS.forEach((s) => process.on(s, forward));
    let spawnError: string | null = null;
    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError = `${launch.file}: ${e.code ?? e.message}`;
    });
    const lines = new LineSplitter(launch.onStdoutLine);
    child.stdout!.on('data', (chunk: Buffer) => {
      sawOutput = true;
      log.write(chunk);
      out.write(chunk.toString('utf8'));
      lines.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      err.write(chunk.toString('utf8'));
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (drainTimer) clearTimeout(drainTimer);
      FORWARDED_SIGNALS.forEach((s) => process.off(s, forward));
      lines.end();
      resolvePromise({ exitCode: spawnError ? null : code, signal: signal ?? null, sawOutput, stderrTail, spawnError });
    };
    child.on('exit', (code, signal) => {
      // Leftover children may hold stdout/stderr open; give them a moment, then end them.
      drainTimer = setTimeout(() => {
        killGroup('SIGKILL');
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, signal);
      }, DRAIN_AFTER_EXIT_MS);
    });
    child.on('close', (code, signal) => finish(code, signal));
  });
  await closeLog(log);
  return result;
}

/** Splits a byte stream into UTF-8 lines for a line callback (a multi-byte character may span chunks). */
class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private rest = '';
  private ended = false;
  constructor(private readonly sink?: (line: string) => void) {}
  push(chunk: Buffer): void {
    if (!this.sink || this.ended) return;
    const parts = (this.rest + this.decoder.write(chunk)).split('\n');
    this.rest = parts.pop() ?? '';
    for (const line of parts) this.sink(line);
  }
  end(): void {
    if (!this.sink || this.ended) return;
    this.ended = true;
    const last = this.rest + this.decoder.end();
    if (last) this.sink(last);
  }
}

function closeLog(log: NodeJS.WritableStream & { close?: unknown }): Promise<void> {
  return new Promise((res) => log.end(() => res()));
}
