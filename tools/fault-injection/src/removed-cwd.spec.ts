// Every command run from a working directory that was removed under the shell
// sitting in it (node's process.cwd() throws ENOENT uv_cwd): never a stack trace
// or exit 70. A command that needs the directory says so in one line with exit 2;
// `--version` and `--help` need none and work (docs/conventions.md "Rules every
// command keeps"). Before the fix every bin died with uv_cwd's stack trace, exit 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS, argvOf } from './commands.js';
import { BIN, cleanup, pool, prepare, printTable, run, scenario, type BinName, type RunResult, type Scenario } from './support.js';

let s: Scenario;
afterAll(() => cleanup());
beforeAll(async () => {
  s = scenario();
  await prepare(s);
});

/** Run `bin args` from a directory the shell removes just before node starts in it. */
function inRemovedDir(name: BinName, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'okstra-gone-'));
  return run(name, args, {
    cwd: s.tmp,
    env,
    wrap: (argv) => ['sh', '-c', 'cd "$0" && rmdir "$0" && exec "$@"', dir, ...argv],
  });
}

const clean = (r: RunResult) => !r.hung && r.code !== 70 && r.code !== null && !/\n\s+at \S|uv_cwd/.test(r.stderr);

describe('a removed working directory', () => {
  it('every command: no stack trace, no exit 70; --version and --help of every bin exit 0', async () => {
    const results = await pool(COMMANDS, 2, async (cmd) => ({ cmd, r: await inRemovedDir(cmd.bin, argvOf(cmd, s), cmd.env?.(s)) }));
    const bins = Object.keys(BIN) as BinName[];
    const meta = await pool(
      bins.flatMap((b) => [
        [b, '--version'],
        [b, '--help'],
      ]),
      2,
      async ([b, flag]) => ({ b, flag, r: await inRemovedDir(b as BinName, [flag as string]) }),
    );
    const bad = results.filter(({ r }) => !clean(r)).map(({ cmd, r }) => `${cmd.name}: exit ${r.code} ${r.stderr.slice(0, 200)}`);
    const badMeta = meta.filter(({ r }) => r.code !== 0 || r.stdout === '').map(({ b, flag, r }) => `${b} ${flag}: exit ${r.code} ${r.stderr.slice(0, 200)}`);
    printTable('a removed working directory', [
      { test: `${COMMANDS.length} commands`, tries: results.length, failures: bad.length },
      { test: `${bins.length} bins --version / --help`, tries: meta.length, failures: badMeta.length },
    ]);
    expect(bad).toEqual([]);
    expect(badMeta).toEqual([]);
  });

  it('run-audit, which finds its project from there, is exit 2 naming the directory, nothing on stdout', async () => {
    const r = await inRemovedDir('audit', ['run-audit']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^okstra-run-audit: the working directory no longer exists: cd to a directory that does, or give absolute paths\n$/);
  });
});
