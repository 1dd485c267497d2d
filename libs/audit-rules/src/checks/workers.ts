import { promptPath, workerResultPath } from '@okstra/paths';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { failureLogged, mustHaveFinished, runEnded, type Finding, type RunUnderAudit } from '../run-context.js';
import { resolveRecorded } from './recorded-path.js';
import { isTerminalWorkerStatus, requiresReason, STARTED_TERMINAL_STATUSES } from '@okstra/schemas/vocabulary';

const ATTEMPTED = new Set<string>(STARTED_TERMINAL_STATUSES);

/** True for a non-empty (after trimming) reason. */
export function hasReason(reason: string | null | undefined): boolean {
  return typeof reason === 'string' && reason.trim() !== '';
}

/**
 * Invariants 2–6 (docs/run-audit.md) over every team-state row, in row order:
 * 2 `worker-not-terminal`, 3 `worker-times`, 4 `reason-missing`,
 * 5 `prompt-missing`, 6 `result-missing`. A `pending` row (never dispatched)
 * of a failed or aborted run that logged its failure is not a violation of 2;
 * an `in-progress` one always is.
 */
export function checkWorkerRows(run: RunUnderAudit): Finding[] {
  if (!run.teamState || !run.teamStatePath) return [];
  const state = run.teamStatePath;
  const out: Finding[] = [];
  for (const row of run.teamState.workers) {
    const who = `worker '${row.workerId}'`;
    if (runEnded(run) && !isTerminalWorkerStatus(row.status) && !(row.status === 'pending' && failureLogged(run))) {
      out.push({
        invariant: 'worker-not-terminal',
        message: `${who} is still ${row.status} although the run-manifest says ${run.manifest.status}`,
        evidence: [run.manifestPath, state],
      });
    }
    const times = timeProblem(row);
    if (times) out.push({ invariant: 'worker-times', message: `${who} (${row.status}) ${times}`, evidence: [state] });
    if (requiresReason(row.status) && !hasReason(row.reason)) {
      out.push({ invariant: 'reason-missing', message: `${who} ended ${row.status} without a reason`, evidence: [state] });
    }
    if (ATTEMPTED.has(row.status)) {
      const prompt = recordedOr(run, row.promptPath, () => promptPath(run.runDir, row.workerId, run));
      if (!prompt.abs || !run.files.exists(prompt.abs)) {
        out.push({
          invariant: 'prompt-missing',
          message: `${who} ended ${row.status} but its prompt ${prompt.shown} was not saved`,
          evidence: [state, ...(prompt.abs ? [prompt.abs] : [])],
        });
      }
    }
    if (row.status === 'completed') {
      const result = recordedOr(run, row.resultPath, () => workerResultPath(run.runDir, row.workerId, run));
      if (!result.abs || !run.files.exists(result.abs)) {
        out.push({
          invariant: 'result-missing',
          message: `${who} is completed but its result file ${result.shown} does not exist`,
          evidence: [state, ...(result.abs ? [result.abs] : [])],
        });
      }
    }
  }
  return out;
}

function timeProblem(row: TeamStateRow): string | null {
  // seed 000 worker-state transition: "`in-progress` records the authoritative `startedAt` and clears `endedAt`".
  if (row.status === 'in-progress' && row.endedAt) return `is in-progress but still has endedAt ${row.endedAt}`;
  if (row.status === 'in-progress' && !row.startedAt) return 'is in-progress but records no startedAt';
  if (!isTerminalWorkerStatus(row.status)) return null;
  if (!row.endedAt) return 'has no endedAt';
  if (row.status !== 'not-run' && !row.startedAt) return 'has no startedAt';
  if (row.startedAt && Date.parse(row.endedAt) < Date.parse(row.startedAt)) {
    return `ended at ${row.endedAt}, before it started at ${row.startedAt}`;
  }
  return null;
}

/** The recorded path when there is one (resolved inside the root), else the layout default. */
function recordedOr(run: RunUnderAudit, recorded: string | null | undefined, fallback: () => string): { abs: string | null; shown: string } {
  if (recorded) {
    const abs = resolveRecorded(run.projectRoot, recorded);
    return { abs, shown: abs ? `'${recorded}'` : `'${recorded}' (outside the project root)` };
  }
  const abs = fallback();
  return { abs, shown: 'at its layout path' };
}

/**
 * Invariant 15 `worker-row-missing` (seed 002 lead contract: "every selected
 * worker must have either a saved result file or an explicit terminal status
 * with reason"): once a run must have finished (`mustHaveFinished`), every
 * worker of the run-manifest's `workerAssignments` — its `workerId`, else its
 * provider, as `okstra team dispatch` names it — has a team-state row. An empty
 * `workers` list is reported once for the whole roster.
 */
export function checkSelectedWorkerRows(run: RunUnderAudit): Finding[] {
  if (!run.teamState || !run.teamStatePath || !mustHaveFinished(run)) return [];
  const rows = new Set(run.teamState.workers.map((r) => r.workerId));
  const selected = [...new Set(run.manifest.workerAssignments.map((a) => a.workerId ?? a.provider))];
  const missing = selected.filter((id) => !rows.has(id));
  if (missing.length === 0) return [];
  const evidence = [run.manifestPath, run.teamStatePath];
  if (rows.size === 0) {
    return [
      {
        invariant: 'worker-row-missing',
        message: `team-state has no worker rows, but workerAssignments selects ${missing.map((id) => `'${id}'`).join(', ')}`,
        evidence,
      },
    ];
  }
  return missing.map((id) => ({
    invariant: 'worker-row-missing' as const,
    message: `selected worker '${id}' (workerAssignments) has no team-state row`,
    evidence,
  }));
}
