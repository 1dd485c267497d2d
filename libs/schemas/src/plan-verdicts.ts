import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { WorkerId } from './common.js';
import { PlanItemId, PlanVerdict } from './implementation-planning.js';

/** One item of a verdicts envelope: this round's verdicts on it, sorted by worker id. */
export const PlanVerdictsItem = z.looseObject({
  id: PlanItemId,
  verdicts: z.array(PlanVerdict),
});
export type PlanVerdictsItem = z.infer<typeof PlanVerdictsItem>;

/**
 * `state/plan-verdicts-<type>-<seq>.json`: one plan-verify round read by
 * `okstra plan-items collect-verdicts` and applied by `apply-verdicts`
 * (0.161.0 docs/cli.md rows). `contributors` are the workers whose responses
 * were read (sorted); `items` follow queue order. Each item's verdicts come
 * only from contributors, at most one per worker.
 */
export const PlanVerdictsEnvelope = z
  .looseObject({
    schemaVersion: z.literal('1.0'),
    contributors: z.array(WorkerId),
    items: z.array(PlanVerdictsItem),
  })
  .check(
    z.superRefine((env, ctx) => {
      const contributors = new Set(env.contributors);
      if (contributors.size !== env.contributors.length) ctx.addIssue({ code: 'custom', path: ['contributors'], message: 'duplicate contributor' });
      const ids = new Set<string>();
      env.items.forEach((item, i) => {
        if (ids.has(item.id)) ctx.addIssue({ code: 'custom', path: ['items', i, 'id'], message: `duplicate item '${item.id}'` });
        ids.add(item.id);
        const voters = new Set<string>();
        item.verdicts.forEach((v, j) => {
          if (!contributors.has(v.workerId))
            ctx.addIssue({ code: 'custom', path: ['items', i, 'verdicts', j, 'workerId'], message: `worker '${v.workerId}' is not a contributor` });
          if (voters.has(v.workerId))
            ctx.addIssue({ code: 'custom', path: ['items', i, 'verdicts', j, 'workerId'], message: `worker '${v.workerId}' votes twice on '${item.id}'` });
          voters.add(v.workerId);
        });
      });
    }),
  );
export type PlanVerdictsEnvelope = z.infer<typeof PlanVerdictsEnvelope>;

/** `schemaVersion` values of {@link PlanVerdictsEnvelope}. */
export const PLAN_VERDICTS_VERSIONS = ['1.0'] as const;

/** The published artifact of the plan-verdicts envelope (JSON Schema `plan-verdicts`). */
export const planVerdictsArtifact = defineArtifact(
  'plan-verdicts',
  PLAN_VERDICTS_VERSIONS,
  'okstra plan-items collect-verdicts output: one plan-verify round',
  PlanVerdictsEnvelope,
);
