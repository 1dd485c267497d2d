import { carryPath } from '@okstra/paths';
import type { Finding, RunUnderAudit } from '../run-context.js';
import { carryProblem } from './report-content.js';
import { hasReason } from './workers.js';

/** Invariant 12 `degraded-without-reason`: every `workerDispatches[]` record with `degradedFrom` has a reason. */
export function checkDegradedDispatches(run: RunUnderAudit): Finding[] {
  return run.manifest.workerDispatches
    .filter((d) => d.degradedFrom && !hasReason(d.reason))
    .map((d) => ({
      invariant: 'degraded-without-reason' as const,
      message: `${d.dispatchKind} dispatch of worker '${d.workerId}' degraded from ${d.degradedFrom} to ${d.backend} without a reason`,
      evidence: [run.manifestPath],
    }));
}

/**
 * Invariant 11 `stage-carry-missing`: a `completed` `implementation` run at
 * `stage-<N>/` leaves `<task-root>/runs/implementation/carry/stage-<N>.json`
 * (seed 002 README, multi-stage implementation). The stage comes from the run
 * directory, else from the run-manifest's `stage`.
 */
export async function checkStageCarry(run: RunUnderAudit): Promise<Finding[]> {
  if (run.taskType !== 'implementation' || run.manifest.status !== 'completed') return [];
  const stage = run.stage ?? run.manifest.stage ?? undefined;
  if (!stage) return [];
  const carry = carryPath(run.taskRoot, stage);
  if (run.files.exists(carry)) {
    const problem = await carryProblem(run, stage);
    return problem ? [{ invariant: 'stage-carry-missing', message: problem, evidence: [run.manifestPath, carry] }] : [];
  }
  return [
    {
      invariant: 'stage-carry-missing',
      message: `implementation stage ${stage} completed without carry/stage-${stage}.json`,
      evidence: [run.manifestPath, carry],
    },
  ];
}
