// Test fixtures: the committed example run (real files) and a small plan builder.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ImplementationPlanningReportData, type ImplementationPlanning } from '@okstra/schemas/implementation-planning';

export const EXAMPLE_RUN = fileURLToPath(
  new URL('../../../../examples/sample-project/.okstra/tasks/payments/refund-timeout/runs/implementation-planning/', import.meta.url),
);
export const EXAMPLE_DATA = `${EXAMPLE_RUN}reports/final-report-implementation-planning-001.data.json`;
export const EXAMPLE_CLAUDE = `${EXAMPLE_RUN}worker-results/claude-plan-verify-implementation-planning-001.md`;
export const EXAMPLE_CODEX = `${EXAMPLE_RUN}worker-results/codex-plan-verify-implementation-planning-001.md`;

/** The example report data.json, raw. */
export function exampleRaw(): Record<string, unknown> {
  return JSON.parse(readFileSync(EXAMPLE_DATA, 'utf8')) as Record<string, unknown>;
}

/** The example's parsed `implementationPlanning`. */
export function examplePlan(): ImplementationPlanning {
  return ImplementationPlanningReportData.parse(exampleRaw()).implementationPlanning;
}

/** A valid RED/GREEN stage section with `steps` steps (≥ 2) and one entry of each list. */
export function stage(n: number, steps = 2, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const rows = Array.from({ length: steps }, (_, i) => ({
    step: i + 1,
    action: i === 0 ? `RED: failing test for stage ${n}` : i === 1 ? `GREEN: implement stage ${n}` : `REFACTOR: tidy stage ${n} part ${i}`,
    files: [`src/stage${n}/file${i}.ts`],
    command: 'npx vitest run',
    outcome: i === 0 ? 'FAIL' : 'PASS',
    expected: i === 0 ? 'the new test fails' : 'the suite passes',
  }));
  return {
    stage_number: n,
    title: `Stage ${n}`,
    steps: rows,
    dependencies: [{ description: `dependency of stage ${n}` }],
    validation: [{ description: `validation of stage ${n}` }],
    rollback: [{ description: `rollback of stage ${n}` }],
    ...extra,
  };
}

/**
 * A raw implementationPlanning section: `deps` maps stage number → depends_on.
 * Stage sections come from {@link stage} unless given in `sections`.
 */
export function rawPlan(
  deps: Record<number, number[]>,
  more: Record<string, unknown> = {},
  sections: Record<number, Record<string, unknown>> = {},
): Record<string, unknown> {
  const numbers = Object.keys(deps).map(Number);
  const stages = numbers.map((n) => sections[n] ?? stage(n));
  return {
    baseRef: { ref: 'main', sha: 'a'.repeat(40) },
    options: [{ title: 'only option', selected: true }],
    stageMap: {
      stages: numbers.map((n, i) => ({ stage_number: n, title: `Stage ${n}`, depends_on: deps[n], step_count: (stages[i].steps as unknown[]).length })),
    },
    stages,
    requirementCoverage: [],
    ...more,
  };
}

/** Parse a raw section with the schema (throws on invalid). */
export function parsePlan(raw: Record<string, unknown>): ImplementationPlanning {
  return ImplementationPlanningReportData.parse({ implementationPlanning: raw }).implementationPlanning;
}
