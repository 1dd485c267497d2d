// Kept apart from run-cli.ts (which loads commander) so a bin can answer
// `--version` and `--help` without loading its argument parser (bench/commands.bench.mjs).
import { readFileSync } from 'node:fs';

/** Read `version` from the package.json next to `dist/` or `src/` (`importMetaUrl` of a module there). */
export function packageVersion(importMetaUrl: string): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', importMetaUrl), 'utf8')) as { version: string };
  return pkg.version;
}

/** True when `argv` (the words after the bin name) is exactly `--version` or `-V`: the answer needs no argument parser. */
function isVersionRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}

/**
 * The command path of a help request the build-time help cache can answer:
 * `[]` for `--help` / `-h`, `['error-issue', 'plan']` for `error-issue plan --help`;
 * null when `argv` is anything else (options before the flag, `help <cmd>`, …).
 */
export function helpRequestPath(argv: readonly string[]): string[] | null {
  const last = argv[argv.length - 1];
  if (last !== '--help' && last !== '-h') return null;
  const path = argv.slice(0, -1);
  return path.every((w) => /^[a-z][a-z0-9-]*$/.test(w)) ? path : null;
}

/** The help cache a bundled bin ships beside its `main.js` (`dist/help.json`, written by tools/bundle-bin.mjs). */
export interface HelpCache {
  schemaVersion: '1.0';
  /** Help texts by command path joined with spaces (`''` is the bin's own help). */
  texts: Record<string, string>;
}

/**
 * The help text commander prints for `path`, as rendered at build time by the
 * bundled bin itself with a non-terminal stdout (80 columns, no colour), or
 * undefined when there is no cache beside `importMetaUrl` (running from
 * source) or no entry for `path`. A cache that cannot be read is no cache: the
 * parser then answers (docs/release.md "Bundled bins").
 */
export function cachedHelp(importMetaUrl: string, path: readonly string[]): string | undefined {
  try {
    const cache = JSON.parse(readFileSync(new URL('./help.json', importMetaUrl), 'utf8')) as HelpCache;
    const text = cache.schemaVersion === '1.0' ? cache.texts[path.join(' ')] : undefined;
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
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
 * answered before the argument parser is loaded, and so is `[<command>…] --help`
 * from the bundled bin's help cache when stdout is not a terminal (commander
 * renders help for the terminal's width, the cache for 80 columns) and the bin
 * runs under its own name; otherwise the parser (and,
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
  const helpPath = invokedAs ? null : helpRequestPath(argv);
  const help = helpPath && !io.stdout.isTTY ? cachedHelp(tool.importMetaUrl, helpPath) : undefined;
  if (help !== undefined) {
    io.stdout.write(help);
    return 0;
  }
  const [{ runCli }, { createProgram }] = await Promise.all([import('./run-cli.js'), tool.loadProgram()]);
  return runCli({ name: invokedAs?.name ?? tool.name, usageName: invokedAs?.usageName, version, createProgram }, argv, io);
}
