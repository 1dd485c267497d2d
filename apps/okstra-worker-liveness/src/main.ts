import { packageVersion, runCli, type Io } from '@okstra/cli-kit';
import { createProgram } from './cli/program.js';

/** The bin name. */
export const NAME = 'okstra-worker-liveness';

/**
 * Run `okstra-worker-liveness` in-process: `argv` is the words after the bin name.
 * Resolves to the exit code (0 ok, 1 negative judgement, 2 invalid input); never exits the process.
 * The umbrella `okstra` calls this directly.
 */
export function main(argv: readonly string[], io: Io): Promise<number> {
  return runCli({ name: NAME, version: packageVersion(import.meta.url), createProgram }, argv, io);
}

export { createProgram };
