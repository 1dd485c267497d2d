import type { ScopePlan } from '@okstra/schemas/implementation-planning';
import { stageOfId } from './ids.js';
import { downstreamClosure } from './stage-graph.js';

/** Inputs of the scope decision (0.161.0 `incremental-scope` row and launch-template procedure). */
export interface ScopeInput {
  /**
   * The prior run's `implementationPlanning` section, as far as the decision reads
   * it (`ScopePlan`: a full `ImplementationPlanning` fits, and so does a report
   * written before 0.164.0).
   */
  plan: ScopePlan;
  /** `--answered-clarifications`: `C-NNN` and PREP item ids, already format-checked. */
  answeredIds: readonly string[];
  /** `--impacted`: stage numbers, already checked to be in the Stage Map. */
  impacted: readonly number[];
  /** `--full-reason`: the lead's declared structural change, or undefined. */
  fullReason?: string;
}

/** The printed decision of `incremental-scope`. */
export interface ScopeDecision {
  mode: 'incremental' | 'full';
  /** Stages to re-verify, ascending: the downstream closure (incremental) or every stage (full). */
  reverifyStages: number[];
  reason: string;
  /** Answered ids that trace to no stage, in input order. */
  unlinkedIds: string[];
}

/** The printed result of `incremental-scope --preview`. */
export interface ScopePreview {
  wouldForceFull: boolean;
  unlinkedIds: string[];
  reason: string;
}

/** How each answered id resolved: its stages (ascending, possibly empty). */
export interface LinkResolution {
  stagesById: Map<string, number[]>;
  unlinkedIds: string[];
}

/** `blocked C-007`, `blocked on C-007`, `blocked: C-007, C-008` — ids after the word "blocked". */
const BLOCKED = /\bblocked\b([^]*)/i;
const LINKED_ID = /\b(C-[0-9]+|PREP-[A-Za-z0-9-]+)\b/g;

/** The clarification / PREP ids a requirement-coverage cell says the row is blocked on. */
export function blockedOn(cell: string | null | undefined): string[] {
  if (!cell) return [];
  const m = BLOCKED.exec(cell);
  return m ? [...m[1].matchAll(LINKED_ID)].map((x) => x[1]) : [];
}

/**
 * Resolve answered ids to Stage Map stages through the prior report's own links
 * (launch template §1): plan items carrying the id as `clarificationId` (the
 * source rows, and the `planBodyVerification.planItems` rows — an item's stage is
 * its own, options have none), and requirement-coverage rows blocked on the id in
 * `status` or `approvalDisposition` (their `stages`). An id with no stage is unlinked.
 */
export function resolveAnsweredIds(plan: ScopePlan, answeredIds: readonly string[]): LinkResolution {
  const links = new Map<string, Set<number>>();
  const link = (id: string | null | undefined, stage: number | null | undefined) => {
    if (!id || stage === null || stage === undefined) return;
    if (!links.has(id)) links.set(id, new Set());
    links.get(id)!.add(stage);
  };
  // The source rows of the stage items (what `extract` turns into P-Step/Dep/Val/Rb items); options carry no stage.
  for (const section of plan.stages) {
    for (const row of [...section.steps, ...section.dependencies, ...section.validation, ...section.rollback]) link(row.clarificationId, section.stage_number);
  }
  for (const row of plan.planBodyVerification?.planItems ?? []) link(row.clarificationId, row.stage ?? stageOfId(row.id));
  for (const row of plan.requirementCoverage) {
    for (const id of [...blockedOn(row.status), ...blockedOn(row.approvalDisposition)]) for (const s of row.stages) link(id, s);
  }
  const known = new Set(plan.stageMap.stages.map((s) => s.stage_number));
  const stagesById = new Map<string, number[]>();
  const unlinkedIds: string[] = [];
  for (const id of answeredIds) {
    const stages = [...(links.get(id) ?? [])].filter((s) => known.has(s)).sort((a, b) => a - b);
    stagesById.set(id, stages);
    if (stages.length === 0 && !unlinkedIds.includes(id)) unlinkedIds.push(id);
  }
  return { stagesById, unlinkedIds };
}

/** Reasons, distinct by design (docs/plan-items.md "incremental-scope"). */
export const SCOPE_REASONS = {
  fullReason: (text: string) => `full re-run declared: ${text}`,
  noPriorSha: 'prior data.json records no base SHA (implementationPlanning.baseRef.sha)',
  shaChanged: (prev: string, cur: string) => `base SHA changed: ${prev} -> ${cur}`,
  unlinked: (ids: readonly string[]) => `answered ids trace to no stage in the prior report: ${ids.join(', ')}`,
  noneResolved: 'no impacted stages resolved',
  tooWide: (n: number, total: number) => `downstream closure covers ${n} of ${total} stages (more than half)`,
  narrow: (n: number, total: number) => `downstream closure covers ${n} of ${total} stages (at most half)`,
} as const;

/** The link half alone: null when nothing forces full, else the reason. Also the closure. */
function linkHalf(input: ScopeInput): { forced: string | null; closure: number[]; unlinkedIds: string[]; total: number } {
  const { plan } = input;
  const total = plan.stageMap.stages.length;
  const { stagesById, unlinkedIds } = resolveAnsweredIds(plan, input.answeredIds);
  const affected = new Set<number>(input.impacted);
  for (const stages of stagesById.values()) for (const s of stages) affected.add(s);
  const closure = downstreamClosure(plan.stageMap.stages, affected);
  let forced: string | null = null;
  if (input.fullReason !== undefined) forced = SCOPE_REASONS.fullReason(input.fullReason);
  else if (unlinkedIds.length > 0) forced = SCOPE_REASONS.unlinked(unlinkedIds);
  else if (closure.length === 0) forced = SCOPE_REASONS.noneResolved;
  else if (closure.length * 2 > total) forced = SCOPE_REASONS.tooWide(closure.length, total);
  return { forced, closure, unlinkedIds, total };
}

/**
 * Decide re-verify vs carry-forward scope of an implementation-planning clarification
 * re-run (0.161.0 `incremental-scope`). `mode: "incremental"` only when the base SHA is
 * unchanged (case-insensitive exact match with `plan.baseRef.sha`) and the downstream
 * closure of the affected stages (`--impacted` ∪ stages resolved from answered ids)
 * covers at most half of all stages. Full otherwise, first reason wins:
 * `--full-reason`, no prior SHA, SHA changed, unlinked ids, no stage resolved, closure
 * over half. Full mode re-verifies every stage. Pure.
 */
export function decideScope(input: ScopeInput & { baseSha: string }): ScopeDecision {
  const all = input.plan.stageMap.stages.map((s) => s.stage_number).sort((a, b) => a - b);
  const half = linkHalf(input);
  const prior = input.plan.baseRef?.sha;
  let reason: string | null = null;
  if (input.fullReason !== undefined) reason = SCOPE_REASONS.fullReason(input.fullReason);
  else if (!prior) reason = SCOPE_REASONS.noPriorSha;
  else if (prior.toLowerCase() !== input.baseSha.toLowerCase()) reason = SCOPE_REASONS.shaChanged(prior, input.baseSha);
  else reason = half.forced;
  if (reason !== null) return { mode: 'full', reverifyStages: all, reason, unlinkedIds: half.unlinkedIds };
  return { mode: 'incremental', reverifyStages: half.closure, reason: SCOPE_REASONS.narrow(half.closure.length, half.total), unlinkedIds: half.unlinkedIds };
}

/**
 * `--preview`: the link half alone — no base SHA, no side effects (0.161.0 row).
 * `wouldForceFull` is true when the next run would be full whatever its base SHA:
 * `--full-reason`, an unlinked id, no stage resolved, or a closure over half.
 */
export function previewScope(input: ScopeInput): ScopePreview {
  const half = linkHalf(input);
  if (half.forced !== null) return { wouldForceFull: true, unlinkedIds: half.unlinkedIds, reason: half.forced };
  return {
    wouldForceFull: false,
    unlinkedIds: half.unlinkedIds,
    reason: `${SCOPE_REASONS.narrow(half.closure.length, half.total)}: stages ${half.closure.join(', ')} if the base SHA is unchanged`,
  };
}
