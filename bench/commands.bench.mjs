// Real small commands of every bin (issue 17 targets), each against `node -e 0`
// measured in the same run, A/B interleaved (one baseline run, one command
// run, repeated) so machine load hits both sides alike:
// - a small real command of every bin: peak RSS ≤ 1.3× (its cold wall time is a
//   row of startup.bench.mjs, target ≤ 2×);
// - the umbrella: ≤ 1.1× the bin it runs, for the same command.
// Peak RSS comes from a `-r` preload that writes process.resourceUsage().maxRSS
// at exit (the baseline gets the same preload). Fixtures: a temp copy of
// examples/sample-project, deleted afterwards.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ab, binPath, median, once, repoRoot } from './lib.mjs';
import { teamProject, teamWorld } from './team-fixture.mjs';

export const title = 'real small commands vs node -e 0 (median wall ms; RSS rows in MB)';

const EA = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';
const IP = '.okstra/tasks/payments/refund-timeout/runs/implementation-planning';
const PRELOAD = `process.on('exit', () => require('node:fs').writeFileSync(process.env.OKSTRA_BENCH_RSS, String(process.resourceUsage().maxRSS)));`;

/** Median peak RSS (MB) of a command, through the preload. */
function rss(cmd, preload, scratch) {
  const out = join(scratch, 'rss.txt');
  const values = [0, 1, 2, 3, 4].map(() => {
    once(cmd.args, { ...cmd, env: { ...(cmd.env ?? process.env), OKSTRA_BENCH_RSS: out }, preload });
    return Number(readFileSync(out, 'utf8')) / 1024;
  });
  return median(values);
}

/** A copy of the sample project with the small inputs the commands read. */
export function fixture(base) {
  const root = join(base, 'sample-project');
  cpSync(join(repoRoot, 'examples', 'sample-project'), root, { recursive: true });
  const write = (rel, text) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  // convergence: a working state seeded from the sample groups.
  const conv = binPath('okstra-convergence');
  const s = `${EA}/state`;
  const seeded = spawnSync(
    process.execPath,
    [
      conv,
      'seed',
      '--groups',
      `${s}/convergence-groups-error-analysis-001.json`,
      '--work-state',
      `${s}/convergence-work-error-analysis-001.json`,
      '--final-state',
      `${s}/convergence-final-error-analysis-001.json`,
      '--migration-dir',
      `${s}/convergence-migration`,
    ],
    { cwd: root, encoding: 'utf8' },
  );
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  // worker-liveness: one in-progress worker heartbeating now.
  const now = new Date().toISOString();
  const sidecar = `${EA}/worker-results/claude-error-analysis-009.audit.md`;
  write(sidecar, `# Audit\n\n- PROGRESS: ${now} round-1 reading the packet\n\nNotes.\n`);
  write(
    `${EA}/state/team-state-error-analysis-009.json`,
    JSON.stringify({
      schemaVersion: '1.0',
      taskType: 'error-analysis',
      seq: '009',
      workers: [
        {
          workerId: 'claude',
          provider: 'claude',
          role: 'analyser',
          status: 'in-progress',
          startedAt: now,
          attempt: 1,
          livenessMode: 'audit-heartbeat',
          auditSidecarPath: sidecar,
        },
      ],
    }),
  );
  // error-issue plan: a private HOME and a gh stub that records its argv and answers at once.
  const home = join(base, 'home');
  const ghDir = join(base, 'gh-bin');
  mkdirSync(home, { recursive: true });
  mkdirSync(ghDir, { recursive: true });
  writeFileSync(join(ghDir, 'gh'), `#!/bin/sh\necho "$@" >> "${join(base, 'gh.log')}"\ncase "$1" in auth) exit 0;; issue) echo '[]'; exit 0;; esac\nexit 1\n`);
  chmodSync(join(ghDir, 'gh'), 0o755);
  return { root, home, ghEnv: { ...process.env, HOME: home, PATH: `${ghDir}:/usr/bin:/bin` } };
}

/** team await over finished workers: dispatch 2 stub jobs into a private tmux server and let them end. */
export function teamFixture(base) {
  if (spawnSync('tmux', ['-V']).status !== 0) return null;
  const { env, stop } = teamWorld(base, 'cmd');
  const { args } = teamProject(join(base, 'team-project'), 2, '001');
  for (const word of ['dispatch', 'await']) {
    const r = spawnSync(process.execPath, [binPath('okstra-team'), word, ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) {
      stop();
      throw new Error(`team ${word} failed: ${r.stderr}`);
    }
  }
  return { args, env, stop };
}

/**
 * The small real command of every bin, as [label, bin, umbrella word, argv prefix of the bin, argv, extra]
 * (`extra`: expected exit `code`, `env`), on the fixtures of {@link fixture} and {@link teamFixture}.
 */
export function smallCommands(base, f, team) {
  const st = `${EA}/state`;
  const commands = [
    [
      'convergence validate --kind working (sample, 6 findings)',
      'okstra-convergence',
      'convergence',
      [],
      ['validate', '--state', `${st}/convergence-work-error-analysis-001.json`, '--kind', 'working'],
    ],
    [
      'worker-liveness (1 worker, --stall-confirm 0)',
      'okstra-worker-liveness',
      'worker-liveness',
      [],
      ['--team-state', `${st}/team-state-error-analysis-009.json`, '--worker', 'claude', '--stall-confirm', '0'],
    ],
    ['run-audit run-audit on the sample', 'okstra-run-audit', 'run-audit', ['run-audit'], ['--project-root', '.', '--json'], { code: 1 }],
    [
      'plan-items extract on the sample',
      'okstra-plan-items',
      'plan-items',
      [],
      ['extract', '--data', `${IP}/reports/final-report-implementation-planning-001.data.json`, '--output', join(base, 'items.json')],
    ],
    [
      'error-issue plan (sample, recording gh stub)',
      'okstra-run-audit',
      'error-issue',
      ['error-issue'],
      ['plan', '--project-root', '.', '--output', join(base, 'plan.json')],
      { env: f.ghEnv },
    ],
  ];
  if (team) commands.push(['team await (2 finished workers)', 'okstra-team', 'team', [], ['await', ...team.args], { env: team.env }]);
  return commands;
}

export default async function () {
  const base = mkdtempSync(join(tmpdir(), 'okstra-bench-commands-'));
  const preload = join(base, 'preload.cjs');
  writeFileSync(preload, PRELOAD);
  const f = fixture(base);
  const team = teamFixture(base);
  const node = { args: ['-e', '0'] };
  const bin = (name, args, extra = {}) => ({ args: [binPath(name), ...args], cwd: f.root, ...extra });
  const via = (word, args, extra = {}) => ({ args: [binPath('okstra'), word, ...args], cwd: f.root, ...extra });
  const commands = smallCommands(base, f, team);
  const rows = [];
  try {
    const nodeRss = rss(node, preload, base);
    for (const [label, name, word, prefix, argv, extra] of commands) {
      const direct = bin(name, [...prefix, ...argv], extra);
      rows.push({ name: `${label}: peak RSS`, ms: rss(direct, preload, base), baselineName: 'node -e 0', baselineMs: nodeRss, target: 1.3, unit: 'MB' });
      const [binMs, viaMs] = ab(direct, via(word, argv, extra));
      rows.push({ name: `okstra ${word} … (same command)`, ms: viaMs, baselineName: name, baselineMs: binMs, target: 1.1 });
    }
    return rows;
  } finally {
    team?.stop();
    rmSync(base, { recursive: true, force: true });
  }
}
