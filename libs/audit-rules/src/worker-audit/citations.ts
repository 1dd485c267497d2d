import { evidenceFileOf, isInvented, runCitationChecker, type CitationReport } from '@okstra/citations';
import { workerResultPath } from '@okstra/paths';
import type { WorkerAuditFailure, WorkerCitations } from '@okstra/schemas/audit';
import type { FileIndex } from '../files.js';
import { workerResultIds, type WorkerAuditScope } from './rules.js';

/**
 * The citation rule of `worker-audit-check` (docs/worker-audit-check.md "Citations checked"): each
 * worker result's citations checked against the project and the worker's evidence file. A citation
 * naming no file of the project is `citation-not-found`, one whose lines are past the file's end
 * `citation-out-of-range` (failures, `file` the result); the rest is reported per worker.
 */
export async function checkWorkerCitations(
  scope: WorkerAuditScope,
  files: FileIndex,
): Promise<{ failures: WorkerAuditFailure[]; citations: WorkerCitations[] }> {
  const run = { taskType: scope.taskType, seq: scope.seq };
  const workers =
    scope.worker !== undefined ? [scope.worker].filter((w) => files.exists(workerResultPath(scope.runDir, w, run))) : workerResultIds(scope, files);
  if (workers.length === 0) return { failures: [], citations: [] };
  const checker = runCitationChecker(scope.runDir, run);
  const failures: WorkerAuditFailure[] = [];
  const citations: WorkerCitations[] = [];
  for (const worker of workers) {
    const resultFile = workerResultPath(scope.runDir, worker, run);
    if (checker.status === 'unchecked') {
      citations.push({
        worker,
        status: 'unchecked',
        reason: checker.reason,
        cited: 0,
        exist: 0,
        inRange: 0,
        quoted: 0,
        match: 0,
        read: 'unknown',
        holding: 0,
        notHolding: [],
        notRead: [],
      });
      continue;
    }
    const text = (await files.readText(resultFile)) ?? '';
    const { citations: reports, summary } = checker.check(text, evidenceFileOf(resultFile));
    for (const r of reports.filter(isInvented))
      failures.push({
        worker,
        rule: r.problem === 'out-of-range' ? 'citation-out-of-range' : 'citation-not-found',
        file: resultFile,
        citation: r.citation,
        message: failureMessage(r, checker.tree.label),
      });
    citations.push({
      worker,
      status: 'checked',
      ...summary,
      notHolding: reports.filter((r) => !r.holds).map((r) => ({ citation: r.citation, problem: r.problem! })),
      notRead: reports.filter((r) => r.read === 'not-read').map((r) => r.citation),
    });
  }
  return { failures, citations };
}

function failureMessage(r: CitationReport, tree: string): string {
  if (r.problem === 'out-of-range') return `citation \`${r.citation}\`: lines ${r.lines[0]}-${r.lines[1]} are not in ${r.file} (${tree})`;
  if (r.problem === 'outside-project') return `citation \`${r.citation}\` names a path outside the project`;
  if (r.problem === 'not-a-file') return `citation \`${r.citation}\` names no regular file of the project (${tree})`;
  return `citation \`${r.citation}\` names no file of the project (${tree})`;
}
