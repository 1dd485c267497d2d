// Kept apart from run-cli.ts (which loads commander) so a bin can answer
// `--version` without loading its argument parser (bench/commands.bench.mjs).
import { readFileSync } from 'node:fs';

/** Read `version` from the package.json next to `dist/` or `src/` (`importMetaUrl` of a module there). */
export function packageVersion(importMetaUrl: string): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', importMetaUrl), 'utf8')) as { version: string };
  return pkg.version;
}

/** True when `argv` (the words after the bin name) is exactly `--version` or `-V`: the answer needs no argument parser. */
export function isVersionRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}

/** How the umbrella invoked a tool (`{ name: 'okstra error-issue', usageName: 'okstra' }`), so messages and usage lines name the command as typed. */
export interface InvokedAs {
  name: string;
  usageName: string;
}

/** A tool's entry: its bin name, the `import.meta.url` of its `main` module (for its package version) and a lazy loader of its argument definitions. */
export interface ToolEntry {
  name: string;
  importMetaUrl: string;
  loadProgram: () => Promise<{ createProgram: import('./run-cli.js').CliSpec['createProgram'] }>;
}

/**
 * The body of every tool's `main(argv, io, invokedAs)`: `--version` alone is
 * answered before the argument parser is loaded; otherwise the parser (and,
 * through it, each sub-command's work) is imported only when needed and run
 * through `runCli`, the one error funnel (docs/release.md "Bundled bins").
 * @returns the exit code (0 ok, 1 negative judgement, 2 invalid input); never exits the process.
 */
export async function runToolMain(tool: ToolEntry, argv: readonly string[], io: import('./io.js').Io, invokedAs?: InvokedAs): Promise<number> {
  const version = packageVersion(tool.importMetaUrl);
  if (isVersionRequest(argv)) {
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const [{ runCli }, { createProgram }] = await Promise.all([import('./run-cli.js'), tool.loadProgram()]);
  return runCli({ name: invokedAs?.name ?? tool.name, usageName: invokedAs?.usageName, version, createProgram }, argv, io);
}
