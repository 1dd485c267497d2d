import { describe, expect, it } from 'vitest';
import { action, createBaseProgram, runCli, type CliSpec, type CommandUnknownOpts } from './run-cli.js';
import { memoryIo } from './io.js';
import { InputError, parseMinutes, parseSeconds, pathArg } from '@okstra/core';
import { parseKeyValue, parseCsv, collect } from './options.js';
import { readStdinText } from './io.js';
import { PassThrough } from 'node:stream';

/** A test tool whose `go` command has the options `define` gives it (default: a required --file and an optional --n) and runs `work`. */
function spec(
  work: (opts: Record<string, unknown>) => Promise<number | void> | number | void,
  define: (go: CommandUnknownOpts) => CommandUnknownOpts = (go) => go.requiredOption('--file <path>').option('--n <n>'),
): CliSpec {
  return {
    name: 'okstra-test',
    version: '1.2.3',
    createProgram: (ctx) => {
      const program = createBaseProgram(ctx, 'test tool');
      define(program.command('go')).action(action(ctx, (...[opts]: unknown[]) => work(opts as Record<string, unknown>)));
      return program;
    },
  };
}

describe('runCli', () => {
  it('refuses a one-value option given twice (commander kept the last: the first was dropped); repeatable and flag options still repeat', async () => {
    for (const argv of [
      ['go', '--file', 'a.json', '--file', 'b.json'],
      ['go', '--file=a.json', '--n', '1', '--file', 'b.json'],
    ]) {
      const io = memoryIo();
      let ran = false;
      const code = await runCli(
        spec(() => {
          ran = true;
        }),
        argv,
        io,
      );
      expect([code, ran, io.err()]).toEqual([2, false, "okstra-test: --file is given twice ('a.json' and 'b.json'): it takes one value\n"]);
    }
    const repeatable = spec(
      () => undefined,
      (go) => go.option('--result <r>', 'repeat', collect, [] as string[]).option('--json'),
    );
    expect(await runCli(repeatable, ['go', '--result', 'a', '--result', 'b', '--json', '--json'], memoryIo())).toBe(0);
  });

  it('returns the action exit code and passes options', async () => {
    const io = memoryIo();
    let seen: unknown;
    const code = await runCli(
      spec((o) => {
        seen = o;
        return 1;
      }),
      ['go', '--file', 'a.json'],
      io,
    );
    expect(code).toBe(1);
    expect(seen).toEqual({ file: 'a.json' });
  });

  it('prints --version on stdout and exits 0', async () => {
    const io = memoryIo();
    expect(
      await runCli(
        spec(() => 0),
        ['--version'],
        io,
      ),
    ).toBe(0);
    expect(io.out()).toBe('1.2.3\n');
  });

  it('turns an unknown option into one line on stderr and exit 2', async () => {
    const io = memoryIo();
    expect(
      await runCli(
        spec(() => 0),
        ['go', '--file', 'x', '--bogus'],
        io,
      ),
    ).toBe(2);
    expect(io.err()).toBe("okstra-test: unknown option '--bogus'\n");
  });

  it('turns a missing required option into exit 2', async () => {
    const io = memoryIo();
    expect(
      await runCli(
        spec(() => 0),
        ['go'],
        io,
      ),
    ).toBe(2);
    expect(io.err()).toBe("okstra-test: required option '--file <path>' not specified\n");
  });

  it.each([
    [['go', '--fiel', 'a.json'], "okstra-test: unknown option '--fiel' (Did you mean --file?)\n"],
    [['go', '--n', '1', '--fiel=a.json'], "okstra-test: unknown option '--fiel' (Did you mean --file?)\n"],
    [['go', '--zzzzzzz', 'x'], "okstra-test: unknown option '--zzzzzzz'\n"],
  ])('a mistyped required option %j names the typo, not the required option it hides', async (argv, message) => {
    const io = memoryIo();
    expect(
      await runCli(
        spec(() => 0),
        argv,
        io,
      ),
    ).toBe(2);
    expect(io.err()).toBe(message);
  });

  it('turns an InputError into its one-line message naming file and field', async () => {
    const io = memoryIo();
    const code = await runCli(
      spec(() => {
        throw new InputError('expected a string', { file: 'a.json', field: 'workers[0].id' });
      }),
      ['go', '--file', 'a.json'],
      io,
    );
    expect(code).toBe(2);
    expect(io.err()).toBe('okstra-test: a.json: workers[0].id: expected a string\n');
  });

  it('reports an unexpected exception as a bug with exit 70 and no stack trace', async () => {
    const io = memoryIo();
    const code = await runCli(
      spec(() => {
        throw new TypeError('boom\nsecond line');
      }),
      ['go', '--file', 'a'],
      io,
    );
    expect(code).toBe(70);
    expect(io.err()).toBe('okstra-test: internal error (this is a bug, please report it): boom second line\n');
  });

  it('exits 2 when a command group is called without a sub-command', async () => {
    const io = memoryIo();
    expect(
      await runCli(
        spec(() => 0),
        [],
        io,
      ),
    ).toBe(2);
    expect(io.err()).toContain('Usage: okstra-test');
  });
});

describe('option parsers', () => {
  it('parses key=value at the first =', () => {
    expect(parseKeyValue('--result', 'claude=a=b.md')).toEqual({ key: 'claude', value: 'a=b.md' });
    expect(() => parseKeyValue('--result', 'claude')).toThrow("--result expects <key>=<value>, got 'claude'");
    expect(() => parseKeyValue('--result', '=x')).toThrow(/expects <key>=<value>/);
  });
  it('parses seconds strictly', () => {
    expect(parseSeconds('--max-idle', '0')).toBe(0);
    expect(parseSeconds('--max-idle', '2.5')).toBe(2.5);
    expect(() => parseSeconds('--max-idle', '-1')).toThrow(/non-negative/);
    expect(() => parseSeconds('--max-idle', '')).toThrow(/non-negative/);
  });
  it('parses decimal seconds only, with an optional maximum, and positive minutes', () => {
    for (const raw of [' 5', '0x10', '1e3', 'Infinity', '+1', '.5']) expect(() => parseSeconds('--max-idle', raw)).toThrow(/non-negative number of seconds/);
    expect(parseSeconds('--max-idle', '86400', { max: 86400 })).toBe(86400);
    expect(() => parseSeconds('--max-idle', '86400.5', { max: 86400 })).toThrow("--max-idle is at most 86400 seconds, got '86400.5'");
    expect(parseMinutes('--deadline', '0.02')).toBe(0.02);
    expect(() => parseMinutes('--deadline', '0')).toThrow("--deadline expects a positive number of minutes, got '0'");
    expect(() => parseMinutes('--deadline', 'soon')).toThrow(/positive number of minutes/);
  });
  it('resolves a path argument against io.cwd', () => {
    expect(pathArg({ cwd: '/work/p' }, 'a/b.json')).toBe('/work/p/a/b.json');
    expect(pathArg({ cwd: '/work/p' }, '/abs.json')).toBe('/abs.json');
    // `--project-root "$ROOT"` with ROOT unset named the cwd, and run-audit judged that project instead (exit 0/1).
    expect(() => pathArg({ cwd: '/work/p' }, '')).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining('an empty path names nothing') }),
    );
    expect(pathArg({ cwd: '/work/p' }, '.')).toBe('/work/p');
  });
  it('splits csv and collects repeats', () => {
    expect(parseCsv(' a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(parseCsv(undefined)).toEqual([]);
    expect(collect('b', collect('a'))).toEqual(['a', 'b']);
  });
});

describe('readStdinText', () => {
  it('refuses a terminal at once instead of waiting for typed input (a tmux pane nobody types into)', async () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true }); // never ends: a read would hang
    await expect(readStdinText({ stdin: tty })).rejects.toMatchObject({ exitCode: 2, file: '-', message: expect.stringContaining('stdin is a terminal') });
  });
  it('reads a pipe whole', async () => {
    const pipe = new PassThrough();
    pipe.end('{"a":1}');
    expect(await readStdinText({ stdin: pipe })).toBe('{"a":1}');
  });
});
