import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { NonEmptyString, NonNegativeInt, PositiveInt, Seq, TaskKeyString, WorkerId } from './common.js';
import { BREAKAGE_KINDS, FIXABILITY_VALUES, PLAN_VERDICT_WORDS } from './vocabulary.js';

/**
 * The report-writer data.json of an `implementation-planning` run, as far as
 * okstra-plan-items reads it: the `implementationPlanning` section (docs/plan-items.md
 * "Data shapes"). Every object is loose: the report carries many more keys,
 * and apply-verdicts rewrites the file keeping all of them.
 */

/** A clarification (`C-007`) or PREP item (`PREP-3`) id a plan row or requirement row links to (0.161.0 launch template §1). */
export const LinkedId = z
  .string()
  .check(z.regex(/^(C-[0-9]+|PREP-[A-Za-z0-9-]+)$/, 'expected a clarification id like "C-007" or a PREP item id like "PREP-3"'));

/** `TDD exemption:` reasons the profile accepts (002 seed, implementation-planning.md, validator S10e). */
export const TddExemption = z.enum(['doc-only', 'config-only', 'pure-rename']);

/** The Stepwise Execution Order `outcome` column: one word (0.164.0 profile). */
export const StepOutcome = z.enum(['PASS', 'FAIL']);

const RED = /^\s*RED:/;
const GREEN = /^\s*GREEN:/;

/**
 * One Stepwise Execution Order row: `step | action | files | command | outcome | expected`.
 * `step` is 1-based and equals the row's position; `files` are `<PROJECT_ROOT>`-relative
 * paths. The row-level conditional of the 0.164.0 profile (`StageStepRow.allOf`): an
 * action starting `RED:` has outcome `FAIL`, one starting `GREEN:` has `PASS` — checked
 * here and also emitted into the JSON Schema as `allOf` if/then.
 */
export const StageStepRow = z
  .looseObject({
    step: PositiveInt,
    action: NonEmptyString,
    files: z.array(NonEmptyString),
    command: z.string(),
    outcome: StepOutcome,
    expected: z.string(),
    clarificationId: z.optional(z.nullable(LinkedId)),
  })
  .check(
    z.superRefine((row, ctx) => {
      if (RED.test(row.action) && row.outcome !== 'FAIL') {
        ctx.addIssue({ code: 'custom', path: ['outcome'], message: `a RED: step must have outcome FAIL, got ${row.outcome}` });
      }
      if (GREEN.test(row.action) && row.outcome !== 'PASS') {
        ctx.addIssue({ code: 'custom', path: ['outcome'], message: `a GREEN: step must have outcome PASS, got ${row.outcome}` });
      }
    }),
    z.meta({
      allOf: [
        { if: { properties: { action: { pattern: '^\\s*RED:' } } }, then: { properties: { outcome: { const: 'FAIL' } } } },
        { if: { properties: { action: { pattern: '^\\s*GREEN:' } } }, then: { properties: { outcome: { const: 'PASS' } } } },
      ],
    }),
  );
export type StageStepRow = z.infer<typeof StageStepRow>;

/** A dependency, validation or rollback entry of a stage section: a description plus any detail keys. */
export const PlanEntry = z.looseObject({
  description: NonEmptyString,
  clarificationId: z.optional(z.nullable(LinkedId)),
});
export type PlanEntry = z.infer<typeof PlanEntry>;

/** One option the plan weighed (`P-Opt-<n>`); `selected` marks the chosen one. */
export const PlanOption = z.looseObject({
  title: NonEmptyString,
  summary: z.optional(z.string()),
  selected: z.optional(z.boolean()),
  clarificationId: z.optional(z.nullable(LinkedId)),
});
export type PlanOption = z.infer<typeof PlanOption>;

/** The maximum effective Stepwise Execution Order rows of one stage (002 seed profile: "≤ 8"; the README's "six steps" is older wording). */
export const MAX_STEPS_PER_STAGE = 8;

/**
 * One `## 5.5.<i> Stage <i>` section: its steps and its dependency, validation and
 * rollback entries. Unless `tddExemption` is set, the first step is `RED:` (outcome
 * FAIL) and a later one `GREEN:` (outcome PASS).
 */
export const StageSection = z
  .looseObject({
    stage_number: PositiveInt,
    title: NonEmptyString,
    tddExemption: z.optional(z.nullable(TddExemption)),
    steps: z.array(StageStepRow).check(z.maxLength(MAX_STEPS_PER_STAGE, `a stage has at most ${MAX_STEPS_PER_STAGE} effective steps`)),
    dependencies: z._default(z.array(PlanEntry), []),
    validation: z._default(z.array(PlanEntry), []),
    rollback: z._default(z.array(PlanEntry), []),
  })
  .check(
    z.superRefine((stage, ctx) => {
      stage.steps.forEach((row, i) => {
        if (row.step !== i + 1)
          ctx.addIssue({ code: 'custom', path: ['steps', i, 'step'], message: `expected step ${i + 1} (steps are numbered 1..n in order), got ${row.step}` });
      });
      if (stage.tddExemption) return;
      if (stage.steps.length === 0 || !RED.test(stage.steps[0].action)) {
        ctx.addIssue({
          code: 'custom',
          path: ['steps', 0, 'action'],
          message: 'the first step must start with "RED:" (or the stage must declare a tddExemption)',
        });
      }
      if (!stage.steps.slice(1).some((row) => GREEN.test(row.action))) {
        ctx.addIssue({
          code: 'custom',
          path: ['steps'],
          message: 'a step after the RED: step must start with "GREEN:" (or the stage must declare a tddExemption)',
        });
      }
    }),
  );
export type StageSection = z.infer<typeof StageSection>;

/** One Stage Map row (the `okstra stage-map` shape): `depends_on` lists stage numbers. */
export const StageMapRow = z.looseObject({
  stage_number: PositiveInt,
  title: NonEmptyString,
  depends_on: z.array(PositiveInt),
  step_count: NonNegativeInt,
});
export type StageMapRow = z.infer<typeof StageMapRow>;

/**
 * One requirement-coverage row. A row blocked on a clarification says so as
 * `blocked C-NNN` in `status`, or — for a `documented-deviation` row — in
 * `approvalDisposition` (0.161.0 launch template §1).
 */
export const RequirementCoverageRow = z.looseObject({
  requirementId: NonEmptyString,
  stages: z.array(PositiveInt),
  status: NonEmptyString,
  approvalDisposition: z.optional(z.nullable(z.string())),
});
export type RequirementCoverageRow = z.infer<typeof RequirementCoverageRow>;

/** A plan verdict word (README "Phase 6 plan-body verification"). */
export const PlanVerdictWord = z.enum(PLAN_VERDICT_WORDS);
export type PlanVerdictWord = z.infer<typeof PlanVerdictWord>;

/** Breakage kinds `a`–`e` of a DISAGREE (docs/plan-items.md "Breakage kinds"). */
export const BreakageKind = z.enum(BREAKAGE_KINDS);
export type BreakageKind = z.infer<typeof BreakageKind>;

/** Fixability of a DISAGREE (docs/plan-items.md "Fixability"): `in-place` does not block; the others do. */
export const Fixability = z.enum(FIXABILITY_VALUES);
export type Fixability = z.infer<typeof Fixability>;

/**
 * One worker's verdict on one plan item. A DISAGREE carries a breakage kind and
 * a fixability value; AGREE and SUPPLEMENT carry neither (null).
 */
export const PlanVerdict = z
  .looseObject({
    workerId: WorkerId,
    verdict: PlanVerdictWord,
    breakageKind: z.nullable(BreakageKind),
    fixability: z.nullable(Fixability),
    basis: z.nullable(z.string()),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.verdict === 'DISAGREE' && (v.breakageKind === null || v.fixability === null)) {
        ctx.addIssue({
          code: 'custom',
          path: [v.breakageKind === null ? 'breakageKind' : 'fixability'],
          message: 'a DISAGREE needs a breakage kind and a fixability value',
        });
      }
      if (v.verdict !== 'DISAGREE' && (v.breakageKind !== null || v.fixability !== null)) {
        ctx.addIssue({ code: 'custom', path: ['breakageKind'], message: `${v.verdict} carries no breakage kind or fixability` });
      }
    }),
  );
export type PlanVerdict = z.infer<typeof PlanVerdict>;

/** The P-* kinds and their id prefixes (docs/plan-items.md "Id scheme"). */
export const PlanItemKind = z.enum(['option', 'step', 'dependency', 'validation', 'rollback']);
export type PlanItemKind = z.infer<typeof PlanItemKind>;

/** A P-* item id: `P-Opt-<n>` or `P-Step|Dep|Val|Rb-<stage>-<n>`. */
export const PlanItemId = z
  .string()
  .check(z.regex(/^P-(Opt-[0-9]+|(Step|Dep|Val|Rb)-[0-9]+-[0-9]+)$/, 'expected a plan item id like "P-Opt-1" or "P-Step-2-3"'));

/** One `planBodyVerification.planItems[]` row: the item and this round's verdicts (overwritten by apply-verdicts). */
export const PlanItemRow = z.looseObject({
  id: PlanItemId,
  stage: z.optional(z.nullable(PositiveInt)),
  clarificationId: z.optional(z.nullable(LinkedId)),
  verdicts: z._default(z.array(PlanVerdict), []),
});
export type PlanItemRow = z.infer<typeof PlanItemRow>;

/** The aggregate of one plan-verify round (docs/plan-items.md "Aggregate rules"). */
export const PlanVerificationResult = z.enum(['passed', 'passed-with-dissent', 'blocked-by-disagreement', 'aborted-non-result']);
export type PlanVerificationResult = z.infer<typeof PlanVerificationResult>;

/** `implementationPlanning.planBodyVerification`: result (null before the round), contributing workers, rows. */
export const PlanBodyVerification = z
  .looseObject({
    result: z.optional(z.nullable(PlanVerificationResult)),
    contributors: z.optional(z.array(WorkerId)),
    planItems: z.array(PlanItemRow),
  })
  .check(
    z.superRefine((pbv, ctx) => {
      const seen = new Set<string>();
      pbv.planItems.forEach((row, i) => {
        if (seen.has(row.id)) ctx.addIssue({ code: 'custom', path: ['planItems', i, 'id'], message: `duplicate plan item row '${row.id}'` });
        seen.add(row.id);
      });
    }),
  );
export type PlanBodyVerification = z.infer<typeof PlanBodyVerification>;

/** The base commit the plan was made against; incremental-scope compares its `sha`. */
export const BaseRef = z.looseObject({
  ref: z.optional(NonEmptyString),
  sha: z.string().check(z.regex(/^[0-9a-fA-F]{7,64}$/, 'expected a git commit SHA')),
});

/**
 * The `implementationPlanning` section. Cross-row rules: stage numbers are unique,
 * the Stage Map and the stage sections name the same stages, `depends_on` names
 * known stages and has no cycle, `step_count` equals the section's step rows.
 */
export const ImplementationPlanning = z
  .looseObject({
    baseRef: z.optional(z.nullable(BaseRef)),
    options: z._default(z.array(PlanOption), []),
    stageMap: z.looseObject({ stages: z.array(StageMapRow).check(z.minLength(1)) }),
    stages: z.array(StageSection),
    requirementCoverage: z._default(z.array(RequirementCoverageRow), []),
    planBodyVerification: z.optional(PlanBodyVerification),
  })
  .check(
    z.superRefine((plan, ctx) => {
      const mapped = checkStageGraph(plan.stageMap.stages, ctx);
      const sectioned = new Set<number>();
      plan.stages.forEach((section, i) => {
        const row = mapped.get(section.stage_number);
        if (sectioned.has(section.stage_number))
          ctx.addIssue({ code: 'custom', path: ['stages', i, 'stage_number'], message: `duplicate stage section ${section.stage_number}` });
        sectioned.add(section.stage_number);
        if (!row) ctx.addIssue({ code: 'custom', path: ['stages', i, 'stage_number'], message: `stage ${section.stage_number} is not in the Stage Map` });
        else if (row.step_count !== section.steps.length) {
          ctx.addIssue({
            code: 'custom',
            path: ['stages', i, 'steps'],
            message: `stage ${section.stage_number} has ${section.steps.length} steps but the Stage Map says step_count ${row.step_count}`,
          });
        }
      });
      for (const n of mapped.keys()) {
        if (!sectioned.has(n)) ctx.addIssue({ code: 'custom', path: ['stages'], message: `Stage Map stage ${n} has no stage section` });
      }
    }),
  );
export type ImplementationPlanning = z.infer<typeof ImplementationPlanning>;

/** The Stage Map's graph rules (both readers): unique stage numbers, `depends_on` names known stages other than itself, no cycle. Returns the rows by number. */
function checkStageGraph<R extends StageGraphRow>(rows: readonly R[], ctx: z.core.$RefinementCtx): Map<number, R> {
  const mapped = new Map<number, R>();
  rows.forEach((row, i) => {
    if (mapped.has(row.stage_number))
      ctx.addIssue({ code: 'custom', path: ['stageMap', 'stages', i, 'stage_number'], message: `duplicate stage ${row.stage_number}` });
    mapped.set(row.stage_number, row);
  });
  rows.forEach((row, i) => {
    for (const dep of row.depends_on) {
      if (!mapped.has(dep) || dep === row.stage_number) {
        ctx.addIssue({
          code: 'custom',
          path: ['stageMap', 'stages', i, 'depends_on'],
          message: `stage ${row.stage_number} depends on ${dep === row.stage_number ? 'itself' : `unknown stage ${dep}`}`,
        });
      }
    }
  });
  const cycle = findCycle(rows);
  if (cycle) ctx.addIssue({ code: 'custom', path: ['stageMap', 'stages'], message: `depends_on has a cycle through stages ${cycle.join(' → ')}` });
  return mapped;
}

/** What the graph rules and the downstream closure read of a Stage Map row. */
export type StageGraphRow = Pick<StageMapRow, 'stage_number' | 'depends_on'>;

/** A cycle in `depends_on` as a list of stage numbers, or undefined. Unknown stages are ignored. */
function findCycle(rows: readonly StageGraphRow[]): number[] | undefined {
  const deps = new Map(rows.map((r) => [r.stage_number, r.depends_on] as const));
  const state = new Map<number, 'open' | 'done'>();
  const stack: number[] = [];
  const visit = (n: number): number[] | undefined => {
    if (state.get(n) === 'done') return undefined;
    if (state.get(n) === 'open') return [...stack.slice(stack.indexOf(n)), n];
    state.set(n, 'open');
    stack.push(n);
    for (const d of deps.get(n) ?? []) {
      if (!deps.has(d)) continue;
      const found = visit(d);
      if (found) return found;
    }
    stack.pop();
    state.set(n, 'done');
    return undefined;
  };
  for (const n of [...deps.keys()].sort((a, b) => a - b)) {
    const found = visit(n);
    if (found) return found;
  }
  return undefined;
}

/**
 * A report-writer final-report data.json of an implementation-planning run
 * (`reports/final-report-implementation-planning-<seq>.data.json`). Only
 * `implementationPlanning` is required; everything else is kept as written.
 */
export const ImplementationPlanningReportData = z.looseObject({
  schemaVersion: z.optional(NonEmptyString),
  taskKey: z.optional(TaskKeyString),
  taskType: z.optional(z.literal('implementation-planning')),
  seq: z.optional(Seq),
  implementationPlanning: ImplementationPlanning,
});
export type ImplementationPlanningReportData = z.infer<typeof ImplementationPlanningReportData>;

/** The published artifact of the report data.json (JSON Schema `implementation-planning-report-data`; no schemaVersion of its own is checked). */
export const implementationPlanningReportDataArtifact = defineArtifact(
  'implementation-planning-report-data',
  [],
  'report-writer final-report data.json of an implementation-planning run (implementationPlanning section)',
  ImplementationPlanningReportData,
);

/** A row that may link a clarification: only its `clarificationId` is read. */
const ScopeLinkRow = z.looseObject({ clarificationId: z.optional(z.nullable(LinkedId)) });

/**
 * The prior report's `implementationPlanning` as `incremental-scope` reads it
 * (docs/plan-items.md "incremental-scope rules"): only what the decision reads —
 * `baseRef.sha`, the Stage Map graph (`stage_number`, `depends_on`; the graph
 * rules hold), each stage section's `stage_number` and its rows'
 * `clarificationId`, the plan item rows (`id`, `stage`, `clarificationId`) and
 * the requirement-coverage rows. Nothing else is checked, so a report written
 * before 0.164.0 (steps without the `outcome` column, older step rules, no
 * `step_count`) is decided from; a report missing or breaking one of those
 * fields is refused naming it.
 */
export const ScopePlan = z
  .looseObject({
    baseRef: z.optional(z.nullable(BaseRef)),
    stageMap: z.looseObject({
      stages: z.array(z.looseObject({ stage_number: PositiveInt, depends_on: z.array(PositiveInt) })).check(z.minLength(1)),
    }),
    stages: z._default(
      z.array(
        z.looseObject({
          stage_number: PositiveInt,
          steps: z._default(z.array(ScopeLinkRow), []),
          dependencies: z._default(z.array(ScopeLinkRow), []),
          validation: z._default(z.array(ScopeLinkRow), []),
          rollback: z._default(z.array(ScopeLinkRow), []),
        }),
      ),
      [],
    ),
    requirementCoverage: z._default(z.array(RequirementCoverageRow), []),
    planBodyVerification: z.optional(
      z.looseObject({
        planItems: z.array(z.looseObject({ id: PlanItemId, stage: z.optional(z.nullable(PositiveInt)), clarificationId: z.optional(z.nullable(LinkedId)) })),
      }),
    ),
  })
  .check(
    z.superRefine((plan, ctx) => {
      checkStageGraph(plan.stageMap.stages, ctx);
    }),
  );
export type ScopePlan = z.infer<typeof ScopePlan>;

/** A prior report data.json as incremental-scope reads it: only `implementationPlanning` ({@link ScopePlan}). */
export const ScopeReportData = z.looseObject({ implementationPlanning: ScopePlan });
export type ScopeReportData = z.infer<typeof ScopeReportData>;
