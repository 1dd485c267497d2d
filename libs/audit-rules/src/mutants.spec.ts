// The mutation generator's verdict (issue #24 item 3): every class applied to
// every healthy run it fits must be caught, every legal variant must stay silent,
// and every mutant that survives is listed with why in docs/run-audit.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FACT_EDGES } from './facts/table.js';
import { auditCases, CLASSES, EDGE_CLASSES, generate, HEALTHY, LEGAL, UNCAUGHT, type Generated } from './test-support/mutants/index.js';

const cases = generate();
const audited = await auditCases(cases);
// Removing a few thousand generated tasks takes minutes on a loaded machine: not a hook of the default 120 s.
afterAll(() => audited.project.cleanup(), 900_000);

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
    const alarms = cases.filter((c) => (c.kind === 'legal' || c.kind === 'healthy') && flagged(c).length > 0).map((c) => `${c.id}: ${flagged(c).join(' | ')}`);
    const killRate = (mutants.length - survivors.length) / mutants.length;
    const legal = cases.filter((c) => c.kind === 'legal' || c.kind === 'healthy').length;
    console.log(
      `mutant figures: ${JSON.stringify({ classes: CLASSES.length, mutants: mutants.length, killed: mutants.length - survivors.length, killRate: Number(killRate.toFixed(4)), legalCases: legal, falseAlarms: alarms.length })}\n` +
        `survivors: ${survivors.map((s) => s.id).join(' ')}\nfalse alarms:\n  ${alarms.join('\n  ')}`,
    );
    expect(alarms).toEqual([]);
    expect(survivors.filter((s) => !listed.includes(`\`${s.id}\``)).map((s) => s.id)).toEqual([]);
    expect(killRate).toBeGreaterThanOrEqual(0.95);
  });
});

describe("the generator's fact-edge mutants (issue #38)", () => {
  const edgeMutants = cases.filter((c) => c.kind === 'edge');
  const killed = (c: Generated) => flagged(c).some((v) => !v.startsWith('@'));
  // A dropped end is visible when the audit lists an unchecked comparison its healthy run did not have.
  const listed = (c: Generated) => {
    const before = new Set(audited.uncheckedByCase.get(`h--${c.healthy}`) ?? []);
    return (audited.uncheckedByCase.get(c.id) ?? []).some((u) => !before.has(u));
  };
  const why = (c: Generated) => UNCAUGHT[`${c.of.replace(/^edge-/, '')}--${c.healthy}`] ?? UNCAUGHT[c.of.replace(/^edge-/, '')];

  it('changes, drops and swaps every edge it can on every healthy run; reports edge coverage beside the kill rate; explains every mutant left uncaught', () => {
    const caught = edgeMutants.filter(killed);
    const visible = edgeMutants.filter((c) => !killed(c) && c.edge!.kind === 'drop' && listed(c));
    const uncaught = edgeMutants.filter((c) => !killed(c) && !visible.includes(c));
    const mutated = new Set(edgeMutants.map((c) => c.edge!.id));
    const checked = new Set(caught.map((c) => c.edge!.id));
    const contradicting = edgeMutants.filter((c) => c.edge!.kind !== 'drop');
    console.log(
      `edge figures: ${JSON.stringify({
        edgesInTable: FACT_EDGES.length,
        edgesMutated: mutated.size,
        edgesChecked: checked.size,
        edgeCoverage: Number((checked.size / FACT_EDGES.length).toFixed(4)),
        edgeMutants: edgeMutants.length,
        killed: caught.length,
        killRate: Number((contradicting.filter(killed).length / contradicting.length).toFixed(4)),
        dropsListedUnchecked: visible.length,
        uncaught: uncaught.length,
      })}\n` +
        `edges never mutated (no healthy run records both ends): ${FACT_EDGES.filter((e) => !mutated.has(e.id))
          .map((e) => e.id)
          .join(' ')}\n` +
        `uncaught edge mutants:\n  ${uncaught.map((c) => `${c.id}: ${why(c) ?? '(no reason given)'}`).join('\n  ')}`,
    );
    expect(EDGE_CLASSES.length).toBeGreaterThanOrEqual(FACT_EDGES.length * 3);
    expect(uncaught.filter((c) => !why(c)).map((c) => c.id)).toEqual([]);
  });
});
