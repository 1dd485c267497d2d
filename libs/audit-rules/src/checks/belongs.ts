import { basename } from 'node:path';
import { isInside, parseArtifactName } from '@okstra/paths';
import type { Finding, RunUnderAudit } from '../run-context.js';
import { resolveRecorded } from './recorded-path.js';

/** The row fields that record a path of this worker's own artifact. */
const ROW_PATHS = ['promptPath', 'resultPath', 'auditSidecarPath'] as const;
/** The libs/paths kind of file each field names: a result field naming the worker's prompt or audit sidecar is believed no more. */
const FIELD_KIND = { promptPath: 'prompt', resultPath: 'worker-result', auditSidecarPath: 'audit-sidecar' } as const;

/**
 * Invariant 22 `path-foreign` (seed 002 architecture: "the filename suffix
 * `-<task-type>-<seq>` separates reruns"; 000 cmux.md "tear down only
 * Okstra-owned panes recorded for the run"): a path a team-state row records
 * belongs to its row — it lies inside the project root and this run's directory, and when libs/paths
 * names the file (a prompt, worker result or audit sidecar) it carries this
 * row's worker id and this run's `<type>-<seq>`. A report writer's result may
 * be the run's report data.json (docs/contracts.md §7, completion paths).
 */
export function checkRecordedPathsBelong(run: RunUnderAudit): Finding[] {
  const out: Finding[] = [];
  const state = run.teamStatePath ? [run.teamStatePath] : [];
  const seq = Number(run.seq);
  for (const row of run.teamState?.workers ?? []) {
    for (const field of ROW_PATHS) {
      const recorded = row[field];
      if (!recorded) continue;
      const abs = resolveRecorded(run.projectRoot, recorded);
      const who = `worker '${row.workerId}' ${field} '${recorded}'`;
      if (!abs) {
        // Outside the project root (never read, docs/run-audit.md "What is scanned"): a fortiori outside this run.
        out.push({ invariant: 'path-foreign', message: `${who} lies outside the project root`, evidence: [...state] });
        continue;
      }
      if (!isInside(run.runDir, abs)) {
        out.push({ invariant: 'path-foreign', message: `${who} lies outside this run's directory`, evidence: [...state, abs] });
        continue;
      }
      const parsed = safeParse(basename(abs), run.taskType);
      if (!parsed) continue;
      if (parsed.kind !== FIELD_KIND[field]) {
        out.push({ invariant: 'path-foreign', message: `${who} is a ${parsed.kind} file, not a ${FIELD_KIND[field]}`, evidence: [...state, abs] });
      } else if (parsed.seq !== undefined && parsed.seq !== seq) {
        out.push({ invariant: 'path-foreign', message: `${who} names seq ${parsed.seq}, not this run's ${run.seq}`, evidence: [...state, abs] });
      } else if (parsed.workerId !== undefined && parsed.workerId !== row.workerId && !isRoundOf(parsed.workerId, row.workerId)) {
        out.push({ invariant: 'path-foreign', message: `${who} is worker '${parsed.workerId}''s file`, evidence: [...state, abs] });
      }
    }
  }
  return out;
}

/** A round response or retry file of the row's own worker (`claude-reverify-r2`, `claude-plan-verify`). */
function isRoundOf(part: string, workerId: string): boolean {
  return part.startsWith(`${workerId}-`) && /-(?:reverify-r[1-9][0-9]*|plan-verify|gap-vote|repair-.+)$/.test(part);
}

function safeParse(name: string, taskType: string): { kind: string; workerId?: string; seq?: number } | null {
  try {
    const p = parseArtifactName(name, taskType) as { kind: string; workerId?: string; seq?: number } | null;
    if (!p || !['prompt', 'worker-result', 'audit-sidecar'].includes(String(p.kind))) return null;
    return p;
  } catch {
    return null;
  }
}
