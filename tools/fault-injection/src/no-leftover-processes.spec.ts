// No process of ours outlives the command that started it (docs/release.md "No resident
// process"): every command of every bin, `--help` and `--version` of every bin and the
// umbrella, and run-audit read through a pipe its reader closes early (`… | head -1`, how a
// user once found the resident run-audit server this replaced), each run with a marker in its
// environment; once it has exited, the process table holds no process carrying that marker
// (a child inherits its parent's environment, detached or not).
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, argvOf } from './commands.js';
import { BIN, cleanup, prepare, REPO, run, scenario, type Scenario } from './support.js';

let s: Scenario;
beforeAll(async () => {
  s = scenario();
  await prepare(s);
});
afterAll(() => cleanup());

const MARK = 'OKSTRA_TEST_PROCESS_MARK';

/** Pids (with their command lines) of live processes whose environment carries `MARK=value`. */
function marked(value: string): string[] {
  const needle = `${MARK}=${value}\0`;
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle)) continue;
      found.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim()}`);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** What is left running, a moment after a command that ran with a fresh marker has exited. */
async function leftBy(start: (env: NodeJS.ProcessEnv) => Promise<unknown> | unknown): Promise<string[]> {
  const value = randomUUID();
  await start({ [MARK]: value });
  // A process detached at exit would still be starting: look twice, a little apart.
  const first = marked(value);
  await new Promise((r) => setTimeout(r, 300));
  return [...new Set([...first, ...marked(value)])];
}

describe('the process table after each command', () => {
  it('every command of every bin leaves no process of its own behind', async () => {
    const left: string[] = [];
    for (const cmd of COMMANDS) {
      const rest = await leftBy((mark) => run(cmd.bin, argvOf(cmd, s), { cwd: s.project, env: { ...cmd.env?.(s), ...mark } }));
      left.push(...rest.map((p) => `${cmd.name}: ${p}`));
    }
    expect(left).toEqual([]);
  });

  it('--help and --version of every bin and the umbrella leave none', async () => {
    const bins = [...Object.values(BIN), join(REPO, 'apps', 'okstra', 'dist', 'bin.js')];
    const left: string[] = [];
    for (const bin of bins)
      for (const flag of ['--help', '--version']) {
        const rest = await leftBy((mark) => spawnSync(process.execPath, [bin, flag], { env: { ...process.env, ...mark }, stdio: 'ignore' }));
        left.push(...rest.map((p) => `${bin} ${flag}: ${p}`));
      }
    expect(left).toEqual([]);
  });

  it('run-audit into a pipe its reader closes after one line (… | head -1) leaves none', async () => {
    for (let i = 0; i < 3; i++) {
      const rest = await leftBy((mark) => {
        const r = spawnSync('sh', ['-c', '"$0" "$1" run-audit --project-root "$2" | head -1', process.execPath, BIN.audit, s.project], {
          env: { ...process.env, ...mark },
          encoding: 'utf8',
        });
        expect(r.stdout).not.toBe('');
      });
      expect(rest).toEqual([]);
    }
  });
});
