// Symlink matrix: outputs that are symlinks, outputs aimed at another artifact
// of the run, and paths inside inputs that lead out of the project through a
// symlink (team dispatch, worker-liveness). Every case: exit 2, the link's
// target and the outside directory untouched, nothing written outside.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argvOf, COMMANDS } from './commands.js';
import {
  changed,
  cleanRefusal,
  cleanup,
  clone,
  collectArgs,
  lifecycle,
  pool,
  prepare,
  printTable,
  run,
  scenario,
  snapshot,
  type BinName,
  type Scenario,
} from './support.js';

let prepared: Scenario;
let full: Scenario;
beforeAll(async () => {
  prepared = scenario();
  await prepare(prepared);
  full = scenario();
  await lifecycle(full);
}, 300_000);
afterAll(cleanup);

const cmd = (name: string) => COMMANDS.find((c) => c.name === name)!;

interface Case {
  name: string;
  base: () => Scenario;
  /** Change the copy (make the link, point a path out); returns the argv and the bin. */
  arrange: (s: Scenario, outside: string) => { bin: BinName; argv: string[]; env?: NodeJS.ProcessEnv };
}

/** Replace `path` by a symlink to a file outside the project holding `victim` bytes. */
function linkOut(path: string, outside: string): void {
  const victim = join(outside, 'victim.json');
  renameSync(path, `${path}.moved`);
  symlinkSync(victim, path);
}

const external = (s: Scenario) => {
  const m = JSON.parse(readFileSync(s.manifest, 'utf8'));
  m.leadRuntime = 'external';
  writeFileSync(s.manifest, JSON.stringify(m, null, 2));
  return m;
};
const teamEnv = (s: Scenario) => ({ HOME: s.tmp, OKSTRA_TMUX_SOCKET: join(s.tmp, 'tmux.sock'), PATH: '/usr/bin:/bin' });

const CASES: Case[] = [
  // Outputs that are symlinks (the issue's seven): the write never follows the final component.
  {
    name: 'plan-round --plan is a symlink',
    base: () => prepared,
    arrange: (s, o) => (linkOut(s.plan1, o), { bin: 'conv', argv: argvOf(cmd('convergence plan-round'), s) }),
  },
  { name: 'collect-results --output is a symlink', base: () => prepared, arrange: (s, o) => (linkOut(s.results1, o), { bin: 'conv', argv: collectArgs(s) }) },
  {
    name: 'finalize --output is a symlink',
    base: () => full,
    arrange: (s, o) => (linkOut(s.final, o), { bin: 'conv', argv: argvOf(cmd('convergence finalize'), s) }),
  },
  {
    name: 'plan-items extract --output is a symlink',
    base: () => prepared,
    arrange: (s, o) => (linkOut(s.items, o), { bin: 'plan', argv: argvOf(cmd('plan-items extract'), s) }),
  },
  {
    name: 'plan-items collect-verdicts --output is a symlink',
    base: () => prepared,
    arrange: (s, o) => (linkOut(s.verdicts, o), { bin: 'plan', argv: argvOf(cmd('plan-items collect-verdicts'), s) }),
  },
  {
    name: 'seed --restart-from-round0 --work-state is a symlink',
    base: () => full,
    arrange: (s, o) => {
      cpSync(s.work, join(o, 'victim.json'));
      renameSync(s.work, `${s.work}.moved`);
      symlinkSync(join(o, 'victim.json'), s.work);
      return {
        bin: 'conv',
        argv: ['seed', '--groups', s.groups, '--work-state', s.work, '--final-state', s.final, '--migration-dir', s.mig, '--restart-from-round0'],
      };
    },
  },
  // Outputs aimed at another artifact of the run: never replaced.
  ...(['groups', 'manifest', 'teamState'] as const).map((k): Case => ({
    name: `finalize --output is the run's ${k}`,
    base: () => full,
    arrange: (s) => ({ bin: 'conv', argv: argvOf(cmd('convergence finalize'), s, { '--output': s[k] }) }),
  })),
  {
    name: 'plan-round --plan is the team-state',
    base: () => prepared,
    arrange: (s) => ({ bin: 'conv', argv: argvOf(cmd('convergence plan-round'), s, { '--plan': s.teamState }) }),
  },
  { name: 'collect-results --output is the groups file', base: () => prepared, arrange: (s) => ({ bin: 'conv', argv: collectArgs(s, s.groups) }) },
  // Paths inside inputs that lead out through a symlink inside the project.
  {
    name: "team dispatch: the run's prompts/ is a symlink out",
    base: () => prepared,
    arrange: (s, o) => {
      external(s);
      cpSync(join(s.ea, 'prompts'), join(o, 'prompts'), { recursive: true });
      renameSync(join(s.ea, 'prompts'), join(s.ea, 'prompts.moved'));
      symlinkSync(join(o, 'prompts'), join(s.ea, 'prompts'));
      return { bin: 'team', argv: ['dispatch', '--project-root', s.project, '--run-manifest', s.manifest, '--workers', 'claude,codex'], env: teamEnv(s) };
    },
  },
  {
    name: "team dispatch: the manifest's teamStatePath is a symlink out",
    base: () => prepared,
    arrange: (s, o) => {
      external(s);
      cpSync(s.teamState, join(o, 'victim.json'));
      renameSync(s.teamState, `${s.teamState}.moved`);
      symlinkSync(join(o, 'victim.json'), s.teamState);
      return { bin: 'team', argv: ['dispatch', '--project-root', s.project, '--run-manifest', s.manifest, '--workers', 'claude,codex'], env: teamEnv(s) };
    },
  },
  {
    name: 'team dispatch: state/team-jobs is a symlink out',
    base: () => prepared,
    arrange: (s, o) => {
      external(s);
      mkdirSync(join(o, 'jobs'));
      symlinkSync(join(o, 'jobs'), join(s.ea, 'state', 'team-jobs'));
      return { bin: 'team', argv: ['dispatch', '--project-root', s.project, '--run-manifest', s.manifest, '--workers', 'claude,codex'], env: teamEnv(s) };
    },
  },
  {
    name: 'worker-liveness: a team-state outside any .okstra tree naming absolute paths',
    base: () => prepared,
    arrange: (s, o) => {
      const t = JSON.parse(readFileSync(s.teamState, 'utf8'));
      t.workers[1] = { ...t.workers[1], status: 'in-progress', endedAt: null, livenessMode: 'wrapper-status', promptPath: join(o, 'victim.json') };
      writeFileSync(join(o, 'team-state.json'), JSON.stringify(t));
      return { bin: 'live', argv: ['--team-state', join(o, 'team-state.json'), '--worker', t.workers[1].workerId] };
    },
  },
];

describe('symlink and containment matrix', () => {
  it('every case is exit 2 with nothing written outside and no link target replaced', async () => {
    const failures: string[] = [];
    await pool(CASES, 4, async (c) => {
      const s = clone(c.base());
      const outside = join(s.tmp, 'outside');
      mkdirSync(outside);
      writeFileSync(join(outside, 'victim.json'), '{"victim":true}\n');
      const { bin, argv, env } = c.arrange(s, outside);
      const before = snapshot(s.tmp);
      const r = await run(bin, argv, { cwd: s.project, env, timeoutMs: 20_000 });
      if (process.env.FI_DEBUG) process.stderr.write(`${c.name}: ${r.code} ${r.stderr.trim().slice(-220)}\n`);
      const diff = changed(before, snapshot(s.tmp)).filter((p) => !p.endsWith('.lock'));
      if (!cleanRefusal(r) || diff.length > 0)
        failures.push(`${c.name}: exit ${r.code} ${r.stderr.trim().slice(0, 200)}${diff.length ? ` changed ${diff.join(', ')}` : ''}`);
    });
    for (const f of failures) process.stderr.write(`FAIL ${f}\n`);
    printTable('symlinks and containment', [
      { test: 'symlinked outputs, outputs aimed at other artifacts, paths leading out of the project', tries: CASES.length, failures: failures.length },
    ]);
    expect(failures).toEqual([]);
  }, 300_000);
});
