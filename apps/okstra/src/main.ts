import { findOnPath, packageVersion, type Io } from '@okstra/cli-kit';
import { ROUTES, RUNTIME_WORDS, findRoute, type Route } from './routes.js';

export { ROUTES, RUNTIME_WORDS, findRoute, type Route };
import { runExecutable } from './plugins.js';

/** A tool package's module shape: every okstra tool exports `main(argv, io)`. */
interface ToolModule {
  main(argv: readonly string[], io: Io): Promise<number>;
}

/**
 * `okstra <word> …`: run the tool for `word` (ARCHITECTURE.md §2) in-process
 * through its exported `main`, or an `okstra-<word>` executable found on
 * PATH (third-party plug-ins). argv, stdin, stdout, stderr and the exit code
 * pass through unchanged.
 * Exit 2: no word, an unknown word (lists the known tools), or a known tool
 * whose package is not installed (names the package).
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [word, ...rest] = argv;
  if (word === undefined) {
    io.stderr.write(helpText());
    return 2;
  }
  if (word === '--help' || word === '-h' || word === 'help') {
    io.stdout.write(helpText());
    return 0;
  }
  if (word === '--version' || word === '-V') {
    io.stdout.write(`${packageVersion(import.meta.url)}\n`);
    return 0;
  }
  const route = findRoute(word);
  if (route) return runTool(route, rest, io);

  const plugin = /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(word) ? findOnPath(`okstra-${word}`, io.env) : null;
  if (plugin) return runExecutable(plugin, rest, io);
  if (RUNTIME_WORDS.includes(word)) {
    io.stderr.write(`okstra: '${word}' is a step of the okstra runtime, not of these microtools, and the runtime is not installed here\n`);
    return 2;
  }
  io.stderr.write(`okstra: unknown command '${word}' (known: ${ROUTES.map((r) => r.word).join(', ')}; see 'okstra --help')\n`);
  return 2;
}

async function runTool(route: Route, rest: readonly string[], io: Io): Promise<number> {
  const args = [...route.prefix, ...rest];
  let tool: ToolModule;
  try {
    tool = (await import(route.pkg)) as ToolModule;
  } catch (error) {
    if (!isMissingPackage(error, route.pkg)) throw error;
    // Installed on its own (another prefix) but not beside okstra: run its bin.
    const bin = findOnPath(route.pkg, io.env);
    if (bin) return runExecutable(bin, args, io);
    io.stderr.write(`okstra: '${route.word}' needs the package ${route.pkg}, which is not installed (npm install -g ${route.pkg})\n`);
    return 2;
  }
  return tool.main(args, io);
}

function isMissingPackage(error: unknown, pkg: string): boolean {
  const e = error as NodeJS.ErrnoException;
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && String(e.message).includes(pkg);
}

/** `okstra --help`: usage and one line per tool. */
export function helpText(): string {
  const width = Math.max(...ROUTES.map((r) => r.word.length));
  const lines = ROUTES.map((r) => `  ${r.word.padEnd(width)}  ${r.summary} (${r.pkg})`);
  return [
    'Usage: okstra <command> [args...]',
    '',
    'okstra runs the okstra tool for <command>; `okstra <command> --help` shows its flags.',
    'An executable named okstra-<command> on PATH is run for any other <command>.',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  -V, --version  print the version',
    '  -h, --help     print this help',
    '',
  ].join('\n');
}
