import { memoryIo, type CliContext, type CommandUnknownOpts } from '@okstra/cli-kit';
import { ROUTES } from '../routes.js';

/** One command of the completion tree: its sub-command words, its options, and those of its options that take a value. */
export interface Node {
  subcommands: string[];
  options: string[];
  valued: string[];
}

export type Factory = (ctx: CliContext) => CommandUnknownOpts;

function build(factory: Factory, name: string): CommandUnknownOpts {
  return factory({ io: memoryIo(), name, version: '0.0.0', exitCode: 0 });
}

function nodeOf(c: CommandUnknownOpts): Node {
  const flags = (o: CommandUnknownOpts['options'][number]) => [o.long, o.short].filter((f): f is string => Boolean(f));
  return {
    subcommands: c.commands.map((s) => s.name()),
    options: [...new Set(['--help', ...c.options.flatMap(flags)])],
    valued: c.options.filter((o) => o.required || o.optional).flatMap(flags),
  };
}

/** Every command path of `c` (its words after the root) with its node. */
function walk(c: CommandUnknownOpts, path: string[], out: Map<string, Node>): void {
  out.set(path.join(' '), nodeOf(c));
  for (const sub of c.commands) walk(sub, [...path, sub.name()], out);
}

/**
 * The program factory of the tool package `pkg`, through its exported `loadProgram` (the same definitions that
 * parse its argv), or null when the package is not installed beside okstra. The name is a variable so the
 * bundle imports the installed package rather than inlining a copy.
 */
async function toolFactory(pkg: string): Promise<Factory | null> {
  try {
    const mod = (await import(pkg)) as { loadProgram?: () => Promise<{ createProgram: Factory }> };
    return mod.loadProgram ? (await mod.loadProgram()).createProgram : null;
  } catch {
    return null;
  }
}

/**
 * The completion tree of `okstra` and of each tool bin, keyed by the command words as typed
 * (`okstra convergence seed`, `okstra-convergence seed`), read from the commander programs themselves.
 */
export async function completionTree(own: Factory): Promise<Map<string, Node>> {
  const tree = new Map<string, Node>();
  const programs = new Map<string, CommandUnknownOpts>();
  for (const pkg of new Set(ROUTES.map((r) => r.pkg))) {
    const factory = await toolFactory(pkg);
    if (!factory) continue;
    const program = build(factory, pkg);
    programs.set(pkg, program);
    walk(program, [pkg], tree);
  }
  walk(build(own, 'okstra'), ['okstra'], tree);
  const routes = ROUTES.filter((r) => programs.has(r.pkg));
  for (const route of routes) {
    let c: CommandUnknownOpts | undefined = programs.get(route.pkg);
    for (const word of route.prefix) c = c?.commands.find((s) => s.name() === word);
    if (c) walk(c, ['okstra', route.word], tree);
  }
  const root = tree.get('okstra')!;
  root.subcommands = [...routes.map((r) => r.word), 'sample', ...root.subcommands.filter((w) => w !== 'help'), 'help'];
  tree.set('okstra help', { subcommands: [...routes.map((r) => r.word), 'sample', 'install', 'completion', 'environment'], options: [], valued: [] });
  tree.set('okstra sample', { subcommands: [], options: ['--help'], valued: [] });
  return tree;
}
