import { auditSidecarPath, parseArtifactName, promptPath, runSuffix, workerResultPath, joinPath as join } from '@okstra/paths';
import type { WorkerAuditFailure } from '@okstra/schemas/audit';
import type { FileIndex } from '../files.js';
import { evidenceReadRows, extractCitations, hasReadingConfirmationHeading, requiresEvidenceLedger } from './ledger.js';
import { appendAll } from '@okstra/core';

/** Which run, and optionally which worker, {@link checkWorkerResults} checks. */
export interface WorkerAuditScope {
  /** `runs/<task-type>/[stage-<N>/]` (absolute). */
  runDir: string;
  taskType: string;
  /** Zero-padded seq (`001`) or its number. */
  seq: string | number;
  /** Only this worker (`--worker`); its result file must then exist. */
  worker?: string;
}

/**
 * The worker audit-sidecar rules (seed 000 0.161.0 `worker-audit-check` row;
 * docs/worker-audit-check.md), one home for `worker-audit-check` and
 * run-audit invariant 13. For each `worker-results/<worker>-<type>-<seq>.md`
 * of the run (sorted by worker id):
 * - `reading-confirmation-heading`: the result has no `## 0. Reading Confirmation` heading;
 * - `audit-sidecar-missing`: `<worker>-<type>-<seq>.audit.md` exists;
 * - `evidence-row-missing`: when `prompts/<worker>-prompt-<type>-<seq>.md`
 *   carries the required-v1 marker, every backticked `path:line` citation of the
 *   result has a row in the sidecar's `## Evidence read` table.
 * With `scope.worker`, only that worker; a missing result is `result-missing`.
 * `file` in each failure is absolute; callers relativize it.
 */
export async function checkWorkerResults(scope: WorkerAuditScope, files: FileIndex): Promise<WorkerAuditFailure[]> {
  const run = { taskType: scope.taskType, seq: scope.seq };
  let workers: string[];
  if (scope.worker !== undefined) {
    const result = workerResultPath(scope.runDir, scope.worker, run);
    if (!files.exists(result)) {
      return [{ worker: scope.worker, rule: 'result-missing', file: result, message: `no result file for worker '${scope.worker}'` }];
    }
    workers = [scope.worker];
  } else {
    workers = workerResultIds(scope, files);
  }
  const failures: WorkerAuditFailure[] = [];
  for (const worker of workers) appendAll(failures, await checkOneWorker(scope.runDir, worker, run, files));
  return failures;
}

/**
 * The worker ids that have a result of this run: every
 * `worker-results/<worker>-<type>-<seq>.md` of `scope.runDir` except round
 * responses ({@link isRoundResponse}), sorted. `scope.worker` is ignored.
 */
export function workerResultIds(scope: WorkerAuditScope, files: FileIndex): string[] {
  const seq = typeof scope.seq === 'number' ? scope.seq : Number(scope.seq);
  const suffix = `${runSuffix(scope.taskType, scope.seq)}.md`;
  return files
    .list(join(scope.runDir, 'worker-results'))
    .filter((name) => name.endsWith(suffix)) // cheap pre-filter: a run dir holds every seq's results
    .map((name) => parseArtifactName(name, scope.taskType))
    .filter((p) => p?.kind === 'worker-result' && p.seq === seq && !isRoundResponse(p.workerId!))
    .map((p) => p!.workerId!)
    .sort();
}

/**
 * True for the worker part of a round response rather than a worker result:
 * `<worker>-reverify-r<N>` (convergence round N, read by `convergence
 * collect-results`), `<worker>-gap-vote` (read by `convergence
 * collect-critic-gaps`) and `<worker>-plan-verify` (read by `plan-items
 * collect-verdicts`) — libs/paths `reverifyResultPath` / `gapVoteResultPath` / `planVerifyResultPath`.
 * Their format is those commands' contract, not the audit-sidecar rules'.
 */
export function isRoundResponse(workerPart: string): boolean {
  return /-reverify-r[1-9][0-9]*$/.test(workerPart) || /-(?:plan-verify|gap-vote)$/.test(workerPart);
}

async function checkOneWorker(
  runDir: string,
  worker: string,
  run: { taskType: string; seq: string | number },
  files: FileIndex,
): Promise<WorkerAuditFailure[]> {
  return checkWorkerFiles(
    {
      worker,
      resultFile: workerResultPath(runDir, worker, run),
      sidecarFile: auditSidecarPath(runDir, worker, run),
      promptFile: promptPath(runDir, worker, run),
    },
    files,
  );
}

/**
 * The worker audit rules (docs/worker-audit-check.md) on one result, its audit sidecar and its
 * prompt, named explicitly: `checkWorkerResults` runs them on a run's worker results; `okstra
 * convergence run` on each round response as it arrives (its sidecar beside it, its reverify prompt).
 * @returns the failures, empty when the result passes.
 */
export async function checkWorkerFiles(
  target: { worker: string; resultFile: string; sidecarFile: string; promptFile: string },
  files: FileIndex,
): Promise<WorkerAuditFailure[]> {
  const { worker, resultFile, sidecarFile, promptFile } = target;
  const result = (await files.readText(resultFile)) ?? '';
  const out: WorkerAuditFailure[] = [];
  if (hasReadingConfirmationHeading(result)) {
    out.push({ worker, rule: 'reading-confirmation-heading', file: resultFile, message: 'the result carries a "## 0. Reading Confirmation" heading' });
  }
  const sidecar = files.exists(sidecarFile) ? await files.readText(sidecarFile) : null;
  if (sidecar === null) {
    out.push({ worker, rule: 'audit-sidecar-missing', file: sidecarFile, message: 'the audit sidecar does not exist' });
  }
  const prompt = files.exists(promptFile) ? await files.readText(promptFile) : null;
  if (prompt !== null && requiresEvidenceLedger(prompt)) {
    const rows = new Set(sidecar === null ? [] : evidenceReadRows(sidecar));
    for (const citation of extractCitations(result)) {
      if (rows.has(citation)) continue;
      out.push({
        worker,
        rule: 'evidence-row-missing',
        file: sidecarFile,
        citation,
        message: `citation \`${citation}\` has no Evidence read row in the audit sidecar`,
      });
    }
  }
  return out;
}
