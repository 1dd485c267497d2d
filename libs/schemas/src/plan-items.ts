import * as z from './zod.js';
import { NonEmptyString, PositiveInt } from './common.js';
import { defineArtifact } from './artifact.js';
import { LinkedId, PlanItemId, PlanItemKind } from './implementation-planning.js';

/**
 * One extracted P-* plan item (docs/plan-items.md "Id scheme"): its id, kind,
 * stage (null for options), the JSON path of its source row inside data.json,
 * the clarification it carries, and `content` — the source row verbatim, so a
 * changed row is a changed item.
 */
export const PlanItem = z.looseObject({
  id: PlanItemId,
  kind: PlanItemKind,
  stage: z.nullable(PositiveInt),
  source: NonEmptyString,
  clarificationId: z.nullable(LinkedId),
  content: z.record(z.string(), z.unknown()),
});
export type PlanItem = z.infer<typeof PlanItem>;

/**
 * `state/plan-items-<type>-<seq>.json`: the persisted plan-body verification
 * queue written by `okstra plan-items extract` (0.161.0 docs/cli.md row), in
 * queue order. Ids are unique.
 */
export const PlanItemsFile = z
  .looseObject({
    schemaVersion: z.literal('1.0'),
    items: z.array(PlanItem),
  })
  .check(
    z.superRefine((file, ctx) => {
      const seen = new Set<string>();
      file.items.forEach((item, i) => {
        if (seen.has(item.id)) ctx.addIssue({ code: 'custom', path: ['items', i, 'id'], message: `duplicate plan item '${item.id}'` });
        seen.add(item.id);
      });
    }),
  );
export type PlanItemsFile = z.infer<typeof PlanItemsFile>;

/** `schemaVersion` values of {@link PlanItemsFile}. */
export const PLAN_ITEMS_VERSIONS = ['1.0'] as const;

/** The published artifact of the plan-items file (JSON Schema `plan-items`). */
export const planItemsArtifact = defineArtifact(
  'plan-items',
  PLAN_ITEMS_VERSIONS,
  'okstra plan-items extract output: the P-* verification queue',
  PlanItemsFile,
);
