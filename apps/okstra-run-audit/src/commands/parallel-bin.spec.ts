// The parallel audit (libs/audit-rules parallel/pool.ts) through the built bin: a
// project of more than PARALLEL_AFTER runs is audited by worker threads too, and
// must give byte for byte what one thread gives, at every worker count, also when
// an artifact a worker thread meets is a FIFO.
import { makeTempProject } from '@okstra/core/test-support';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, writeCases } from '@okstra/audit-rules/test-support/mutants';
import { PARALLEL_AFTER } from '@okstra/audit-rules';
import { runBin } from '../test-support/bin.js';

// Every healthy run, every 5th mutant and every 4th legal variant: about 360 runs, violations spread over all batches.
const cases = generate().filter((c, i) => c.kind === 'healthy' || (c.kind === 'mutant' && i % 5 === 0) || (c.kind === 'legal' && i % 4 === 0));
const project = makeTempProject('okstra-parallel-bin-');
project.write('.okstra/project.json', { schemaVersion: '1.0', projectId: 'gen' });
writeCases(project, cases);
afterAll(() => project.cleanup());

/** The bin's output; a time-in-future message counts seconds from the audit's own clock, which moves between runs. */
const audit = (workers: string) => {
  const r = runBin(['run-audit', '--project-root', project.root, '--json'], { env: { OKSTRA_AUDIT_WORKERS: workers }, timeoutMs: 120_000 });
  return { ...r, stdout: r.stdout.replace(/\d+ s after the audit's clock/g, "N s after the audit's clock") };
};

describe('run-audit of a large project in worker threads (built bin)', () => {
  it('gives the one-thread report byte for byte with 1 and 3 workers', () => {
    const one = audit('0');
    const report = JSON.parse(one.stdout);
    expect(report.runsScanned).toBeGreaterThan(PARALLEL_AFTER + 50);
    expect(report.violations.length).toBeGreaterThan(50);
    for (const workers of ['1', '3']) expect(audit(workers)).toEqual(one);
    // Three audits of a few hundred runs take minutes on a loaded 2-core machine.
  }, 600_000);

  it('a FIFO late in the scan is the same artifact-invalid violation, not a hang', () => {
    // A worker result of a run past the first batches that the audit reads for sure: the last legal variant of the
    // fixture's completed error analysis (a mutant may delete the file or stop the run being judged; which case lies
    // at a fixed index moves whenever a class or variant is added).
    const late = cases
      .filter(
        (c) =>
          c.kind === 'legal' &&
          c.healthy === 'ea' &&
          c.model.taskGroup === 'gen' &&
          c.model.has(`${c.model.main.dir}/worker-results/claude-error-analysis-001.md`),
      )
      .map((c) => `${c.id}${c.model.taskIdSuffix}`)
      .sort()
      .at(-1)!;
    const target = join(project.root, '.okstra/tasks/gen', late, 'runs/error-analysis/worker-results/claude-error-analysis-001.md');
    rmSync(target);
    execFileSync('mkfifo', [target]);
    const one = audit('0');
    expect(one.code).toBe(1);
    expect(JSON.parse(one.stdout).violations.map((v: { message: string }) => v.message)).toContainEqual(expect.stringContaining('is not a regular file'));
    for (const workers of ['1']) expect(audit(workers)).toEqual(one);
  }, 600_000);
});
