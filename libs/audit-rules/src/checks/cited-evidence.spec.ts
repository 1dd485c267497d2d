import { afterEach, describe, expect, it } from 'vitest';
import { runAudit } from '../audit-project.js';
import { EA, makeCleanProject, validFinalState, type Project } from '../test-support/fixtures.js';

let project: Project;
afterEach(() => project?.cleanup());

/** The clean project with a final state whose one finding (F-003) is agreed with `evidence`, and a report naming it or not. */
function run(evidence: string[], o: { names?: boolean; sources?: boolean } = {}): Project {
  const p = makeCleanProject();
  const state = validFinalState() as { findings: Array<{ id: string; status: string; evidence: string[] }> };
  state.findings[0]!.status = 'agreed';
  state.findings[0]!.evidence = evidence;
  p.write(EA.final, state);
  p.write(
    EA.report,
    `---\ntitle: Refund timeout\napproved: false\n---\n\n# Final report\n\n${o.names === false ? 'The retry loop has no backoff.' : 'F-003: the retry loop has no backoff.'}\n`,
  );
  if (o.sources !== false) p.write('src/queue.ts', 'export const retries = 3;\nexport function retry() {}\n');
  return p;
}

const unheld = async (p: Project) => (await runAudit(p.root)).violations.filter((v) => v.invariant === 'citation-unheld');

describe('invariant 30 citation-unheld: the final report rests on no agreed finding whose citations all fail', () => {
  it('a named agreed finding whose every citation names no file or lines past the end is a violation naming each', async () => {
    project = run(['src/queue.ts:42', 'src/gone.ts:1']);
    const found = await unheld(project);
    expect(found.map((v) => v.message)).toEqual([
      'the final report rests on F-003, none of whose citations holds (src/queue.ts:42: out-of-range, src/gone.ts:1: missing; working tree)',
    ]);
  });

  it('one holding citation is enough; a finding the report does not name, or with no citation, is not this rule’s', async () => {
    project = run(['src/queue.ts:2', 'src/gone.ts:1']);
    expect(await unheld(project)).toEqual([]);
    project.cleanup();
    project = run(['src/gone.ts:1'], { names: false });
    expect(await unheld(project)).toEqual([]);
    project.cleanup();
    project = run([]);
    expect(await unheld(project)).toEqual([]);
  });

  it('a project with nothing outside .okstra/ is unchecked, not a violation', async () => {
    project = run(['src/gone.ts:1'], { sources: false });
    expect(await unheld(project)).toEqual([]);
  });
});
