import { parseHeartbeats } from '@okstra/heartbeat';
import { auditSidecarPath, finalReportPath, promptPath, wrapperLogPath, wrapperStatusPath } from '@okstra/paths';
import type { Assignment } from '@okstra/schemas/run-manifest';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { REPORT_WRITER_ROLE, requiresReason } from '@okstra/schemas/vocabulary';
import { capabilityOfRoleLabel } from '@okstra/schemas/roles';
import { runEnded, type Finding, type RunUnderAudit } from '../run-context.js';
import { resolveRecorded } from './recorded-path.js';
import { hasReason } from './workers.js';

/** The report writer's role and default worker id (the vocabulary's one home). */
const REPORT_WRITER = REPORT_WRITER_ROLE;

/**
 * True for the report writer's team-state row or assignment: its worker id is
 * `report-writer`, or its role is a report-writer label of the roles
 * vocabulary (libs/schemas roles.ts: `report-writer`, "Report writer worker"
 * as seed 002's lead contract names it, `Report writer`; case and separators ignored).
 */
export function isReportWriter(x: { role?: string | null; workerId?: string | null }): boolean {
  return x.workerId === REPORT_WRITER || (typeof x.role === 'string' && capabilityOfRoleLabel(x.role) === REPORT_WRITER_ROLE);
}

/**
 * Reasons the seed 002 lead contract names as NOT valid for skipping the
 * report writer ("Session resume", "team is no longer alive", and similar):
 * the lead's session was resumed, restarted or compacted, or its team or
 * workers died, went away or are no longer alive — in any wording and, for
 * the words a lead writes most (Korean, Japanese, Chinese), in those languages too.
 */
const INVALID_REASONS = [
  /session[\s-]*resum/i,
  /\bresum(?:e|ed|es|ing|ption)\b/i,
  /\bsession\b[^.;\n]{0,30}\b(?:restart|reset|expired|ended|lost|compact)/i,
  /\bcompact(?:ed|ion)\b/i,
  /team (?:is )?no longer alive/i,
  /\b(?:team|teammates?|workers?|panes?)\b[^.;\n]{0,40}\b(?:died|dead|gone|lost|vanished|not alive|no longer (?:alive|available|exists?|running|there))\b/i,
  /no (?:live|alive|running) (?:team|workers?)/i,
  /세션|재개|팀[이은]?[^.\n]{0,20}(?:종료|없|죽|사라)/,
  /セッション|再開|チーム[^。\n]{0,20}(?:終了|消え|存在しない|いない)/,
  /会话|會話|恢复|恢復|团队[^。\n]{0,20}(?:不再|已经?结束|消失)/,
];

/** True when a report-writer reason is one the lead contract rules out. */
export function isInvalidWriterReason(reason: string | null | undefined): boolean {
  return typeof reason === 'string' && INVALID_REASONS.some((re) => re.test(reason));
}

/** Start evidence written by the dispatch itself, not by the lead's row. */
const DISPATCH_EVIDENCE = new Set(['wrapper log', 'status sidecar', 'dispatch record']);

/**
 * What shows the report writer was actually started, judged by artifacts:
 * its row's `startedAt`, its saved prompt (the row's `promptPath`, else the
 * layout path), the wrapper log or status sidecar beside that prompt, or a
 * `workerDispatches[]` record for it. Empty when there is none.
 */
export function writerStartEvidence(run: RunUnderAudit, row: TeamStateRow | undefined): string[] {
  const id = row?.workerId ?? REPORT_WRITER;
  const out: string[] = [];
  if (row?.startedAt) out.push('startedAt');
  const prompt = row?.promptPath ? resolveRecorded(run.projectRoot, row.promptPath) : promptPath(run.runDir, id, run);
  if (prompt && run.files.exists(prompt)) out.push('saved prompt');
  if (prompt && run.files.exists(wrapperLogPath(prompt))) out.push('wrapper log');
  if (prompt && run.files.exists(wrapperStatusPath(prompt))) out.push('status sidecar');
  if (run.manifest.workerDispatches.some((d) => d.workerId === id || d.dispatchKind === REPORT_WRITER)) out.push('dispatch record');
  return out;
}

/**
 * Invariant 14 `report-writer-bypass` (seed 002 lead contract: "The only legal
 * lead-authored fallback is when a Report writer worker dispatch was actually
 * attempted and recorded a terminal status of error/timeout/not-run with an
 * explicit reason"). Judged by artifacts first; the reason text only adds:
 * - a `completed` run whose roster (`workerAssignments`) has the report writer,
 *   with `reportAuthor` unset and no sign it was ever started;
 * - an ended run with `reportAuthor: report-writer` whose report-writer row is not `completed`, or a completed
 *   one whose team-state records workers but no report-writer row (selected by the roster or not);
 * - `reportAuthor: lead` with a failed, reasoned report-writer row (invariant 7
 *   is satisfied) but no sign the writer was ever started, or whose reason is
 *   one the contract names as invalid ("Session resume", "team is no longer alive")
 *   while the row is `not-run` or nothing the writer or its dispatch wrote shows it ran.
 */
export async function checkReportWriterBypass(run: RunUnderAudit): Promise<Finding[]> {
  const m = run.manifest;
  const row = run.teamState?.workers.find(isReportWriter);
  const evidence = [run.manifestPath, ...(run.teamStatePath ? [run.teamStatePath] : [])];
  const finding = (message: string): Finding[] => [{ invariant: 'report-writer-bypass', message, evidence }];
  if (!m.reportAuthor) {
    const inRoster = m.workerAssignments.some((a: Assignment) => isReportWriter(a));
    if (m.status === 'completed' && inRoster && writerStartEvidence(run, row).length === 0) {
      return finding('the report writer is in the roster but was never dispatched, and reportAuthor is not set');
    }
    return [];
  }
  if (m.reportAuthor === REPORT_WRITER) {
    // Credited unfinished: the run completed, or a report exists, while the writer's row did not complete.
    // A failed or aborted run with no report only named its intended author.
    const credited = m.status === 'completed' || run.files.exists(finalReportPath(run.runDir, run));
    if (runEnded(run) && credited && row && row.status !== 'completed') return finding(`reportAuthor is report-writer but its team-state row is ${row.status}`);
    // Credited with no row at all: nothing shows the writer ran (a team-state that records workers but not the author).
    // Whether or not the roster selects it: every worker, native or dispatched, gets its row (docs/team.md "Native
    // workers"), so a credit no row backs is the lead's own claim (seed 000 README: run-audit never takes the lead's word).
    if (m.status === 'completed' && !row && (run.teamState?.workers.length ?? 0) > 0) {
      const selected = m.workerAssignments.some((x: Assignment) => isReportWriter(x));
      return finding(
        `reportAuthor is report-writer, ${selected ? 'the roster selects the report writer' : 'the roster does not select one'}, but no team-state row records it`,
      );
    }
    return [];
  }
  // reportAuthor: lead. Without a failed, reasoned row invariant 7 already reports it.
  if (!row || !requiresReason(row.status) || !hasReason(row.reason)) return [];
  const problems: string[] = [];
  if (writerStartEvidence(run, row).length === 0) {
    problems.push('nothing shows the report writer was ever started (no startedAt, saved prompt, wrapper log, status sidecar or dispatch record)');
  }
  // The contract rules those reasons out for skipping the dispatch. A writer that was dispatched (a dispatch record,
  // the wrapper's log or status sidecar — artifacts the lead does not write itself) and then timed out or failed was
  // not skipped, whatever its reason mentions; a row's startedAt and prompt alone are the lead's own claims.
  // A native writer (started by the lead itself: no record, no wrapper) shows it ran by its own heartbeats.
  const ran = () => writerStartEvidence(run, row).some((e) => DISPATCH_EVIDENCE.has(e)) || writerHeartbeat(run, row);
  if (isInvalidWriterReason(row.reason) && (row.status === 'not-run' || !(await ran())))
    problems.push(`its ${row.status} reason '${row.reason!.trim()}' is one the lead contract rules out`);
  return problems.length ? finding(`reportAuthor is lead but ${problems.join('; and ')}`) : [];
}

/**
 * True when the writer's own audit sidecar (the row's `auditSidecarPath`, else the layout's
 * `worker-results/<id>-<type>-<seq>.audit.md`) holds a heartbeat at or after the row's `startedAt`: the writer wrote
 * it while it ran (docs/contracts.md §7), so a native writer — started by the lead, with no dispatch record or
 * wrapper file (docs/team.md "Native workers") — that then timed out or failed was not skipped.
 */
async function writerHeartbeat(run: RunUnderAudit, row: TeamStateRow): Promise<boolean> {
  const side = row.auditSidecarPath ? resolveRecorded(run.projectRoot, row.auditSidecarPath) : auditSidecarPath(run.runDir, row.workerId, run);
  if (!side || !run.files.exists(side)) return false;
  const text = await run.files.readText(side);
  const from = row.startedAt ? Date.parse(row.startedAt) : NaN;
  return !!text && parseHeartbeats(text).some((h) => Number.isNaN(from) || h.at.getTime() >= from);
}
