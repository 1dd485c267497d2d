import { memoryIo, runCli, type CommandUnknownOpts as Command } from '@okstra/cli-kit';
import { teamJobPath } from '@okstra/paths';
import { describe, expect, it } from 'vitest';
import { checkCommandLine } from './check.js';
import { splitShellLine } from './shell-words.js';
import { BINS, resolveCommand } from './tools.js';

/** Every runnable command of a program as its word path (`['error-issue', 'plan']`; `[]` for a bin without sub-commands). */
function leaves(cmd: Command, path: string[] = []): string[][] {
  if (cmd.commands.length === 0) return [path];
  return cmd.commands.flatMap((c) => leaves(c, [...path, c.name()]));
}

/** The example command lines of a help text: the indented `okstra…` lines after an `Example:`/`Examples:` line. */
function exampleLines(help: string): string[] {
  const lines = help.split('\n');
  const start = lines.findIndex((l) => /^Examples?:\s*$/.test(l));
  if (start < 0) return [];
  return lines
    .slice(start + 1)
    .filter((l) => /^\s+(\$ )?okstra/.test(l))
    .map((l) => l.trim().replace(/^\$ /, ''));
}

const cases = Object.entries(BINS).flatMap(([bin, createProgram]) =>
  leaves(createProgram({ io: memoryIo(), name: bin, version: '0.0.0', exitCode: 0 })).map((path) => [`${bin} ${path.join(' ')}`.trim(), bin, path] as const),
);

describe('--help of every sub-command', () => {
  it.each(cases)('%s --help shows a usage line and an example that parses', async (_name, bin, path) => {
    const io = memoryIo();
    const code = await runCli({ name: bin, version: '0.0.0', createProgram: BINS[bin] }, [...path, '--help'], io);
    expect(code).toBe(0);
    const help = io.out();
    expect(help, `${bin} ${path.join(' ')} --help: no usage line`).toMatch(new RegExp(`^Usage: ${bin}( ${path.join(' ')})? `, 'm'));
    const examples = exampleLines(help);
    expect(examples.length, `${bin} ${path.join(' ')} --help: no "Example:" section with an okstra command line`).toBeGreaterThan(0);
    for (const line of examples) {
      const words = splitShellLine(line)[0] ?? [];
      expect(checkCommandLine({ words, origin: 'fence' }), `${bin} ${path.join(' ')} --help example: ${line}`).toEqual([]);
      // The example runs the command it documents, through the umbrella or the bin.
      const resolved = resolveCommand(words);
      const runs = resolved.kind === 'tool' ? [resolved.bin, ...resolved.args.slice(0, path.length)].join(' ') : resolved.kind;
      expect(runs, `${bin} ${path.join(' ')} --help example names another command: ${line}`).toBe([bin, ...path].join(' '));
    }
  });
});

describe('--help examples name real paths', () => {
  it('okstra team exec --help: the --job path is the one dispatch writes (libs/paths teamJobPath)', async () => {
    const io = memoryIo();
    await runCli({ name: 'okstra-team', version: '0.0.0', createProgram: BINS['okstra-team'] }, ['exec', '--help'], io);
    const words = splitShellLine(exampleLines(io.out())[0] ?? '')[0] ?? [];
    const job = words[words.indexOf('--job') + 1] ?? '';
    const dir = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';
    expect(job).toBe(teamJobPath(dir, 'initial', 'codex', { taskType: 'error-analysis', seq: '001' }));
  });
});
