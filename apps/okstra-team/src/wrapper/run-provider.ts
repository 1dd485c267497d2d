import { closeSync, createWriteStream, openSync, type WriteStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { TextSink } from '@okstra/cli-kit';
import type { ProviderRunObservation } from '@okstra/team-state';

const STDERR_TAIL_BYTES = 4096;
/** After the provider exits, how long its leftover children may keep its pipes open before they are killed. */
const DRAIN_AFTER_EXIT_MS = 2_000;
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];
/** How long the provider's own account says its model is unreachable before the wrapper stops it (issue 26.2; docs/team.md "exec"). */
export const UNREACHABLE_GRACE_MS = 20_000;
/** After SIGTERM, how long a stopped provider's group has before SIGKILL (execa `forceKillAfterDelay`). */
const FORCE_KILL_AFTER_MS = 5_000;

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
  /**
   * The capture's fail-fast reading ({@link Capture.unreachable} of
   * libs/providers): the provider's words while it says its model cannot be
   * reached, else null. When it stays non-null for `unreachableGraceMs`, the
   * provider's process group is stopped and the run ends with `stoppedFor`.
   */
  unreachable?: () => string | null;
  unreachableGraceMs?: number;
}

/** What the wrapper saw, plus why it stopped the provider itself (null when it did not). */
/** `logError`: the transcript stopped on a failed write (a full disk); the run itself went on. */
export type ProviderRun = Omit<ProviderRunObservation, 'missingPaths'> & { stoppedFor: string | null; logError?: Error };

/**
 * Run a provider CLI and tee its stdout/stderr to `logPath` (appended) and to the
 * pane (`out`/`err`). stdin is the prompt file itself (delivery `stdin`) or
 * /dev/null, so the child sees EOF after the prompt. The provider runs in
 * its own process group: SIGTERM/SIGHUP/SIGINT received by the wrapper (a
 * pane closed by teardown sends SIGHUP) go to that whole group, and children
 * the provider leaves behind when it exits are killed after a short drain, so
 * a wrapper never outlives its provider waiting on a grandchild's pipe.
 * The child runs through execa (loaded here only): `cleanup` ends it if the
 * wrapper dies, `forceKillAfterDelay` escalates a stop to SIGKILL, its error
 * object says why a launch never started. When `unreachable` reports the
 * model unreachable for `unreachableGraceMs` (default
 * {@link UNREACHABLE_GRACE_MS}), the group is stopped (SIGTERM, then SIGKILL)
 * and `stoppedFor` says why — the pane keeps the transcript until teardown.
 * @returns what the wrapper observed (never throws for a child failure).
 * @throws the open error of `logPath` (ENOSPC, EMFILE, …) before the child starts.
 */
export async function runProvider(launch: ProviderLaunch, out: TextSink, err: TextSink): Promise<ProviderRun> {
  const log = createWriteStream(launch.logPath, { flags: 'a' });
  const logOpen = new Promise<void>((res, rej) => {
    log.once('open', () => res());
    log.once('error', rej);
  });
  await logOpen;
  // A write of the transcript that fails mid-run (a full disk) stops the transcript, never the wrapper.
  let logError: Error | undefined;
  log.on('error', (e) => (logError ??= e));
  const toLog = (chunk: Buffer) => {
    if (!logError) log.write(chunk);
  };
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
        stoppedFor: null,
      };
    }
  }
  let sawOutput = false;
  let stderrTail = '';
  let stoppedFor: string | null = null;
  // execa is loaded here only: no other command pays its start-up.
  const { execa } = await import('execa');
  const child = execa(launch.file, launch.args, {
    cwd: launch.cwd,
    env: launch.env,
    extendEnv: false,
    // The prompt file itself (read to EOF, never an open pipe); opened above so a missing one is reported as such.
    stdin: typeof stdinFd === 'number' ? { file: launch.promptPath } : 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    // Its own process group (the provider leads it), so teardown and the signals below reach all of it.
    detached: true,
    // Never outlive the wrapper; a stopped group that ignores SIGTERM gets SIGKILL.
    cleanup: true,
    forceKillAfterDelay: FORCE_KILL_AFTER_MS,
    reject: false,
    buffer: false,
  });
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
  FORWARDED_SIGNALS.forEach((sig) => process.on(sig, forward));
  // Fail fast: the provider says its model cannot be reached, and keeps saying so for the grace period.
  let failingSince: number | null = null;
  const grace = launch.unreachableGraceMs ?? UNREACHABLE_GRACE_MS;
  const watch = launch.unreachable
    ? setInterval(
        () => {
          const said = launch.unreachable!();
          if (said === null || stoppedFor) return void (failingSince = said === null ? null : failingSince);
          failingSince ??= Date.now();
          if (Date.now() - failingSince < grace) return;
          stoppedFor = `model unreachable for ${Math.round(grace / 1000)} s: ${said}`;
          err.write(`\n[okstra] stopping the provider: ${stoppedFor}\n`);
          killGroup('SIGTERM');
          setTimeout(() => killGroup('SIGKILL'), FORCE_KILL_AFTER_MS).unref();
        },
        Math.min(1_000, grace),
      )
    : undefined;
  const lines = new LineSplitter(launch.onStdoutLine);
  child.stdout!.on('data', (chunk: Buffer) => {
    sawOutput = true;
    toLog(chunk);
    out.write(chunk.toString('utf8'));
    lines.push(chunk);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    toLog(chunk);
    err.write(chunk.toString('utf8'));
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  });
  // Leftover children may hold stdout/stderr open after the provider exits; give them a moment, then end them.
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  let drainTimer: NodeJS.Timeout | undefined;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    drainTimer = setTimeout(() => {
      killGroup('SIGKILL');
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, DRAIN_AFTER_EXIT_MS);
  });
  const done = await child;
  if (drainTimer) clearTimeout(drainTimer);
  if (watch) clearInterval(watch);
  FORWARDED_SIGNALS.forEach((sig) => process.off(sig, forward));
  lines.end();
  const end = exited as { code: number | null; signal: NodeJS.Signals | null } | null;
  // execa's error object says why a launch never ran (e.g. ENOENT): no exit event then.
  const spawnError = end === null && done.failed ? `${launch.file}: ${(done.cause as NodeJS.ErrnoException | undefined)?.code ?? done.shortMessage}` : null;
  const result: ProviderRun = {
    exitCode: spawnError ? null : (end?.code ?? done.exitCode ?? null),
    signal: end?.signal ?? (done.signal as NodeJS.Signals | undefined) ?? null,
    sawOutput,
    stderrTail,
    spawnError,
    stoppedFor,
  };
  await closeLog(log);
  return logError ? { ...result, logError } : result;
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

function closeLog(log: WriteStream): Promise<void> {
  if (log.destroyed) return Promise.resolve();
  return new Promise((res) => {
    log.once('close', () => res());
    log.end();
  });
}
