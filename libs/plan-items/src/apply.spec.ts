import { describe, expect, it } from 'vitest';
import type { PlanVerdictsEnvelope } from '@okstra/schemas/plan-verdicts';
import { applyVerdicts } from './apply.js';
import { exampleRaw } from './test-support/fixtures.js';

type Rows = Array<{ id: string; verdicts: unknown[] }>;
const rowsOf = (data: Record<string, unknown>) =>
  (data.implementationPlanning as Record<string, unknown>).planBodyVerification as { planItems: Rows; result: string; contributors: string[] };

const envelope = (items: PlanVerdictsEnvelope['items'], contributors = ['codex']): PlanVerdictsEnvelope => ({ schemaVersion: '1.0', contributors, items });
const v = (verdict: 'AGREE' | 'DISAGREE', extra: Record<string, unknown> = {}) =>
  ({ workerId: 'codex', verdict, breakageKind: null, fixability: null, basis: null, ...extra }) as never;

describe('applyVerdicts', () => {
  it('overwrites every row: the previous round never survives, absent items end with none', () => {
    const raw = exampleRaw();
    const out = applyVerdicts(raw, envelope([{ id: 'P-Opt-1', verdicts: [v('AGREE')] }]));
    const pbv = rowsOf(out.data);
    expect(pbv.planItems[0].verdicts).toEqual([{ workerId: 'codex', verdict: 'AGREE', breakageKind: null, fixability: null, basis: null }]);
    expect(pbv.planItems.slice(1).every((r) => r.verdicts.length === 0)).toBe(true);
    expect(pbv.result).toBe('aborted-non-result');
    expect(pbv.contributors).toEqual(['codex']);
    expect(out).toMatchObject({ result: 'aborted-non-result', itemsWithVerdicts: 1, rows: 25 });
    // the input is not mutated
    expect(rowsOf(raw).planItems[1].verdicts).toHaveLength(2);
  });

  it('sets the aggregate of the new verdicts', () => {
    const raw = exampleRaw();
    const ids = rowsOf(raw).planItems.map((r) => r.id);
    const items = ids.map((id) => ({
      id,
      verdicts: [id === 'P-Step-2-2' ? v('DISAGREE', { breakageKind: 'c', fixability: 'replan', basis: 'needs stage 3 first' }) : v('AGREE')],
    }));
    expect(applyVerdicts(raw, envelope(items)).result).toBe('blocked-by-disagreement');
  });

  it('keeps every other value and the key order of the document', () => {
    const raw = exampleRaw();
    const ids = rowsOf(raw).planItems.map((r) => r.id);
    const out = applyVerdicts(raw, envelope(ids.map((id) => ({ id, verdicts: [v('AGREE')] }))));
    expect(Object.keys(out.data)).toEqual(Object.keys(raw));
    const strip = (d: Record<string, unknown>) => {
      const c = structuredClone(d);
      const p = rowsOf(c);
      p.planItems.forEach((r) => (r.verdicts = []));
      p.result = '';
      p.contributors = [];
      return JSON.stringify(c);
    };
    expect(strip(out.data)).toBe(strip(raw));
  });

  it('refuses an incoming item with no row, naming every such id', () => {
    expect(() =>
      applyVerdicts(
        exampleRaw(),
        envelope([
          { id: 'P-Step-9-1', verdicts: [] },
          { id: 'P-Opt-7', verdicts: [] },
        ]),
        'data.json',
      ),
    ).toThrow(
      expect.objectContaining({
        file: 'data.json',
        field: 'implementationPlanning.planBodyVerification.planItems',
        message: 'the report carries no row for incoming items P-Step-9-1, P-Opt-7',
      }),
    );
  });

  it('refuses a report with no planBodyVerification', () => {
    const raw = exampleRaw();
    delete (raw.implementationPlanning as Record<string, unknown>).planBodyVerification;
    expect(() => applyVerdicts(raw, envelope([]))).toThrow(/no plan item rows/);
  });
});
