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
 * `invokedAs` is how the umbrella was called (`{ name: 'okstra error-issue',
 * usageName: 'okstra' }`), so messages and usage lines name the command as typed.
 */
export async function main(argv: readonly string[], io: Io, invokedAs?: { name: string; usageName: string }): Promise<number> {
  const version = packageVersion(import.meta.url);
  if (isVersionRequest(argv)) {
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const [{ runCli }, { createProgram }] = await Promise.all([import('@okstra/cli-kit'), import('./cli/program.js')]);
  return runCli({ name: invokedAs?.name ?? NAME, usageName: invokedAs?.usageName, version, createProgram }, argv, io);
}
