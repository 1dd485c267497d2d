import { CommanderError, type CommandUnknownOpts as Command, type Option } from '@okstra/cli-kit';
import { buildProgram, resolveCommand } from './tools.js';
import type { CommandLine } from './markdown.js';

/** A prompt placeholder such as `<path>` or `<adversarial|collaborative>` (a trailing `…` allowed). */
const PLACEHOLDER = /^<([^<>]+)>…?$/;
const HELP = new Set(['-h', '--help']);

/**
 * Check one command line against the real commander definitions, without
 * running any action. Returns the problems found (empty = valid):
 * unknown command word or bin, unknown sub-command, unknown flag, a flag
 * without its value, a value outside the flag's choices, a missing required
 * flag or argument, an unexpected argument — and anything commander itself
 * refuses when it parses the line with every action replaced by a no-op.
 * Placeholders are accepted as values; `<a|b>` must list valid choices only.
 * An inline line that names only a command path is a reference: its path is
 * checked, its required flags are not.
 */
export function checkCommandLine(cmd: Pick<CommandLine, 'words' | 'origin'>): string[] {
  const resolved = resolveCommand(cmd.words);
  if (resolved.kind === 'error') return [resolved.message];
  if (resolved.kind !== 'tool') return [];
  const program = buildProgram(resolved.bin);
  const { leaf, path, rest, problems } = descend(program, resolved.args, resolved.display);
  if (problems.length > 0 || !leaf) return problems;
  const reference = cmd.origin === 'inline' && rest.length === 0;
  if (reference || rest.some((w) => HELP.has(w))) return [];
  const { problems: argProblems, substituted } = checkArgs(leaf, path, rest);
  if (argProblems.length > 0) return argProblems;
  const refusal = commanderRefusal(resolved.bin, [...resolved.args.slice(0, resolved.args.length - rest.length), ...substituted]);
  return refusal ? [`commander refuses it: ${refusal}`] : [];
}

/** Walk sub-command words down to the leaf command (taking a default command where one is declared). */
function descend(program: Command, args: string[], display: string) {
  let cmd = program;
  let path = display;
  let i = 0;
  while (cmd.commands.length > 0) {
    const word = args[i];
    const sub = word === undefined || word.startsWith('-') ? undefined : cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) {
      cmd = sub;
      path = `${path} ${word}`;
      i++;
      continue;
    }
    // commander keeps the default sub-command's name privately; it is the only way to see `isDefault`.
    const fallback = (cmd as unknown as { _defaultCommandName?: string })._defaultCommandName;
    const dflt = fallback ? cmd.commands.find((c) => c.name() === fallback) : undefined;
    if (dflt && (word === undefined || word.startsWith('-') || !cmd.commands.some((c) => c.name() === word))) {
      if (word !== undefined && !word.startsWith('-')) break; // an operand of the default command
      cmd = dflt;
      break;
    }
    if (word === undefined) return { leaf: undefined, path, rest: [], problems: [] as string[] }; // `okstra team`: a group reference
    if (HELP.has(word)) return { leaf: undefined, path, rest: [], problems: [] as string[] };
    const known = cmd.commands.map((c) => c.name()).join(', ');
    return { leaf: undefined, path, rest: [], problems: [`unknown sub-command '${word}' of '${path}' (known: ${known})`] };
  }
  return { leaf: cmd, path, rest: args.slice(i), problems: [] as string[] };
}

function allOptions(cmd: Command): Option[] {
  const out: Option[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) out.push(...c.options);
  return out;
}

/** Check flags, values, choices and operands of the leaf; return the argv with choice placeholders replaced by a valid choice. */
function checkArgs(leaf: Command, path: string, rest: string[]) {
  const options = allOptions(leaf);
  const problems: string[] = [];
  const substituted: string[] = [];
  const seen = new Set<Option>();
  const operands: string[] = [];
  const known = () => leaf.options.map((o) => o.long ?? o.short).join(', ') || 'none';
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i];
    if (token === '--') {
      operands.push(...rest.slice(i + 1));
      substituted.push(...rest.slice(i));
      break;
    }
    if (!token.startsWith('-') || token === '-' || PLACEHOLDER.test(token)) {
      operands.push(token);
      substituted.push(token);
      continue;
    }
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const flag = eq > 0 ? token.slice(0, eq) : token;
    const option = options.find((o) => o.long === flag || o.short === flag);
    if (!option) {
      problems.push(`unknown flag '${flag}' for '${path}' (known: ${known()})`);
      continue;
    }
    seen.add(option);
    if (!option.required && !option.optional) {
      if (eq > 0) problems.push(`flag '${flag}' of '${path}' takes no value`);
      substituted.push(token);
      continue;
    }
    let value: string | undefined = eq > 0 ? token.slice(eq + 1) : undefined;
    if (value === undefined && i + 1 < rest.length && (option.required || !rest[i + 1].startsWith('-'))) value = rest[++i];
    if (value === undefined) {
      if (option.required) problems.push(`flag '${flag}' of '${path}' needs a value (${option.flags})`);
      substituted.push(token);
      continue;
    }
    const { problem, concrete } = checkChoice(option, value, path);
    if (problem) problems.push(problem);
    substituted.push(flag, concrete);
  }
  for (const option of leaf.options) {
    if (option.mandatory && !seen.has(option)) problems.push(`missing required flag '${option.long}' of '${path}'`);
  }
  const declared = leaf.registeredArguments;
  const required = declared.filter((a) => a.required).length;
  const variadic = declared.some((a) => a.variadic);
  if (operands.length < required) problems.push(`missing argument <${declared[operands.length].name()}> of '${path}'`);
  if (!variadic && operands.length > declared.length) problems.push(`unexpected argument '${operands[declared.length]}' for '${path}'`);
  return { problems, substituted };
}

function checkChoice(option: Option, value: string, path: string): { problem?: string; concrete: string } {
  const choices = option.argChoices;
  if (!choices) return { concrete: value };
  const placeholder = PLACEHOLDER.exec(value);
  if (placeholder) {
    const alternatives = placeholder[1].includes('|') ? placeholder[1].split('|') : [];
    const bad = alternatives.filter((a) => !choices.includes(a));
    if (bad.length > 0)
      return { problem: `'${bad.join("', '")}' is not a choice of ${option.long} of '${path}' (choices: ${choices.join(', ')})`, concrete: choices[0] };
    return { concrete: alternatives[0] ?? choices[0] };
  }
  if (!choices.includes(value))
    return { problem: `'${value}' is not a choice of ${option.long} of '${path}' (choices: ${choices.join(', ')})`, concrete: value };
  return { concrete: value };
}

/**
 * Parse argv with commander itself, every action replaced by a no-op so
 * nothing runs; returns commander's error message, or undefined when accepted.
 * A second opinion on {@link checkArgs}: the contract is what commander accepts.
 */
function commanderRefusal(bin: string, argv: string[]): string | undefined {
  const program = buildProgram(bin);
  const visit = (c: Command) => {
    c.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
    if ((c as unknown as { _actionHandler?: unknown })._actionHandler) c.action(() => {});
    c.commands.forEach(visit);
  };
  visit(program);
  try {
    program.parse(argv, { from: 'user' });
    return undefined;
  } catch (error) {
    if (error instanceof CommanderError && ['commander.helpDisplayed', 'commander.version'].includes(error.code)) return undefined;
    return error instanceof Error ? error.message : String(error);
  }
}
