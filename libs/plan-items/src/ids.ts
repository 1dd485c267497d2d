import type { PlanItemKind } from '@okstra/schemas/implementation-planning';

/**
 * The P-* id scheme (docs/plan-items.md "Id scheme"): `P-Opt-<n>` for the n-th
 * option (1-based, array order); `P-Step-<stage>-<step>` for a Stepwise
 * Execution Order row; `P-Dep-`, `P-Val-`, `P-Rb-<stage>-<n>` for the n-th
 * dependency, validation and rollback entry (1-based) of a stage section.
 */
const ID_PREFIX: Readonly<Record<PlanItemKind, string>> = {
  option: 'P-Opt',
  step: 'P-Step',
  dependency: 'P-Dep',
  validation: 'P-Val',
  rollback: 'P-Rb',
};

/** The id of an item: `planItemId('step', 2, 3)` → `P-Step-2-3`; options take no stage (`planItemId('option', null, 1)` → `P-Opt-1`). */
export function planItemId(kind: PlanItemKind, stage: number | null, n: number): string {
  return kind === 'option' ? `${ID_PREFIX.option}-${n}` : `${ID_PREFIX[kind]}-${stage}-${n}`;
}

/**
 * Matches a P-* id at the start of a heading (case-insensitive), for the shared
 * block parser's `idPattern`: `### P-Step-2-3 — path check` → `P-Step-2-3`.
 */
export const PLAN_ITEM_HEADING_ID = /P-(?:Opt-[0-9]+|(?:Step|Dep|Val|Rb)-[0-9]+-[0-9]+)/i;

/** The stage an id names (`P-Val-3-1` → 3), or null for `P-Opt-*` and non-ids. */
export function stageOfId(id: string): number | null {
  const m = /^P-(?:Step|Dep|Val|Rb)-([0-9]+)-[0-9]+$/.exec(id);
  return m ? Number(m[1]) : null;
}
