import { convergenceFinalStatePath, convergenceGroupsPath, convergenceWorkStatePath, finalReportPath, roundPlanPath } from '@okstra/paths';
import { parseJsonText } from '@okstra/state-file';
import { jsonProblem, mustHaveFinished, type Finding, type RunUnderAudit } from '../run-context.js';

/**
 * Invariant 8 `convergence-final`, for a run that used convergence (it has a
 * groups file, a working state, a final state or a round-1 plan in `state/`):
 * - a final state exists → it passes the final-state validator of
 *   libs/convergence (`validate --kind final`; called, never copied);
 * - no final state, and the final report exists → "report present but no final convergence state";
 * - no final state, a working state exists, and the run must have finished
 *   (`mustHaveFinished`: not a failed/aborted run that logged its failure) → "working state never finalized".
 */
export async function checkConvergence(run: RunUnderAudit): Promise<Finding[]> {
  const work = convergenceWorkStatePath(run.runDir, run);
  const final = convergenceFinalStatePath(run.runDir, run);
  const groups = convergenceGroupsPath(run.runDir, run);
  const used = [work, final, groups, roundPlanPath(run.runDir, 1, run)].some((p) => run.files.exists(p));
  if (!used) return [];
  if (run.files.exists(final)) {
    const text = await run.files.readText(final);
    let state: unknown;
    try {
      // The one JSON text rule: malformed, too deep, 1e999 and duplicate keys are each named here.
      state = parseJsonText(text ?? '');
    } catch (error) {
      return [{ invariant: 'artifact-invalid', message: `convergence final state ${jsonProblem(error)}`, evidence: [final] }];
    }
    // Loaded only for a run that has a final state: the convergence lib is the heaviest import here.
    const { validateFinalState } = await import('@okstra/convergence');
    const report = validateFinalState(state);
    return report.ok
      ? []
      : [
          {
            invariant: 'convergence-final',
            message: `convergence final state fails validate --kind final: ${report.errors[0] ?? 'invalid'}`,
            evidence: [final],
          },
        ];
  }
  const report = finalReportPath(run.runDir, run);
  if (run.files.exists(report)) {
    return [
      {
        invariant: 'convergence-final',
        message: 'the final report exists but there is no final convergence state',
        evidence: [report, ...[work, groups].filter((p) => run.files.exists(p))],
      },
    ];
  }
  if (mustHaveFinished(run) && run.files.exists(work)) {
    return [
      {
        invariant: 'convergence-final',
        message: `the run ${run.manifest.status} but its convergence working state was never finalized`,
        evidence: [run.manifestPath, work],
      },
    ];
  }
  return [];
}
