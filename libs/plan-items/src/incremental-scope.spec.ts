import { describe, expect, it } from 'vitest';
import { blockedOn, decideScope, previewScope, resolveAnsweredIds } from './incremental-scope.js';
import { downstreamClosure } from './stage-graph.js';
import { examplePlan, parsePlan, rawPlan } from './test-support/fixtures.js';

const SHA = '3f9c2a71d0b4e8f6a5c3d2e1f0a9b8c7d6e5f4a3';

describe('downstreamClosure', () => {
  it('adds every transitive dependent', () => {
    const map = parsePlan(rawPlan({ 1: [], 2: [1], 3: [2], 4: [1], 5: [3, 4], 6: [] })).stageMap.stages;
    expect(downstreamClosure(map, [2])).toEqual([2, 3, 5]);
    expect(downstreamClosure(map, [1])).toEqual([1, 2, 3, 4, 5]);
    expect(downstreamClosure(map, [6, 99])).toEqual([6]);
    expect(downstreamClosure(map, [])).toEqual([]);
  });
});

describe('link resolution on the example report', () => {
  it('resolves through plan items (clarificationId) and requirement rows (status and approvalDisposition)', () => {
    const r = resolveAnsweredIds(examplePlan(), ['C-004', 'C-007', 'C-002', 'C-099']);
    expect(r.stagesById.get('C-004')).toEqual([2]); // P-Step-2-2 and R-4 "blocked C-004"
    expect(r.stagesById.get('C-007')).toEqual([3]); // P-Val-3-2 and the documented-deviation row R-3
    expect(r.unlinkedIds).toEqual(['C-002', 'C-099']); // C-002 is carried only by an option: no stage
  });

  it('reads "blocked" ids out of status / approvalDisposition cells', () => {
    expect(blockedOn('blocked C-004')).toEqual(['C-004']);
    expect(blockedOn('documented-deviation — blocked on C-007 and PREP-2')).toEqual(['C-007', 'PREP-2']);
    expect(blockedOn('covered (see C-004)')).toEqual([]);
    expect(blockedOn(null)).toEqual([]);
  });

  it('a documented-deviation row alone links its id', () => {
    const plan = parsePlan(
      rawPlan(
        { 1: [], 2: [1], 3: [] },
        {
          requirementCoverage: [{ requirementId: 'R-1', stages: [3], status: 'covered', approvalDisposition: 'documented-deviation (blocked C-011)' }],
        },
      ),
    );
    expect(resolveAnsweredIds(plan, ['C-011']).stagesById.get('C-011')).toEqual([3]);
  });
});

describe('decideScope', () => {
  const plan = examplePlan();
  const base = { plan, answeredIds: [] as string[], impacted: [] as number[] };

  it('incremental when the SHA is unchanged and the closure covers at most half', () => {
    expect(decideScope({ ...base, answeredIds: ['C-004'], baseSha: SHA })).toEqual({
      mode: 'incremental',
      reverifyStages: [2, 3],
      reason: 'downstream closure covers 2 of 4 stages (at most half)',
      unlinkedIds: [],
    });
    expect(decideScope({ ...base, answeredIds: ['C-007'], baseSha: SHA.toUpperCase() }).reverifyStages).toEqual([3]);
  });

  it('full when the closure covers more than half (stage 1 reaches everything)', () => {
    expect(decideScope({ ...base, impacted: [1], baseSha: SHA })).toEqual({
      mode: 'full',
      reverifyStages: [1, 2, 3, 4],
      reason: 'downstream closure covers 4 of 4 stages (more than half)',
      unlinkedIds: [],
    });
  });

  it('full when the base SHA changed', () => {
    expect(decideScope({ ...base, answeredIds: ['C-007'], baseSha: 'b'.repeat(40) }).reason).toBe(`base SHA changed: ${SHA} -> ${'b'.repeat(40)}`);
  });

  it('full with three distinct reasons: unlinked id, --full-reason, nothing resolved', () => {
    const unlinked = decideScope({ ...base, answeredIds: ['C-007', 'C-002'], baseSha: SHA });
    const declared = decideScope({ ...base, answeredIds: ['C-007'], fullReason: 'C-007 replaces the outbox with a saga', baseSha: SHA });
    const nothing = decideScope({ ...base, baseSha: SHA });
    expect(unlinked).toMatchObject({ mode: 'full', reason: 'answered ids trace to no stage in the prior report: C-002', unlinkedIds: ['C-002'] });
    expect(declared).toMatchObject({ mode: 'full', reason: 'full re-run declared: C-007 replaces the outbox with a saga' });
    expect(nothing).toMatchObject({ mode: 'full', reason: 'no impacted stages resolved' });
    expect(new Set([unlinked.reason, declared.reason, nothing.reason]).size).toBe(3);
  });

  it('full when the prior report records no base SHA', () => {
    const noSha = parsePlan(rawPlan({ 1: [], 2: [], 3: [] }, { baseRef: null }));
    expect(decideScope({ plan: noSha, answeredIds: [], impacted: [1], baseSha: SHA }).reason).toMatch(/records no base SHA/);
  });
});

describe('previewScope', () => {
  const plan = examplePlan();
  it('reports the link half without a SHA', () => {
    expect(previewScope({ plan, answeredIds: ['C-004', 'C-007'], impacted: [] })).toEqual({
      wouldForceFull: false,
      unlinkedIds: [],
      reason: 'downstream closure covers 2 of 4 stages (at most half): stages 2, 3 if the base SHA is unchanged',
    });
    expect(previewScope({ plan, answeredIds: ['C-002'], impacted: [] })).toEqual({
      wouldForceFull: true,
      unlinkedIds: ['C-002'],
      reason: 'answered ids trace to no stage in the prior report: C-002',
    });
    expect(previewScope({ plan, answeredIds: [], impacted: [] }).reason).toBe('no impacted stages resolved');
  });
});
