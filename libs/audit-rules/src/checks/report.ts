import { basename } from 'node:path';
import { finalReportDataPath, finalReportPath } from '@okstra/paths';
import type { Finding, RunUnderAudit } from '../run-context.js';
import { isReportWriter } from './report-writer.js';
import { hasReason } from './workers.js';
import { requiresReason } from '@okstra/schemas/vocabulary';

/** Invariant 1 `report-missing`: a `completed` run has both `final-report-<type>-<seq>.md` and `.data.json`. */
export function checkReportPresent(run: RunUnderAudit): Finding[] {
  if (run.manifest.status !== 'completed') return [];
  const missing = [finalReportPath(run.runDir, run), finalReportDataPath(run.runDir, run)].filter((p) => !run.files.exists(p));
  if (missing.length === 0) return [];
  const names = missing.map((p) => basename(p)).join(' and ');
  return [
    {
      invariant: 'report-missing',
      message: `run-manifest says completed but ${names} ${missing.length > 1 ? 'are' : 'is'} missing`,
      evidence: [run.manifestPath, ...missing],
    },
  ];
}

/**
 * Invariant 7 `lead-report-unjustified`: `reportAuthor: lead` needs a
 * team-state row of the report-writer (role or worker id `report-writer`)
 * that ended `error`/`timeout`/`not-run` with a reason.
 */
export function checkLeadReport(run: RunUnderAudit): Finding[] {
  if (run.manifest.reportAuthor !== 'lead') return [];
  const rows = run.teamState?.workers ?? [];
  const justified = rows.some((row) => isReportWriter(row) && requiresReason(row.status) && hasReason(row.reason));
  if (justified) return [];
  const writer = rows.find(isReportWriter);
  const why = writer
    ? `the report-writer row ended ${writer.status}${hasReason(writer.reason) ? '' : ' without a reason'}`
    : 'no report-writer dispatch was recorded';
  return [
    {
      invariant: 'lead-report-unjustified',
      message: `reportAuthor is lead but ${why}`,
      evidence: [run.manifestPath, ...(run.teamStatePath ? [run.teamStatePath] : [])],
    },
  ];
}
