import { spawn, spawnSync } from 'node:child_process';

/** Exit code, signal and output of one bin run. `code` is 128 when the bin was killed (no exit status). */
export interface BinResult {
  code: number;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runBin}. */
export interface RunBinOptions {
  cwd?: string;
  /** Exactly the bin's environment; default: this process's, with `OKSTRA_DEBUG` cleared (no stack traces). */
  env?: NodeJS.ProcessEnv;
  /** Text on the bin's stdin (sync runs only). */
  input?: string;
  /** Kill (SIGKILL) a bin still running after this many ms, so a hang fails its test instead of blocking the suite (default 120 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const defaultEnv = (): NodeJS.ProcessEnv => ({ ...process.env, OKSTRA_DEBUG: '' });

/** Run `node <bin> <args>` to completion: the one way tests run a built bin (docs/conventions.md "Tests"). */
export function runBin(bin: string, args: readonly string[], options: RunBinOptions = {}): BinResult {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    env: options.env ?? defaultEnv(),
    input: options.input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    killSignal: 'SIGKILL',
  });
  return { code: r.status ?? 128, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** {@link runBin} without blocking, for concurrency tests (stdin closed). */
export function runBinAsync(bin: string, args: readonly string[], options: Omit<RunBinOptions, 'input'> = {}): Promise<BinResult> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd, env: options.env ?? defaultEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? 128, signal, stdout, stderr });
    });
  });
}
