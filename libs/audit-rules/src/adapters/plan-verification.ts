/**
 * The plan-verification aggregate used by invariant 9, re-exported from its
 * one home, libs/plan-items (ARCHITECTURE.md §2 "one rule, one home").
 */
export { aggregatePlanVerification } from '@okstra/plan-items';
