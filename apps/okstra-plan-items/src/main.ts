import { runToolMain, type InvokedAs, type Io } from '@okstra/cli-kit';

/** The bin name. */
export const NAME = 'okstra-plan-items';

/**
 * Run `okstra-plan-items` in-process: `argv` is the words after the bin name.
 * Resolves to the exit code (0 ok, 1 negative judgement, 2 invalid input); never exits the process.
 * The umbrella `okstra` calls this directly. `runToolMain` (cli-kit) answers
 * `--version` before the argument parser is loaded and imports the parser (and
 * each sub-command's work) only when needed (docs/release.md "Bundled bins").
 * `invokedAs` is how the umbrella was called (`{ name: 'okstra error-issue',
 * usageName: 'okstra' }`), so messages and usage lines name the command as typed.
 */
export function main(argv: readonly string[], io: Io, invokedAs?: InvokedAs): Promise<number> {
  return runToolMain({ name: NAME, importMetaUrl: import.meta.url, loadProgram: loadCli }, argv, io, invokedAs);
}

/** The tool's commander program factory, loaded on demand (`okstra completion` reads the definitions from it). */
export const loadProgram: () => Promise<{ createProgram: unknown }> = loadCli;

/** Destructured, so the bundle's lazy chunk names what it takes (e2e lazy-chunks.spec reads it); not exported, so the
 * published types never name commander's. */
async function loadCli() {
  const { createProgram } = await import('./cli/program.js');
  return { createProgram };
}
