import { describe, expect, it } from 'vitest';
import type { PlanVerdict } from '@okstra/schemas/implementation-planning';
import { aggregatePlanVerification, summarizePlanVerification } from './aggregate.js';
import { examplePlan } from './test-support/fixtures.js';

const agree = (w: string): PlanVerdict => ({ workerId: w, verdict: 'AGREE', breakageKind: null, fixability: null, basis: null });
const supplement = (w: string): PlanVerdict => ({ workerId: w, verdict: 'SUPPLEMENT', breakageKind: null, fixability: null, basis: 'more' });
const disagree = (w: string, fixability: PlanVerdict['fixability']): PlanVerdict => ({
  workerId: w,
  verdict: 'DISAGREE',
  breakageKind: 'b',
  fixability,
  basis: 'x',
});

describe('aggregatePlanVerification', () => {
  it('passed: only AGREE and SUPPLEMENT', () => {
    expect(
      aggregatePlanVerification([
        { id: 'P-Opt-1', verdicts: [agree('a'), supplement('b')] },
        { id: 'P-Opt-2', verdicts: [agree('a')] },
      ]),
    ).toBe('passed');
  });

  it('passed-with-dissent: every DISAGREE is in-place', () => {
    expect(
      aggregatePlanVerification([
        { id: 'P-Opt-1', verdicts: [agree('a'), disagree('b', 'in-place')] },
        { id: 'P-Opt-2', verdicts: [agree('a')] },
      ]),
    ).toBe('passed-with-dissent');
  });

  it('blocked-by-disagreement: one replan or needs-clarification DISAGREE, even beside AGREEs', () => {
    expect(aggregatePlanVerification([{ id: 'P-Opt-1', verdicts: [agree('a'), disagree('b', 'replan')] }])).toBe('blocked-by-disagreement');
    expect(aggregatePlanVerification([{ id: 'P-Opt-1', verdicts: [disagree('a', 'in-place'), disagree('b', 'needs-clarification')] }])).toBe(
      'blocked-by-disagreement',
    );
  });

  it('aborted-non-result: no items, or an item with no verdicts — before any blocking rule', () => {
    expect(aggregatePlanVerification([])).toBe('aborted-non-result');
    expect(
      aggregatePlanVerification([
        { id: 'P-Opt-1', verdicts: [] },
        { id: 'P-Opt-2', verdicts: [agree('a')] },
      ]),
    ).toBe('aborted-non-result');
    expect(aggregatePlanVerification([{ id: 'P-Opt-1' }, { id: 'P-Opt-2', verdicts: [disagree('a', 'replan')] }])).toBe('aborted-non-result');
  });

  it('summarizes the committed example: 44 AGREE, 4 SUPPLEMENT, 2 in-place dissent → passed-with-dissent', () => {
    const s = summarizePlanVerification(examplePlan().planBodyVerification!.planItems);
    expect(s).toEqual({ result: 'passed-with-dissent', items: 25, unverifiedItems: [], agree: 44, supplement: 4, dissent: 2, blocking: 0 });
    expect(examplePlan().planBodyVerification!.result).toBe(s.result);
  });
});
