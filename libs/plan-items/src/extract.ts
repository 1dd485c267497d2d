import type { ImplementationPlanning, PlanItemKind } from '@okstra/schemas/implementation-planning';
import type { PlanItem, PlanItemsFile } from '@okstra/schemas/plan-items';
import { planItemId } from './ids.js';

const SECTION = 'implementationPlanning';

/**
 * Extract the complete P-* verification queue from a parsed `implementationPlanning`
 * section (README "Phase 6 plan-body verification", 0.161.0 `plan-items extract`).
 *
 * Order: every option (`P-Opt-1`…), then each stage by ascending `stage_number`:
 * its steps, dependencies, validation and rollback entries. Each item carries the
 * source row verbatim as `content`, its JSON path as `source`, and the row's
 * `clarificationId` (null when none). Pure and deterministic: the same section gives
 * the same queue. Never throws on a schema-valid section.
 */
export function extractPlanItems(plan: ImplementationPlanning): PlanItem[] {
  const items: PlanItem[] = [];
  plan.options.forEach((option, i) => {
    items.push(item('option', null, i + 1, `${SECTION}.options[${i}]`, option));
  });
  const order = plan.stages.map((stage, index) => ({ stage, index })).sort((a, b) => a.stage.stage_number - b.stage.stage_number);
  for (const { stage, index } of order) {
    const base = `${SECTION}.stages[${index}]`;
    const n = stage.stage_number;
    stage.steps.forEach((row, i) => items.push(item('step', n, row.step, `${base}.steps[${i}]`, row)));
    const lists: Array<[PlanItemKind, 'dependencies' | 'validation' | 'rollback']> = [
      ['dependency', 'dependencies'],
      ['validation', 'validation'],
      ['rollback', 'rollback'],
    ];
    for (const [kind, key] of lists) {
      stage[key].forEach((entry, i) => items.push(item(kind, n, i + 1, `${base}.${key}[${i}]`, entry)));
    }
  }
  return items;
}

/** The `plan-items` file for a queue (schema 1.0). */
export function planItemsFile(items: PlanItem[]): PlanItemsFile {
  return { schemaVersion: '1.0', items };
}

function item(kind: PlanItemKind, stage: number | null, n: number, source: string, row: Record<string, unknown>): PlanItem {
  const clarificationId = typeof row.clarificationId === 'string' ? row.clarificationId : null;
  return { id: planItemId(kind, stage, n), kind, stage, source, clarificationId, content: { ...row } };
}
