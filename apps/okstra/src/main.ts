import { closestWord, findOnPath, type InvokedAs, type Io, maxOf, oneLine, packageVersion } from '@okstra/cli-kit';
import { ROUTES, RUNTIME_WORDS, findRoute, type Route } from './routes.js';

export { ROUTES, RUNTIME_WORDS, findRoute, type Route };
export { OWN_COMMANDS } from './cli/own-words.js';
import { runExecutable } from './plugins.js';
import { environmentHelp } from './environment.js';
import { runSample, sampleUsage } from './sample.js';
import { OWN_COMMANDS } from './cli/own-words.js';

/** The umbrella's own command words (run here, not routed to a tool). */
const OWN_WORDS: readonly string[] = OWN_COMMANDS.map((c) => c.word);
/** Every command word `okstra` knows: the tools', `sample` and its own. */
function knownWords(): string[] {
  return [...ROUTES.map((r) => r.word), 'sample', ...OWN_WORDS];
}

/** A tool package's module shape: every okstra tool exports `main(argv, io, invokedAs)`. */
interface ToolModule {
  main(argv: readonly string[], io: Io, invokedAs?: InvokedAs): Promise<number>;
}

/**
 * `okstra <word> …`: run the tool for `word` (docs/contracts.md "The umbrella") in-process
 * through its exported `main`, or an `okstra-<word>` executable found on
 * PATH (third-party plug-ins). argv, stdin, stdout, stderr and the exit code
 * pass through unchanged; the tool's messages and usage lines name the
 * command as typed (`okstra error-issue: …`). `okstra help <word>` is
 * `okstra <word> --help`; `okstra help environment` lists the environment
 * variables the tools read.
 * Exit 2: no word, an unknown word (names the closest tool when there is one
 * and lists the known tools), or a known tool whose package is not installed.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [word, ...rest] = argv;
  if (word === undefined) {
    io.stderr.write(helpText());
    return 2;
  }
  if (word === '--help' || word === '-h' || (word === 'help' && rest.length === 0)) {
    io.stdout.write(helpText());
    return 0;
  }
  if (word === 'help') return help(rest, io);
  if (word === '--version' || word === '-V') {
    io.stdout.write(`${packageVersion(import.meta.url)}\n`);
    return 0;
  }
  if (word === 'sample') return runSample(rest, io);
  if (OWN_WORDS.includes(word)) return runOwn([word, ...rest], io);
  const route = findRoute(word);
  if (route) return runTool(route, rest, io);

  const plugin = /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(word) ? findOnPath(`okstra-${word}`, io.env) : null;
  if (plugin) return runExecutable(plugin, rest, io);
  if (RUNTIME_WORDS.includes(word)) {
    io.stderr.write(`okstra: '${word}' is a step of the okstra runtime, not of these microtools, and the runtime is not installed here\n`);
    return 2;
  }
  // the word is user input: shown as one line with control characters escaped, like every error line
  const known = word.startsWith('-') ? OPTIONS.join(', ') : knownWords().join(', ');
  io.stderr.write(
    `okstra: unknown ${word.startsWith('-') ? 'option' : 'command'} '${oneLine(word)}'${didYouMean(word)} (known: ${known}; see 'okstra --help')\n`,
  );
  return 2;
}

/** `okstra help <word>`: that tool's `--help`; `okstra help environment`: the environment variables. */
function help(words: readonly string[], io: Io): Promise<number> | number {
  const [topic, ...more] = words;
  if (topic === 'environment' && more.length === 0) {
    io.stdout.write(environmentHelp());
    return 0;
  }
  if (topic === 'sample' && more.length === 0) {
    io.stdout.write(sampleUsage());
    return 0;
  }
  // `okstra help help`: the help of help is the umbrella's help.
  if (topic === 'help' && more.length === 0) {
    io.stdout.write(helpText());
    return 0;
  }
  if (topic !== undefined && OWN_WORDS.includes(topic)) return runOwn([topic, ...more, '--help'], io);
  const route = topic === undefined ? undefined : findRoute(topic);
  if (route) return runTool(route, [...more, '--help'], io);
  // A plug-in's help is its own `--help`, as `okstra <plug-in> …` runs it.
  const plugin = topic !== undefined && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(topic) ? findOnPath(`okstra-${topic}`, io.env) : null;
  if (plugin) return runExecutable(plugin, [...more, '--help'], io);
  io.stderr.write(
    `okstra: no help for '${oneLine(words.join(' '))}'${didYouMean(topic ?? '')} (topics: ${[...knownWords(), 'help', 'environment'].join(', ')})\n`,
  );
  return 2;
}

/** ` (did you mean 'x'?)` for the command word closest to `word` within a small edit distance, else ''. */
function didYouMean(word: string): string {
  // `okstra -v`: a short option in the wrong case (too short for an edit-distance typo).
  const short = OPTIONS.find((o) => o.length === 2 && o !== word && o.toLowerCase() === word.toLowerCase());
  // `okstra --vesion`: an option-looking word is matched against the umbrella's own options.
  const best = short ?? closestWord(word, word.startsWith('-') ? OPTIONS.filter((o) => o.startsWith('--')) : knownWords());
  return best ? ` (did you mean '${best}'?)` : '';
}

/** The umbrella's own options. */
const OPTIONS = ['-V', '--version', '-h', '--help'];

/** `okstra install …`, `okstra completion …`: the umbrella's own commander program (loaded only for them). */
async function runOwn(argv: readonly string[], io: Io): Promise<number> {
  return (await import('./cli/own-program.js')).runOwn(argv, io, packageVersion(import.meta.url));
}

async function runTool(route: Route, rest: readonly string[], io: Io): Promise<number> {
  const args = [...route.prefix, ...rest];
  // Messages say `okstra <word>:`; usage lines read as typed (`okstra error-issue plan`, `okstra convergence seed`).
  const invokedAs: InvokedAs = { name: `okstra ${route.word}`, usageName: route.prefix.length > 0 ? 'okstra' : `okstra ${route.word}` };
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
  return tool.main(args, io, invokedAs);
}

function isMissingPackage(error: unknown, pkg: string): boolean {
  const e = error as NodeJS.ErrnoException;
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && String(e.message).includes(pkg);
}

/** `okstra --help`: usage and one line per tool. */
export function helpText(): string {
  const width = maxOf(
    ROUTES.map((r) => r.word.length),
    0,
  );
  const lines = ROUTES.map((r) => `  ${r.word.padEnd(width)}  ${r.summary} (${r.pkg})`);
  return [
    'Usage: okstra <command> [args...]',
    '',
    'okstra runs the okstra tool for <command>; `okstra <command> --help` (or `okstra help <command>`) shows its flags.',
    'An executable named okstra-<command> on PATH is run for any other <command>.',
    '',
    'Commands:',
    ...lines,
    `  ${'sample'.padEnd(width)}  write the sample project, with stub provider CLIs, into a new folder to try the tools on`,
    ...OWN_COMMANDS.map((c) => `  ${c.word.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -V, --version  print the version',
    '  -h, --help     print this help',
    '',
    '`okstra help environment` lists the environment variables the tools read.',
    '',
  ].join('\n');
}
