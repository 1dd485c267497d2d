// Run the built okstra-team bin as a real child process.
import { runBin, runBinAsync, type BinResult } from '@okstra/core/test-support';

export type { BinResult };

/** The built bin (tests run it as a real process: build first). */
export const BIN = new URL('../../dist/bin.js', import.meta.url).pathname;

/** Synchronous run of `okstra-team args`. */
export function team(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {}): BinResult {
  return runBin(BIN, args, { env: options.env ?? process.env, cwd: options.cwd, input: options.input });
}

/** Asynchronous run (for concurrency tests). */
export function teamAsync(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<BinResult> {
  return runBinAsync(BIN, args, { env: options.env ?? process.env, cwd: options.cwd });
}
