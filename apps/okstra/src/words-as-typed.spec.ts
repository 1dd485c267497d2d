// Refusals that name what is wrong, through the umbrella as a user types them (#27):
// a usage line as typed, a missing project root, a document of another kind.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBin } from '@okstra/core/test-support';

const bin = new URL('../dist/bin.js', import.meta.url).pathname;
const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';

function inSample(test: (dir: string, okstra: (args: string[]) => ReturnType<typeof runBin>) => void) {
  const base = mkdtempSync(join(tmpdir(), 'okstra-typed-'));
  try {
    const dir = join(base, 'sp');
    expect(runBin(bin, ['sample', dir]).code).toBe(0);
    test(dir, (args) => runBin(bin, args, { cwd: dir, env: { HOME: base, PATH: `${dir}/stub-bin:/usr/bin:/bin` } }));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

describe('as typed', () => {
  it('okstra team worker-state transition --help: the usage line names `okstra team worker-state transition`', () => {
    expect(runBin(bin, ['team', 'worker-state', 'transition', '--help']).stdout).toMatch(/^Usage: okstra team worker-state transition \[options\]\n/);
    expect(runBin(bin, ['worker-state', 'transition', '--help']).stdout).toMatch(/^Usage: okstra worker-state transition \[options\]\n/);
  });

  it('team await --project-root nope: the project root does not exist (not "escapes the project root"), exit 2', () => {
    inSample((dir, okstra) => {
      const r = okstra(['team', 'await', '--project-root', 'nope', '--run-manifest', `${RUN}/manifests/run-manifest-error-analysis-001.json`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`okstra team: ${dir}/nope: --project-root: project root does not exist or is not a directory\n`);
    });
  });

  it('a convergence working state given as --run-manifest is named as what it is, exit 2', () => {
    inSample((dir, okstra) => {
      const work = `${RUN}/state/convergence-work-error-analysis-001.json`;
      const seed = okstra([
        'convergence',
        'seed',
        '--groups',
        `${RUN}/state/convergence-groups-error-analysis-001.json`,
        '--work-state',
        work,
        '--final-state',
        `${RUN}/state/final.json`,
        '--migration-dir',
        `${RUN}/state/mig`,
      ]);
      expect(seed.code, seed.stderr).toBe(0);
      const r = okstra(['team', 'dispatch', '--dry-run', '--project-root', '.', '--run-manifest', work]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`okstra team: ${dir}/${work}: is a 'convergence-working-state' document (its "kind"); expected: okstra run-manifest\n`);
    });
  });
});
