// The implementationPlanning schema (libs/schemas/src/implementation-planning.ts)
// refuses data that breaks the profile's rules; tested here beside its only reader.
import { describe, expect, it } from 'vitest';
import { ImplementationPlanningReportData } from '@okstra/schemas/implementation-planning';
import { exampleRaw, rawPlan, stage } from './test-support/fixtures.js';

function firstIssue(plan: Record<string, unknown>): { path: string; message: string } | null {
  const r = ImplementationPlanningReportData.safeParse({ implementationPlanning: plan });
  if (r.success) return null;
  const issue = r.error.issues[0];
  return { path: issue.path.join('.'), message: issue.message };
}

function withStep(n: number, patch: Record<string, unknown>, index = 0, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const s = stage(1, n, extra);
  (s.steps as Array<Record<string, unknown>>)[index] = { ...(s.steps as Array<Record<string, unknown>>)[index], ...patch };
  return rawPlan({ 1: [] }, {}, { 1: s });
}

describe('ImplementationPlanning schema', () => {
  it('accepts the committed example data.json', () => {
    expect(ImplementationPlanningReportData.safeParse(exampleRaw()).success).toBe(true);
  });

  it('refuses a RED: step whose outcome is PASS', () => {
    expect(firstIssue(withStep(2, { outcome: 'PASS' }, 0))).toEqual({
      path: 'implementationPlanning.stages.0.steps.0.outcome',
      message: 'a RED: step must have outcome FAIL, got PASS',
    });
  });

  it('refuses a GREEN: step whose outcome is FAIL', () => {
    expect(firstIssue(withStep(2, { outcome: 'FAIL' }, 1))).toEqual({
      path: 'implementationPlanning.stages.0.steps.1.outcome',
      message: 'a GREEN: step must have outcome PASS, got FAIL',
    });
  });

  it('refuses an outcome that is not one word PASS/FAIL', () => {
    expect(firstIssue(withStep(2, { outcome: 'fails' }, 0))?.path).toBe('implementationPlanning.stages.0.steps.0.outcome');
  });

  it('requires RED first and a later GREEN unless the stage declares a TDD exemption', () => {
    expect(firstIssue(withStep(2, { action: 'Write the code' }, 0))?.message).toMatch(/first step must start with "RED:"/);
    expect(firstIssue(withStep(2, { action: 'Wire it up' }, 1))?.message).toMatch(/must start with "GREEN:"/);
    expect(firstIssue(withStep(2, { action: 'Write the doc', outcome: 'PASS' }, 0, { tddExemption: 'doc-only' }))).toBeNull();
    expect(firstIssue(withStep(2, { action: 'Write the doc' }, 0, { tddExemption: 'too-small' }))?.path).toBe('implementationPlanning.stages.0.tddExemption');
  });

  it('allows at most 8 effective steps and numbers them 1..n', () => {
    expect(firstIssue(rawPlan({ 1: [] }, {}, { 1: stage(1, 8) }))).toBeNull();
    expect(firstIssue(rawPlan({ 1: [] }, {}, { 1: stage(1, 9) }))?.message).toMatch(/at most 8/);
    expect(firstIssue(withStep(3, { step: 5 }, 2))?.message).toBe('expected step 3 (steps are numbered 1..n in order), got 5');
  });

  it('checks the Stage Map against the sections: unknown dependency, cycle, step_count, missing section', () => {
    expect(firstIssue(rawPlan({ 1: [], 2: [7] }))?.message).toBe('stage 2 depends on unknown stage 7');
    expect(firstIssue(rawPlan({ 1: [3], 2: [1], 3: [2] }))?.message).toBe('depends_on has a cycle through stages 1 → 3 → 2 → 1');
    const plan = rawPlan({ 1: [], 2: [1] });
    (plan.stageMap as { stages: Array<{ step_count: number }> }).stages[1].step_count = 5;
    expect(firstIssue(plan)?.message).toBe('stage 2 has 2 steps but the Stage Map says step_count 5');
    const missing = rawPlan({ 1: [], 2: [1] });
    (missing.stages as unknown[]).pop();
    expect(firstIssue(missing)?.message).toBe('Stage Map stage 2 has no stage section');
  });

  it('refuses a DISAGREE verdict row without kind or fixability, and a malformed clarification id', () => {
    const plan = rawPlan(
      { 1: [] },
      {
        planBodyVerification: {
          result: null,
          planItems: [{ id: 'P-Opt-1', verdicts: [{ workerId: 'codex', verdict: 'DISAGREE', breakageKind: 'b', fixability: null, basis: null }] }],
        },
      },
    );
    expect(firstIssue(plan)?.message).toBe('a DISAGREE needs a breakage kind and a fixability value');
    expect(firstIssue(rawPlan({ 1: [] }, { options: [{ title: 'x', clarificationId: 'clarify-4' }] }))?.path).toBe(
      'implementationPlanning.options.0.clarificationId',
    );
  });
});
