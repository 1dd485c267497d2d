// The mutation generator's verdict (issue #24 item 3): every class applied to
// every healthy run it fits must be caught, every legal variant must stay silent,
// and every mutant that survives is listed with why in docs/run-audit.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { auditCases, CLASSES, generate, HEALTHY, LEGAL, type Generated } from './test-support/mutants/index.js';

const cases = generate();
const audited = await auditCases(cases);
afterAll(() => audited.project.cleanup());

const flagged = (c: Generated) => audited.byCase.get(c.id) ?? [];
const DOC = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'run-audit.md'), 'utf8');
const listed = DOC.slice(DOC.indexOf('### Surviving mutants'));

describe('the mutation generator', () => {
  it("has at least 100 classes, 3 per seed rule it covers, 40 legal variants, and the issue's healthy runs", () => {
    expect(CLASSES.length).toBeGreaterThanOrEqual(100);
    const perRule = new Map<string, number>();
    for (const c of CLASSES) perRule.set(c.rule, (perRule.get(c.rule) ?? 0) + 1);
    expect([...perRule].filter(([, n]) => n < 3)).toEqual([]);
    expect(LEGAL.length).toBeGreaterThanOrEqual(40);
    expect(HEALTHY.map((h) => h.id)).toEqual(
      expect.arrayContaining(['sample-ea', 'sample-plan', 'failed-logged', 'aborted', 'running', 'plan', 'multi-stage', 'redispatch', 'degraded', 'cmux']),
    );
    for (const c of CLASSES)
      expect(
        cases.some((g) => g.of === c.id),
        `${c.id} fits no healthy run`,
      ).toBe(true);
  });

  it('kills at least 95% of the mutants, raises no false alarm, and lists every survivor in docs/run-audit.md', () => {
    const mutants = cases.filter((c) => c.kind === 'mutant');
    const survivors = mutants.filter((c) => flagged(c).length === 0 || flagged(c).every((v) => v.startsWith('@')));
    const alarms = cases.filter((c) => c.kind !== 'mutant' && flagged(c).length > 0).map((c) => `${c.id}: ${flagged(c).join(' | ')}`);
    const killRate = (mutants.length - survivors.length) / mutants.length;
    const legal = cases.filter((c) => c.kind !== 'mutant').length;
    console.log(
      `mutant figures: ${JSON.stringify({ classes: CLASSES.length, mutants: mutants.length, killed: mutants.length - survivors.length, killRate: Number(killRate.toFixed(4)), legalCases: legal, falseAlarms: alarms.length })}\n` +
        `survivors: ${survivors.map((s) => s.id).join(' ')}\nfalse alarms:\n  ${alarms.join('\n  ')}`,
    );
    expect(alarms).toEqual([]);
    expect(survivors.filter((s) => !listed.includes(`\`${s.id}\``)).map((s) => s.id)).toEqual([]);
    expect(killRate).toBeGreaterThanOrEqual(0.95);
  });
});
