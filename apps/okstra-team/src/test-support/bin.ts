// Run the built okstra-team bin as a real child process.
import { spawn, spawnSync } from 'node:child_process';

/** The built bin (tests run it as a real process: build first). */
export const BIN = new URL('../../dist/bin.js', import.meta.url).pathname;

/** Exit code, signal and output of one bin run. */
export interface BinResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Synchronous run of `okstra-team args`. */
export function team(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {}): BinResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: options.env ?? process.env, cwd: options.cwd, input: options.input });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Asynchronous run (for concurrency tests). */
export function teamAsync(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<BinResult> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: options.env ?? process.env, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}
