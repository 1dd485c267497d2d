import type { Fixability, PlanVerdict, PlanVerificationResult } from '@okstra/schemas/implementation-planning';

/** Fixability values that do not block the plan: the report writer corrects the row in place. */
export const NON_BLOCKING_FIXABILITY: readonly Fixability[] = ['in-place'];

/** Counts behind an aggregate result. */
export interface PlanVerificationSummary {
  result: PlanVerificationResult;
  items: number;
  /** Items that carry no verdict at all. */
  unverifiedItems: string[];
  agree: number;
  supplement: number;
  /** DISAGREE verdicts whose fixability is `in-place`. */
  dissent: number;
  /** DISAGREE verdicts whose fixability is `replan` or `needs-clarification`. */
  blocking: number;
}

/**
 * The aggregate rule of one plan-verify round (docs/plan-items.md "Aggregate rules"),
 * applied in this order:
 * 1. `aborted-non-result` — no plan items, or an item with no verdict (no worker
 *    returned usable verdicts for it);
 * 2. `blocked-by-disagreement` — any DISAGREE whose fixability is `replan` or
 *    `needs-clarification`;
 * 3. `passed-with-dissent` — any DISAGREE (all of them `in-place`);
 * 4. `passed` — only AGREE and SUPPLEMENT.
 * okstra-run-audit calls this to check that a report's `planBodyVerification.result`
 * agrees with its verdicts. Pure; never throws.
 */
export function summarizePlanVerification(planItems: ReadonlyArray<{ id: string; verdicts?: readonly PlanVerdict[] | null }>): PlanVerificationSummary {
  const summary: PlanVerificationSummary = { result: 'passed', items: planItems.length, unverifiedItems: [], agree: 0, supplement: 0, dissent: 0, blocking: 0 };
  for (const item of planItems) {
    const verdicts = item.verdicts ?? [];
    if (verdicts.length === 0) summary.unverifiedItems.push(item.id);
    for (const v of verdicts) {
      if (v.verdict === 'AGREE') summary.agree++;
      else if (v.verdict === 'SUPPLEMENT') summary.supplement++;
      else if (v.fixability !== null && NON_BLOCKING_FIXABILITY.includes(v.fixability)) summary.dissent++;
      else summary.blocking++;
    }
  }
  if (planItems.length === 0 || summary.unverifiedItems.length > 0) summary.result = 'aborted-non-result';
  else if (summary.blocking > 0) summary.result = 'blocked-by-disagreement';
  else if (summary.dissent > 0) summary.result = 'passed-with-dissent';
  return summary;
}

/** The aggregate result alone: `aggregatePlanVerification(planItems)` → `passed` | `passed-with-dissent` | `blocked-by-disagreement` | `aborted-non-result`. See {@link summarizePlanVerification}. */
export function aggregatePlanVerification(planItems: ReadonlyArray<{ id: string; verdicts?: readonly PlanVerdict[] | null }>): PlanVerificationResult {
  return summarizePlanVerification(planItems).result;
}
