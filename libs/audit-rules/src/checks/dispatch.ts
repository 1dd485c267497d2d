import { carryPath } from '@okstra/paths';
import type { Finding, RunUnderAudit } from '../run-context.js';
import { carryProblem } from './report-content.js';
import { hasReason } from './workers.js';

/**
 * Invariant 12 `degraded-without-reason` (seed 000 team dispatch: "If a tmux pane cannot be created,
 * gracefully degrade to the CLI wrapper and record the fallback in `workerDispatches[].degradedFrom`"):
 * every record with `degradedFrom` has a reason, and ran as the wrapper subprocess it degraded to —
 * a degraded record that still names a pane backend (or the backend it degraded from) records no fallback.
 */
export function checkDegradedDispatches(run: RunUnderAudit): Finding[] {
  const out: Finding[] = [];
  for (const d of run.manifest.workerDispatches) {
    if (!d.degradedFrom) continue;
    const what = `${d.dispatchKind} dispatch of worker '${d.workerId}' degraded from ${d.degradedFrom} to ${d.backend}`;
    if (!hasReason(d.reason)) out.push({ invariant: 'degraded-without-reason', message: `${what} without a reason`, evidence: [run.manifestPath] });
    else if (d.backend !== 'subprocess') {
      out.push({
        invariant: 'degraded-without-reason',
        message: `${what}: a degraded dispatch runs as the CLI wrapper subprocess`,
        evidence: [run.manifestPath],
      });
    }
  }
  return out;
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
