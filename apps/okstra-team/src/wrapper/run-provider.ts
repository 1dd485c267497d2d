import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, openSync } from 'node:fs';
import type { TextSink } from '@okstra/cli-kit';
import type { ProviderRunObservation } from '@okstra/team-state';

const STDERR_TAIL_BYTES = 4096;
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];

/** One provider CLI launch: argv (no shell), its cwd, and where the prompt and transcript go. */
export interface ProviderLaunch {
  file: string;
  args: string[];
  cwd: string;
  /** With `stdin` delivery the prompt file is the child's stdin (a file, read to EOF, never an open pipe). */
  promptPath: string;
  promptDelivery: 'stdin' | 'argument';
  /** The `.log` transcript: stdout and stderr are teed into it (truncated first). */
  logPath: string;
}

/**
 * Run a provider CLI and tee its stdout/stderr to `logPath` and to the
 * pane (`out`/`err`). stdin is the prompt file itself (delivery `stdin`) or
 * /dev/null, so the child sees EOF after the prompt. SIGTERM/SIGHUP/SIGINT
 * received by the wrapper are forwarded to the child.
 * @returns what the wrapper observed (never throws for a child failure).
 */
export async function runProvider(launch: ProviderLaunch, out: TextSink, err: TextSink): Promise<Omit<ProviderRunObservation, 'missingPaths'>> {
  const log = createWriteStream(launch.logPath, { flags: 'w' });
  const logOpen = new Promise<void>((res, rej) => { log.once('open', () => res()); log.once('error', rej); });
  await logOpen;
  let stdinFd: number | 'ignore' = 'ignore';
  if (launch.promptDelivery === 'stdin') {
    try {
      stdinFd = openSync(launch.promptPath, 'r');
    } catch (error) {
      await closeLog(log);
      return { exitCode: null, signal: null, sawOutput: false, stderrTail: '', spawnError: `cannot open prompt file ${launch.promptPath} (${(error as NodeJS.ErrnoException).code})` };
    }
  }
  let sawOutput = false;
  let stderrTail = '';
  const result = await new Promise<Omit<ProviderRunObservation, 'missingPaths'>>((resolvePromise) => {
    const child = spawn(launch.file, launch.args, { cwd: launch.cwd, stdio: [stdinFd, 'pipe', 'pipe'] });
    if (typeof stdinFd === 'number') closeSync(stdinFd);
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    FORWARDED_SIGNALS.forEach((s) => process.on(s, forward));
    let spawnError: string | null = null;
    child.on('error', (e: NodeJS.ErrnoException) => { spawnError = `${launch.file}: ${e.code ?? e.message}`; });
    child.stdout!.on('data', (chunk: Buffer) => { sawOutput = true; log.write(chunk); out.write(chunk.toString('utf8')); });
    child.stderr!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      err.write(chunk.toString('utf8'));
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    child.on('close', (code, signal) => {
      FORWARDED_SIGNALS.forEach((s) => process.off(s, forward));
      resolvePromise({ exitCode: spawnError ? null : code, signal: signal ?? null, sawOutput, stderrTail, spawnError });
    });
  });
  await closeLog(log);
  return result;
}

function closeLog(log: NodeJS.WritableStream & { close?: unknown }): Promise<void> {
  return new Promise((res) => log.end(() => res()));
}
