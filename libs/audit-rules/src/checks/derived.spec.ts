// Invariant 29 `derived-mismatch` (issue #24 item 2, "derived documents match their sources"):
// each derived class is caught by invariant 29 itself, each legal neighbour stays silent.
import { afterAll, describe, expect, it } from 'vitest';
import { CONVERGENCE_DERIVED_CLASSES, DERIVED_CLASSES, DERIVED_LEGAL } from '../test-support/mutants/classes-derived.js';
import { HEALTHY } from '../test-support/mutants/healthy.js';
import { auditCases, type GeneratedCase } from '../test-support/mutants/index.js';

const cases: Array<GeneratedCase & { of: string; legal: boolean }> = [];
for (const h of HEALTHY) {
  const base = h.build();
  for (const c of [...DERIVED_CLASSES, ...CONVERGENCE_DERIVED_CLASSES, ...DERIVED_LEGAL]) {
    const m = base.clone();
    if (c.apply(m)) cases.push({ id: `${c.id}--${h.id}`, model: m, of: c.id, legal: !('rule' in c) });
  }
}
const audited = await auditCases(cases);
afterAll(() => audited.project.cleanup());

describe('invariant 29 derived-mismatch', () => {
  it.each([...DERIVED_CLASSES, ...CONVERGENCE_DERIVED_CLASSES].map((c) => c.id))('%s is caught as derived-mismatch', (id) => {
    const mine = cases.filter((c) => c.of === id);
    expect(mine.length).toBeGreaterThan(0);
    for (const c of mine)
      expect(
        audited.byCase.get(c.id)!.filter((v) => v.startsWith('derived-mismatch: ')),
        audited.byCase.get(c.id)!.join(' / '),
      ).not.toEqual([]);
  });

  it.each(DERIVED_LEGAL.map((c) => c.id))('legal %s audits clean', (id) => {
    const mine = cases.filter((c) => c.of === id);
    expect(mine.length).toBeGreaterThan(0);
    for (const c of mine) expect(audited.byCase.get(c.id)).toEqual([]);
  });

  it('names the item, the worker, both values and the response file', () => {
    const [flipped] = cases.filter((c) => c.of === 'd-s19-response-vote-flipped');
    expect(audited.byCase.get(flipped!.id)).toContainEqual(
      expect.stringMatching(/^derived-mismatch: plan item P-[\w-]+: data\.json records worker '\w+' AGREE but \w+-plan-verify-[\w-]+\.md says SUPPLEMENT$/),
    );
  });
});
