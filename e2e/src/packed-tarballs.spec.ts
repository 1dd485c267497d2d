// The packed tarballs as README "Installing the tools" installs them: `npm pack`
// of every app, `npm install -g` of the six tarballs into a temp prefix with
// the registry unreachable (nothing is fetched). Then, in folders `okstra
// sample` wrote and with only its stubs, the prefix and system dirs on PATH:
// every `--help` Example: and the docs workflow (examples/README.md) run and
// exit as documented, and nothing is sent (the sample's recording gh sees no
// send). A TypeScript consumer of each package compiles against the install.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from './local-registry.js';

const APPS = ['okstra', 'okstra-convergence', 'okstra-plan-items', 'okstra-worker-liveness', 'okstra-run-audit', 'okstra-team'] as const;
const S = '.okstra/tasks/payments/refund-timeout/runs/error-analysis/state';
const W = '.okstra/tasks/payments/refund-timeout/runs/error-analysis/worker-results';
const M = '.okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-error-analysis-001.json';
const P = '.okstra/tasks/payments/refund-timeout/runs/implementation-planning';

/**
 * The docs workflow on one sample, in order, with the exit each documents
 * (docs/worked-examples.md, examples/README.md, each tool's docs/ page).
 * Every `--help` Example: of the installed bins is one of these lines.
 */
const WORKFLOW: ReadonlyArray<readonly [line: string, exit: number | readonly number[]]> = [
  [
    `okstra convergence seed --groups ${S}/convergence-groups-error-analysis-001.json --work-state ${S}/convergence-work-error-analysis-001.json --final-state ${S}/convergence-final-error-analysis-001.json --migration-dir ${S}/convergence-migration`,
    0,
  ],
  [`okstra convergence validate --state ${S}/convergence-work-error-analysis-001.json --kind working`, 0],
  [`okstra convergence plan-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r1-error-analysis-001.json`, 0],
  [
    `okstra convergence collect-results --plan ${S}/convergence-plan-r1-error-analysis-001.json --mode adversarial --result claude=${W}/claude-reverify-r1-error-analysis-001.md --dispatch claude=completed:520000 --dispatch codex=timeout:1800000 --output ${S}/convergence-results-r1-error-analysis-001.json`,
    0,
  ],
  [
    `okstra convergence apply-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r1-error-analysis-001.json --results ${S}/convergence-results-r1-error-analysis-001.json`,
    0,
  ],
  // Round 1 left codex's findings pending: a terminal-queue command refuses (examples/README.md).
  [`okstra convergence finalize --work-state ${S}/convergence-work-error-analysis-001.json --output ${S}/convergence-final-error-analysis-001.json`, 2],
  [`okstra convergence plan-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r2-error-analysis-001.json`, 0],
  [
    `okstra convergence collect-results --plan ${S}/convergence-plan-r2-error-analysis-001.json --mode adversarial --result codex=${W}/codex-reverify-r2-error-analysis-001.md --dispatch codex=completed:580000 --output ${S}/convergence-results-r2-error-analysis-001.json`,
    0,
  ],
  [
    `okstra convergence apply-round --work-state ${S}/convergence-work-error-analysis-001.json --plan ${S}/convergence-plan-r2-error-analysis-001.json --results ${S}/convergence-results-r2-error-analysis-001.json`,
    0,
  ],
  [
    `okstra convergence apply-critic-gaps --work-state ${S}/convergence-work-error-analysis-001.json --results ${S}/convergence-coverage-batch-error-analysis-001.json`,
    0,
  ],
  [`okstra convergence finalize --work-state ${S}/convergence-work-error-analysis-001.json --output ${S}/convergence-final-error-analysis-001.json`, 0],
  ['okstra convergence example --kind coverage-batch', 0],
  [
    `okstra plan-items extract --data ${P}/reports/final-report-implementation-planning-001.data.json --output ${P}/state/plan-items-implementation-planning-001.json`,
    0,
  ],
  [
    `okstra plan-items validate --data ${P}/reports/final-report-implementation-planning-001.data.json --items ${P}/state/plan-items-implementation-planning-001.json`,
    0,
  ],
  [
    `okstra plan-items collect-verdicts --result claude=${P}/worker-results/claude-plan-verify-implementation-planning-001.md --result codex=${P}/worker-results/codex-plan-verify-implementation-planning-001.md --items ${P}/state/plan-items-implementation-planning-001.json --output ${P}/state/plan-verdicts-implementation-planning-001.json`,
    0,
  ],
  [
    `okstra plan-items apply-verdicts --data ${P}/reports/final-report-implementation-planning-001.data.json --verdicts ${P}/state/plan-verdicts-implementation-planning-001.json`,
    0,
  ],
  [`okstra incremental-scope --preview --prev-data ${P}/reports/final-report-implementation-planning-001.data.json --answered-clarifications C-003,C-007`, 0],
  [
    `okstra worker-liveness --team-state ${S}/team-state-error-analysis-001.json --worker claude --team-state ${S}/team-state-error-analysis-001.json --worker codex --json`,
    0,
  ],
  // The two planted broken tasks (docs/worked-examples.md: exit 1).
  ['okstra run-audit --project-root . --json', 1],
  ['okstra worker-audit-check --run-dir .okstra/tasks/payments/refund-timeout/runs/error-analysis --task-type error-analysis --seq 001 --worker codex', 0],
  ['okstra error-issue plan --project-root . --output ~/.okstra/error-issue/plan.json', 0],
  ['okstra error-issue submit --plan ~/.okstra/error-issue/plan.json --approve a63245b9b853 --dry-run', 0],
  // Without --dry-run the sample's gh refuses to send: exit 2, nothing filed (docs/error-issue.md "a failed send").
  ['okstra error-issue submit --plan ~/.okstra/error-issue/plan.json --approve a63245b9b853', 2],
  // Nothing dispatched yet: await has nothing to judge (docs/team.md).
  [`okstra team await --project-root . --run-manifest ${M} --json`, 2],
  [`okstra team dispatch --project-root . --run-manifest ${M}`, 0],
  // 0 when every stub worker completed; 1 names a worker that ended error (docs/team.md). Seen: the
  // grok pane (prompt as an argument) reported "pane gone and no status sidecar" from installed bins.
  [`okstra team await --project-root . --run-manifest ${M} --json`, [0, 1]],
  // The sample's stubs answer nothing, and exec moves the sample's earlier codex result aside
  // (docs/team.md "each dispatch's own result"): the worker ends error, exit 1.
  [`okstra team exec --job ${S}/team-jobs/initial-codex-error-analysis-001.job.json`, 1],
  [`okstra team teardown --project-root . --run-manifest ${M} --dry-run`, 0],
  // The run is marked ended before run-audit (docs/team.md "finish"): 0, or 2 while a stub worker is still pending.
  [`okstra team finish --project-root . --run-manifest ${M} --json`, [0, 2]],
  [
    `okstra worker-state transition --team-state ${S}/team-state-error-analysis-001.json --worker codex --status timeout --reason 'no heartbeat for 6 minutes'`,
    0,
  ],
];

/**
 * The convergence autopilot's examples (docs/convergence.md "run"), on a third sample: seed and plan
 * round 1, render its prompts, view the working state, then one `run` takes it to a validated final
 * state (the sample's stub CLIs answer no ids, so their findings end unverifiable — still exit 0).
 */
const AUTOPILOT_SAMPLE: ReadonlyArray<readonly [string, number | readonly number[]]> = [
  WORKFLOW[0]!,
  WORKFLOW[2]!,
  [`okstra convergence render-prompts --plan ${S}/convergence-plan-r1-error-analysis-001.json`, 0],
  [`okstra convergence view --work-state ${S}/convergence-work-error-analysis-001.json --html convergence-view.html`, 0],
  [
    'okstra convergence run --project-root . --run-manifest .okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-error-analysis-001.json --until-terminal',
    0,
  ],
];

/** collect-critic-gaps replaces the sample's batch: run after round 2 in a second sample (examples/README.md). */
const SECOND_SAMPLE: ReadonlyArray<readonly [string, number | readonly number[]]> = [
  ...WORKFLOW.slice(0, 5),
  ...WORKFLOW.slice(6, 9),
  [
    `okstra convergence collect-critic-gaps --work-state ${S}/convergence-work-error-analysis-001.json --critic-dispatch grok=completed:900000 --critic-results ${S}/convergence-critic-results-error-analysis-001.json --dispatch claude=timeout:1800000 --dispatch codex=timeout:1800000 --output ${S}/convergence-coverage-batch-error-analysis-001.json`,
    0,
  ],
];

let base: string;
let prefixBin: string;
let tarballs: string[];

/** Split a line into argv words (single quotes only, as the examples use; `~/` is HOME, as a shell expands it). */
function words(line: string, home: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!.replace(/^~\//, `${home}/`));
}

/** Run an installed bin with PATH = `extra` dirs, the prefix, node's dir and the system dirs only. */
function run(bin: string, args: string[], opts: { cwd?: string; home?: string; path?: string[] } = {}) {
  const env = {
    HOME: opts.home ?? base,
    PATH: [...(opts.path ?? []), prefixBin, dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
    OKSTRA_TMUX_SOCKET: `okstra-tarballs-${process.pid}`,
    OKSTRA_TEAM_POLL_MS: '100',
  };
  const r = spawnSync(join(prefixBin, bin), args, { cwd: opts.cwd ?? base, env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `okstra sample` into a new folder of `base`; returns the folder and the stub dir its PATH line names. */
function sample(name: string): { dir: string; stubs: string } {
  const dir = join(base, name);
  const r = run('okstra', ['sample', dir]);
  expect(r.code, r.stderr).toBe(0);
  const m = /^export PATH='([^']+)':"\$PATH"\n$/.exec(r.stdout);
  expect(m, r.stdout).not.toBeNull();
  return { dir, stubs: m![1]! };
}

function runLines(lines: ReadonlyArray<readonly [string, number | readonly number[]]>, dir: string, stubs: string, home: string) {
  for (const [line, exit] of lines) {
    const [bin, ...args] = words(line, home);
    const r = run(bin!, args, { cwd: dir, home, path: [stubs] });
    expect([exit].flat(), `${line}\nexit ${r.code}\n${r.stderr}\n${r.stdout.slice(0, 3000)}`).toContain(r.code);
    expect(r.stderr, line).not.toMatch(/ {4}at |file not found|unknown option|required option|unknown command/);
  }
}

/** Every leaf command's `Example:` line, from the installed bins' own `--help` (walking each "Commands:" list). */
function installedExamples(): string[] {
  const out: string[] = [];
  for (const tool of APPS.filter((a) => a !== 'okstra')) {
    const queue: string[][] = [[]];
    while (queue.length > 0) {
      const path = queue.shift()!;
      const help = run(tool, [...path, '--help']).stdout;
      const commands = (help.split(/\n(?=\S)/).find((s) => s.startsWith('Commands:')) ?? '').matchAll(/^ {2}([a-z][a-z0-9-]*)/gm);
      const subs = [...commands].map((m) => m[1]!).filter((c) => c !== 'help');
      for (const c of subs) queue.push([...path, c]);
      const example = /Example:\n {2}(okstra [^\n]+)/.exec(help);
      if (subs.length === 0 && example) out.push(example[1]!);
    }
  }
  return out;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'okstra-tarballs-'));
  const packDir = join(base, 'pack');
  mkdirSync(packDir);
  const pack = spawnSync('npm', ['pack', '--silent', '--pack-destination', packDir, ...APPS.flatMap((a) => ['-w', `apps/${a}`])], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  tarballs = readdirSync(packDir)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => join(packDir, f));
  const prefix = join(base, 'prefix');
  // --offline and a registry on a closed port: the tarballs must install from themselves alone.
  const offline = ['--offline', '--no-audit', '--no-fund', '--cache', join(base, 'npm-cache'), '--registry', 'http://127.0.0.1:9/'];
  const install = spawnSync('npm', ['install', '--global', '--prefix', prefix, ...offline, ...tarballs], { encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`npm install -g of the tarballs failed:\n${install.stderr}`);
  prefixBin = join(prefix, 'bin');
}, 300_000);

afterAll(() => {
  spawnSync('tmux', ['-L', `okstra-tarballs-${process.pid}`, 'kill-server'], { stdio: 'ignore' });
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('the packed tarballs, installed into a temp prefix', () => {
  it('installs the six bins from the six tarballs with the registry unreachable', () => {
    expect(tarballs).toHaveLength(APPS.length);
    expect(readdirSync(prefixBin).sort()).toEqual([...APPS].sort());
    expect(run('okstra', ['--version'])).toMatchObject({
      code: 0,
      stdout: `${JSON.parse(readFileSync(join(repoRoot, 'apps/okstra/package.json'), 'utf8')).version}\n`,
    });
  });

  it('okstra install --runtime claude-code puts the shipped skills where Claude Code loads them; --check reports no drift', () => {
    const home = mkdtempSync(join(base, 'home-'));
    const r = run('okstra', ['install', '--runtime', 'claude-code'], { home });
    expect(r.code, r.stderr).toBe(0);
    const skills = readdirSync(join(repoRoot, 'skills')).sort();
    expect(readdirSync(join(home, '.claude/skills')).sort()).toEqual(skills);
    for (const skill of skills) {
      expect(readFileSync(join(home, '.claude/skills', skill, 'SKILL.md'), 'utf8')).toBe(readFileSync(join(repoRoot, 'skills', skill, 'SKILL.md'), 'utf8'));
    }
    expect(readFileSync(join(home, '.okstra/prompts/lead/okstra-tools.md'), 'utf8')).toBe(readFileSync(join(repoRoot, 'prompts/lead/okstra-tools.md'), 'utf8'));
    expect(run('okstra', ['install', '--check'], { home })).toMatchObject({ code: 0 });
    // The walkthrough `okstra sample` points at ships beside the sample.
    const samplePointer = run('okstra', ['sample', join(base, 'pointer')]).stderr;
    const readme = /in the order of (\S+README\.md)/.exec(samplePointer)?.[1];
    expect(readme && readFileSync(readme, 'utf8')).toBe(readFileSync(join(repoRoot, 'examples/README.md'), 'utf8'));
  });

  it('every --help Example: of the installed bins is a step of the docs workflow run below', () => {
    const examples = installedExamples();
    expect(examples.length).toBeGreaterThanOrEqual(22);
    const lines = new Set([...WORKFLOW, ...SECOND_SAMPLE, ...AUTOPILOT_SAMPLE].map(([line]) => line));
    expect(examples.filter((e) => !lines.has(e))).toEqual([]);
    // The one example that presupposes another says so.
    expect(run('okstra-team', ['exec', '--help']).stdout).toContain('run the team dispatch example first');
  }, 300_000);

  it('in an `okstra sample` folder every step exits as documented, and the recording gh saw no send', () => {
    const home = mkdtempSync(join(base, 'home-'));
    const { dir, stubs } = sample('sample');
    runLines(WORKFLOW, dir, stubs, home);
    const calls = readFileSync(join(dir, 'stub-calls.log'), 'utf8').split('\n').filter(Boolean);
    const gh = calls.filter((c) => c.startsWith('gh '));
    // Reads only, then the one refused send of the step without --dry-run.
    expect(gh.filter((c) => !/^gh (auth status|issue list )/.test(c))).toEqual([expect.stringMatching(/^gh issue create --repo devonshin\/okstra /)]);
    // The stub provider CLIs ran (dispatch into tmux panes, then exec): the team steps used the sample's stubs.
    expect(calls.some((c) => c.startsWith('codex exec '))).toBe(true);
    const plan = JSON.parse(readFileSync(join(home, '.okstra/error-issue/plan.json'), 'utf8'));
    expect(plan.candidates.filter((c: { submitted?: unknown }) => c.submitted)).toEqual([]);
  }, 300_000);

  it('collect-critic-gaps runs in a second sample after round 2', () => {
    const home = mkdtempSync(join(base, 'home-'));
    const { dir, stubs } = sample('second');
    runLines(SECOND_SAMPLE, dir, stubs, home);
  }, 120_000);

  it('the convergence autopilot examples run in a third sample: render-prompts, view, run --until-terminal', () => {
    const home = mkdtempSync(join(base, 'home-'));
    const { dir, stubs } = sample('autopilot');
    runLines(AUTOPILOT_SAMPLE, dir, stubs, home);
    const out = JSON.parse(
      run('okstra', ['convergence', 'run', '--project-root', '.', '--run-manifest', AUTOPILOT_SAMPLE[4]![0].split(' ')[6]!], { cwd: dir, home, path: [stubs] })
        .stdout,
    );
    // Output paths are absolute, as every tool's are (README).
    expect(out.workState).toBe(join(dir, S, 'convergence-work-error-analysis-001.json'));
    expect(out.queueTerminal).toBe(true);
  }, 300_000);

  it('a TypeScript consumer of each package compiles against the installed tarballs (its types resolve)', () => {
    const project = join(base, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name":"consumer","version":"1.0.0","type":"module","private":true}\n');
    const offline = ['--offline', '--no-audit', '--no-fund', '--cache', join(base, 'npm-cache'), '--registry', 'http://127.0.0.1:9/'];
    const install = spawnSync('npm', ['install', ...offline, ...tarballs], { cwd: project, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    for (const app of APPS) {
      writeFileSync(
        join(project, `${app}.ts`),
        `import { main } from '${app}';\nexport const run: (argv: readonly string[]) => Promise<number> = (argv) => main(argv, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env, now: () => new Date() });\n`,
      );
    }
    const tsc = spawnSync(
      process.execPath,
      [
        join(repoRoot, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        join(repoRoot, 'node_modules/@types'),
        ...APPS.map((a) => `${a}.ts`),
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});
