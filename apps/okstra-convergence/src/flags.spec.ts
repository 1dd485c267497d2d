// Flags as a caller expects them (#27): --json on collect-critic-gaps like every command, `--output -`
// refused naming the option, and collect-results' --mode taken from the plan when not given.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, copyExamples, ok, removeTempDirs, snapshot } from './test-support/bin.js';

afterAll(removeTempDirs);

const S = 'state';
const W = 'worker-results';
const work = `${S}/convergence-work-error-analysis-001.json`;

/** The sample run seeded and planned for round 1 (cwd = the run dir, so paths stay short). */
function seeded(): string {
  const run = copyExamples();
  ok(
    [
      'seed',
      '--groups',
      `${S}/convergence-groups-error-analysis-001.json`,
      '--work-state',
      work,
      '--final-state',
      `${S}/final.json`,
      '--migration-dir',
      `${S}/mig`,
    ],
    run,
  );
  ok(['plan-round', '--work-state', work, '--plan', `${S}/plan-r1.json`], run);
  return run;
}

const collectR1 = (mode: string[]) => [
  'collect-results',
  '--plan',
  `${S}/plan-r1.json`,
  ...mode,
  '--result',
  `claude=${W}/claude-reverify-r1-error-analysis-001.md`,
  '--dispatch',
  'claude=completed:520000',
  '--dispatch',
  'codex=timeout:1800000',
  '--output',
  '-',
];

describe('okstra-convergence flags', () => {
  it("collect-results without --mode reads the plan's mode: the same document as --mode adversarial", () => {
    const run = seeded();
    const implicit = cli(collectR1([]), run);
    expect(implicit.code, implicit.stderr).toBe(0);
    expect(implicit.stdout).toBe(cli(collectR1(['--mode', 'adversarial']), run).stdout);
    expect(JSON.parse(implicit.stdout).mode).toBe('adversarial');
    const other = cli(collectR1(['--mode', 'collaborative']), run);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--mode collaborative differs from the plan's mode 'adversarial'/);
  });

  it('collect-critic-gaps accepts --json, as every other command does', () => {
    const run = seeded();
    const r = cli(['collect-critic-gaps', '--json', '--work-state', work, '--critic-dispatch', 'grok=completed:900000', '--output', `${S}/batch.json`], run);
    // Refused for the sample's data (round 1 is not applied), never for the flag.
    expect(r.stderr).not.toMatch(/unknown option/);
  });

  it('finalize --output - is refused naming --output, nothing written', () => {
    const run = seeded();
    const before = snapshot(run);
    const r = cli(['finalize', '--work-state', work, '--output', '-'], run);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^okstra-convergence: --output: '-' \(stdin\/stdout\) is accepted only for a document input or output; --output names a file/);
    expect(snapshot(run)).toEqual(before);
    expect(readFileSync(join(run, work), 'utf8')).toContain('"kind"');
  });
});
