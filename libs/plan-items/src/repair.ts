import type { PlanVerdictsEnvelope } from '@okstra/schemas/plan-verdicts';
import { repairOutcome } from '@okstra/verdict-blocks';
import type { CollectProblem } from './collect.js';

/** How a worker's repair of its plan-verify answer ended (docs/plan-items.md "Repair dispatch"). */
export interface PlanRepair {
  workerId: string;
  dispatchKind: string;
  /** `read`: its restated answer gave its votes; `refused`: refused again; else the repair dispatch's own terminal status. */
  outcome: 'read' | 'refused' | 'timeout' | 'error' | 'not-run';
  problems?: string[];
}

/**
 * Settle the workers of a `plan-verify` collect that had their repair (docs/plan-items.md "Repair
 * dispatch"): `repaired` maps each worker whose newest dispatch was `repair-plan-verify` to its
 * team-state status. A repaired worker whose answer is refused again, or whose repair did not
 * complete, is collected as `error` — out of `contributors`, its votes dropped, never repaired twice;
 * one whose answer is read keeps its votes. The problems left are those of workers not repaired yet.
 * Pure. @param line renders one problem as the refusal names it.
 */
export function settlePlanRepairs(
  envelope: PlanVerdictsEnvelope,
  problems: readonly CollectProblem[],
  repaired: ReadonlyMap<string, string>,
  dispatchKind: string,
  line: (p: CollectProblem) => string,
): { envelope: PlanVerdictsEnvelope; problems: CollectProblem[]; repairs: PlanRepair[] } {
  const repairs: PlanRepair[] = [];
  const dropped = new Set<string>();
  for (const [workerId, status] of [...repaired].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const repair = repairOutcome(dispatchKind, status, problems.filter((p) => p.workerId === workerId).map(line));
    if (repair.outcome !== 'read') dropped.add(workerId);
    if (repair.outcome !== 'read' || envelope.contributors.includes(workerId)) repairs.push({ workerId, ...repair } as PlanRepair);
  }
  return {
    envelope: {
      ...envelope,
      contributors: envelope.contributors.filter((w) => !dropped.has(w)),
      items: envelope.items.map((item) => ({ ...item, verdicts: item.verdicts.filter((v) => !dropped.has(v.workerId)) })),
    },
    problems: problems.filter((p) => !repaired.has(p.workerId)),
    repairs,
  };
}
