// A sample of the mutation generator through the built bin (issue #24 item 3): the
// bulk runs in-process (libs/audit-rules src/mutants.spec.ts); here every healthy run,
// every 8th mutant and every 6th legal variant are audited by dist/bin.js and must get
// the same verdict, run by run, as the library gives.
import { makeTempProject } from '@okstra/core/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { auditCases, generate, writeCases } from '@okstra/audit-rules/test-support/mutants';
import { runBin } from '../test-support/bin.js';

const all = generate();
const sample = all.filter((c, i) => c.kind === 'healthy' || (c.kind === 'mutant' && i % 8 === 0) || (c.kind === 'legal' && i % 6 === 0));
const project = makeTempProject('okstra-mutants-bin-');
afterAll(() => project.cleanup());

describe('the mutation generator through the built bin (a sample)', () => {
  it('the bin flags exactly the runs the library flags: every sampled mutant, no healthy or legal run', async () => {
    project.write('.okstra/project.json', { schemaVersion: '1.0', projectId: 'gen' });
    writeCases(project, sample);
    // --quiet: no progress lines over this many runs, so stderr holds only what went wrong
    const r = runBin(['run-audit', '--project-root', project.root, '--json', '--quiet'], { timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    const flagged = new Set<string>(JSON.parse(r.stdout).violations.map((v: { taskKey: string }) => v.taskKey.split(':')[2]));
    const lib = await auditCases(sample);
    lib.project.cleanup();
    const libFlagged = new Set([...lib.byCase].filter(([, v]) => v.length > 0).map(([id]) => id));
    expect([...flagged].sort()).toEqual([...libFlagged].sort());
    expect(sample.filter((c) => c.kind !== 'mutant' && flagged.has(c.id)).map((c) => c.id)).toEqual([]);
    const mutants = sample.filter((c) => c.kind === 'mutant');
    expect(mutants.length).toBeGreaterThan(50);
    console.log(
      `bin sample: ${mutants.filter((c) => flagged.has(c.id)).length}/${mutants.length} mutants flagged, ${sample.length - mutants.length} healthy/legal runs clean`,
    );
    // Writing and auditing a few hundred runs twice takes minutes on a loaded 2-core machine.
  }, 600_000);
});
