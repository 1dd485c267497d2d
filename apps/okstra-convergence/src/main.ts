import { isVersionRequest, packageVersion, type Io } from '@okstra/cli-kit';

/** The bin name. */
export const NAME = 'okstra-convergence';

/**
 * Run `okstra-convergence` in-process: `argv` is the words after the bin name.
 * Resolves to the exit code (0 ok, 1 negative judgement, 2 invalid input); never exits the process.
 * The umbrella `okstra` calls this directly. `--version` alone is answered
 * before the argument parser is loaded; the parser (and each sub-command's
 * work) is imported only when needed, so the bundled bin loads no more than
 * the call uses (docs/release.md "Bundled bins").
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const version = packageVersion(import.meta.url);
  if (isVersionRequest(argv)) {
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const [{ runCli }, { createProgram }] = await Promise.all([import('@okstra/cli-kit'), import('./cli/program.js')]);
  return runCli({ name: NAME, version, createProgram }, argv, io);
}
