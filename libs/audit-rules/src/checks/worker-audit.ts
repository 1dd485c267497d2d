import { mustHaveFinished, type Finding, type RunUnderAudit } from '../run-context.js';
import { checkWorkerResults } from '../worker-audit/rules.js';

/**
 * Invariant 13 `worker-audit`: once the run must have finished (`mustHaveFinished`:
 * completed, or failed/aborted without a logged failure), every worker result passes
 * the same rules `okstra worker-audit-check` applies mid-run (one module,
 * `checkWorkerResults`), so the mid-run pass and the final audit cannot disagree.
 */
export async function checkWorkerAudit(run: RunUnderAudit): Promise<Finding[]> {
  if (!mustHaveFinished(run)) return [];
  const failures = await checkWorkerResults({ runDir: run.runDir, taskType: run.taskType, seq: run.seq }, run.files);
  return failures.map((f) => ({
    invariant: 'worker-audit' as const,
    message: `worker '${f.worker}': ${f.rule}: ${f.message}`,
    evidence: [f.file],
  }));
}
