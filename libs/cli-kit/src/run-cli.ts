import { Command, CommanderError, Help, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { ExitCode, oneLine, UsageError } from '@okstra/core';
import type { Io } from './io.js';
import { reportError } from './report-error.js';
import { closestWord } from './suggest.js';

/**
 * What a command action sees: the io, and a place to put its exit code.
 * Actions return their exit code (0/1/2); they never call `process.exit`.
 */
export interface CliContext {
  io: Io;
  /** The command as the user typed it, for messages (`okstra-convergence`, or `okstra convergence` through the umbrella). */
  name: string;
  /** The program name shown in usage lines, when it differs from `name` (the umbrella: `okstra` before a routed sub-command). */
  usageName?: string;
  /** The tool's package version (printed by `--version`). */
  version: string;
  exitCode: number;
}

/** A tool's CLI: its name, version and a commander program factory. */
export interface CliSpec {
  name: string;
  /** See {@link CliContext.usageName}. */
  usageName?: string;
  version: string;
  /** Build the argument definitions. Must not load heavy modules: actions import their work lazily. */
  createProgram: (ctx: CliContext) => CommandUnknownOpts;
}

/**
 * Commander with inferred typings (`@commander-js/extra-typings`, the same
 * runtime classes): an action's options type comes from its flag definitions,
 * so a command's work never imports from `cli/` and no action receives `any`
 * (docs/conventions.md "Layout"). Apps build their programs with these.
 */
export { Command, CommanderError, Option, type CommandUnknownOpts } from '@commander-js/extra-typings';

/**
 * A commander program with the workspace conventions applied: errors and help
 * go to `ctx.io`, commander never exits the process, `--version` prints the
 * package version. Add sub-commands after calling this so they inherit it.
 */
export function createBaseProgram(ctx: CliContext, description: string): Command {
  const program = new Command(ctx.usageName ?? ctx.name);
  program.description(description).version(ctx.version, '-V, --version', 'print the version');
  applyConventions(program, ctx);
  return program;
}

/** Where commander's one-line usage errors go: stderr, or runCli's buffer (so a better message can replace one). */
type ErrorSink = (line: string) => void;

function applyConventions(command: CommandUnknownOpts, ctx: CliContext, sink: ErrorSink = (line) => ctx.io.stderr.write(line)): void {
  command
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => ctx.io.stdout.write(s),
      writeErr: (s) => ctx.io.stderr.write(s),
      outputError: (s) => sink(`${ctx.name}: ${oneLine(s.replace(/^error:\s*/i, ''))}\n`),
    })
    // --help marks the options a command cannot run without.
    .configureHelp({
      optionDescription: (option) => (option.mandatory ? `${plainHelp.optionDescription(option)} (required)`.trim() : plainHelp.optionDescription(option)),
    });
}

const plainHelp = new Help();

const guarded = new WeakSet<object>();

/**
 * An option that takes one value, given twice (`--task-key a --task-key b`),
 * is exit 2 naming both: commander keeps the last silently, so the first was
 * dropped (a worker left unchecked, another task audited). Repeatable options
 * say so with an array default (`collect, []`) or are variadic; flags without
 * a value are not counted. One home for every bin (docs/conventions.md).
 */
function refuseRepeats(command: CommandUnknownOpts): void {
  for (const option of command.options) {
    if (guarded.has(option) || !(option.required || option.optional) || option.variadic || Array.isArray(option.defaultValue)) continue;
    guarded.add(option);
    let first: unknown;
    command.on(`option:${option.name()}`, (value: unknown) => {
      if (first !== undefined) {
        throw new UsageError(`${option.long ?? option.flags} is given twice ('${String(first)}' and '${String(value)}'): it takes one value`);
      }
      first = value ?? '';
    });
  }
}

/**
 * Wrap an action so it records its returned exit code on `ctx`. The work
 * returns `number | void` (void = 0) or throws an {@link OkstraError}.
 */
export function action<A extends unknown[]>(ctx: CliContext, fn: (...args: A) => Promise<number | void> | number | void): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const code = await fn(...args);
    ctx.exitCode = typeof code === 'number' ? code : ExitCode.OK;
  };
}

/**
 * Run a tool: parse `argv` (the words after the bin name), run the action,
 * and turn every outcome into an exit code in this one place:
 * OkstraError → its exitCode with a one-line message; commander usage errors
 * → 2; help/version → 0; anything else → 70 with "this is a bug" (no stack
 * trace unless OKSTRA_DEBUG is set).
 */
export async function runCli(spec: CliSpec, argv: readonly string[], io: Io): Promise<number> {
  const ctx: CliContext = { io, name: spec.name, usageName: spec.usageName, version: spec.version, exitCode: ExitCode.OK };
  const usage: string[] = [];
  const flush = () => usage.splice(0).forEach((line) => io.stderr.write(line));
  let program: CommandUnknownOpts | undefined;
  try {
    program = spec.createProgram(ctx);
    walk(program, (c) => {
      applyConventions(c, ctx, (line) => usage.push(line));
      refuseRepeats(c);
    });
    await program.parseAsync([...argv], { from: 'user' });
    flush();
    return ctx.exitCode;
  } catch (error) {
    // commander checks required options before unknown ones: `--grups x` said "--groups not specified", hiding the typo.
    const typo = error instanceof CommanderError && error.code === 'commander.missingMandatoryOptionValue' && program ? unknownLongOption(program, argv) : null;
    if (typo) usage.splice(0, usage.length, `${ctx.name}: ${typo}\n`);
    flush();
    return error instanceof CommanderError ? commanderExitCode(error) : reportError(spec.name, error, io);
  }
}

/**
 * The first `--long` option in `argv` that the command it is given to does not
 * define (nor its parents), as commander words it (`unknown option '--grups'
 * (Did you mean --groups?)`), or null. The command is found by the leading
 * sub-command words of `argv`.
 */
function unknownLongOption(program: CommandUnknownOpts, argv: readonly string[]): string | null {
  const chain = [program];
  let i = 0;
  for (; i < argv.length; i++) {
    const sub = chain[chain.length - 1]!.commands.find((c) => c.name() === argv[i] || c.aliases().includes(argv[i]!));
    if (!sub) break;
    chain.push(sub);
  }
  const known = new Set(['--help', ...chain.flatMap((c) => c.options.map((o) => o.long).filter((l): l is string => Boolean(l)))]);
  for (const word of argv.slice(i)) {
    if (word === '--') break;
    const flag = word.split('=')[0]!;
    if (!flag.startsWith('--') || known.has(flag)) continue;
    const best = closestWord(
      flag.slice(2),
      [...known].map((k) => k.slice(2)),
    );
    return `unknown option '${flag}'${best ? ` (Did you mean --${best}?)` : ''}`;
  }
  return null;
}

/** The exit code of an error commander raised; it already printed the message through outputError (or help on a bare group). */
function commanderExitCode(error: CommanderError): number {
  return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? ExitCode.OK : ExitCode.INVALID;
}

function walk(command: CommandUnknownOpts, visit: (c: CommandUnknownOpts) => void): void {
  visit(command);
  for (const sub of command.commands) walk(sub, visit);
}
