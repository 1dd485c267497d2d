// Cold start of every bin (issue #39 targets), each against `node -e 0` measured in
// the same run, A/B interleaved (one baseline run, one command run, repeated) so
// machine load hits both sides alike. Every call is a fresh process: no tool keeps
// one running between calls (docs/release.md "No resident process").
// - `--help` / `--version` of every bin: wall ≤ 1.2×;
// - one small real command of every bin (bench/commands.bench.mjs `smallCommands`,
//   on a copy of examples/sample-project): wall ≤ 2×;
// - `okstra <tool> --version` ≤ 1.25× `okstra-<tool> --version`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ab, binPath } from './lib.mjs';
import { fixture, smallCommands, teamFixture } from './commands.bench.mjs';

export const title = 'cold start vs node -e 0 (median wall ms, A/B interleaved)';

const TOOLS = [
  ['okstra-convergence', 'convergence'],
  ['okstra-plan-items', 'plan-items'],
  ['okstra-worker-liveness', 'worker-liveness'],
  ['okstra-run-audit', 'run-audit'],
  ['okstra-team', 'team'],
];

export default async function () {
  const base = mkdtempSync(join(tmpdir(), 'okstra-bench-startup-'));
  const f = fixture(base);
  const team = teamFixture(base);
  const node = { args: ['-e', '0'] };
  const rows = [];
  try {
    for (const name of ['okstra', ...TOOLS.map(([bin]) => bin)]) {
      for (const flag of ['--help', '--version']) {
        const [baseMs, ms] = ab(node, { args: [binPath(name), flag] });
        rows.push({ name: `${name} ${flag}`, ms, baselineName: 'node -e 0', baselineMs: baseMs, target: 1.2 });
      }
    }
    for (const [label, name, , prefix, argv, extra] of smallCommands(base, f, team)) {
      const [baseMs, ms] = ab(node, { args: [binPath(name), ...prefix, ...argv], cwd: f.root, ...extra });
      rows.push({ name: label, ms, baselineName: 'node -e 0', baselineMs: baseMs, target: 2 });
    }
    for (const [bin, word] of TOOLS) {
      const [direct, via] = ab({ args: [binPath(bin), '--version'] }, { args: [binPath('okstra'), word, '--version'] });
      rows.push({ name: `okstra ${word} --version`, ms: via, baselineName: `${bin} --version`, baselineMs: direct, target: 1.25 });
    }
    return rows;
  } finally {
    team?.stop();
    rmSync(base, { recursive: true, force: true });
  }
}
