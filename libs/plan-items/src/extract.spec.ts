import { describe, expect, it } from 'vitest';
import { stableStringify } from '@okstra/core';
import { extractPlanItems } from './extract.js';
import { compareQueues, isSameQueue } from './compare.js';
import { examplePlan, parsePlan, rawPlan, stage } from './test-support/fixtures.js';

describe('extractPlanItems', () => {
  it('extracts the complete example queue in the documented order', () => {
    const ids = extractPlanItems(examplePlan()).map((i) => i.id);
    expect(ids).toEqual([
      'P-Opt-1',
      'P-Opt-2',
      'P-Step-1-1',
      'P-Step-1-2',
      'P-Step-1-3',
      'P-Dep-1-1',
      'P-Val-1-1',
      'P-Rb-1-1',
      'P-Step-2-1',
      'P-Step-2-2',
      'P-Step-2-3',
      'P-Step-2-4',
      'P-Dep-2-1',
      'P-Val-2-1',
      'P-Rb-2-1',
      'P-Step-3-1',
      'P-Step-3-2',
      'P-Step-3-3',
      'P-Dep-3-1',
      'P-Val-3-1',
      'P-Val-3-2',
      'P-Rb-3-1',
      'P-Step-4-1',
      'P-Step-4-2',
      'P-Val-4-1',
    ]);
  });

  it('records kind, stage, source path, clarification and the source row verbatim', () => {
    const items = extractPlanItems(examplePlan());
    const step = items.find((i) => i.id === 'P-Step-2-2')!;
    expect(step.kind).toBe('step');
    expect(step.stage).toBe(2);
    expect(step.source).toBe('implementationPlanning.stages[1].steps[1]');
    expect(step.clarificationId).toBe('C-004');
    expect(step.content.files).toEqual(['migrations/0031_refund_requests.sql', 'src/payments/refunds/refund-store.ts']);
    const option = items.find((i) => i.id === 'P-Opt-2')!;
    expect(option).toMatchObject({ kind: 'option', stage: null, clarificationId: 'C-002', source: 'implementationPlanning.options[1]' });
    expect(items.find((i) => i.id === 'P-Val-3-2')!.clarificationId).toBe('C-007');
    expect(items.find((i) => i.id === 'P-Rb-1-1')!.clarificationId).toBeNull();
  });

  it('orders stages by stage_number even when sections are written out of order', () => {
    const raw = rawPlan({ 2: [1], 1: [] });
    raw.stages = [stage(2), stage(1)];
    const items = extractPlanItems(parsePlan(raw));
    expect(items.map((i) => i.id).slice(0, 4)).toEqual(['P-Opt-1', 'P-Step-1-1', 'P-Step-1-2', 'P-Dep-1-1']);
    expect(items.find((i) => i.id === 'P-Step-1-1')!.source).toBe('implementationPlanning.stages[1].steps[0]');
  });

  it('is deterministic: same input, byte-identical queue', () => {
    expect(stableStringify(extractPlanItems(examplePlan()))).toBe(stableStringify(extractPlanItems(examplePlan())));
  });
});

describe('compareQueues', () => {
  it('finds missing, extra, changed and reordered items', () => {
    const fresh = extractPlanItems(examplePlan());
    const persisted = fresh
      .filter((i) => i.id !== 'P-Val-1-1')
      .map((i) => (i.id === 'P-Step-1-2' ? { ...i, content: { ...i.content, command: 'npm test' } } : i));
    persisted.push({ ...fresh[0], id: 'P-Opt-9' });
    [persisted[2], persisted[3]] = [persisted[3], persisted[2]];
    const diff = compareQueues(persisted, fresh);
    expect(diff.missing).toEqual(['P-Val-1-1']);
    expect(diff.extra).toEqual(['P-Opt-9']);
    expect(diff.changed).toEqual(['P-Step-1-2']);
    expect(diff.reordered).toEqual(['P-Step-1-1', 'P-Step-1-2']);
    expect(isSameQueue(diff)).toBe(false);
    expect(isSameQueue(compareQueues(fresh, extractPlanItems(examplePlan())))).toBe(true);
  });
});
