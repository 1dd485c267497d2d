import { convergenceFinalStatePath, parseArtifactName, joinPath as join } from '@okstra/paths';
import { parseHeartbeats } from '@okstra/heartbeat';
import { parseJsonText } from '@okstra/state-file';
import { type Finding, type RunUnderAudit } from '../run-context.js';
import { isReportWriter } from './report-writer.js';
import { maxOf, minOf } from '@okstra/core';

const at = (t: string | null | undefined) => (t ? Date.parse(t) : NaN);
const isPlanVerify = (kind: string | undefined) => !!kind && kind.startsWith('plan-verify');

/**
 * Invariant 27 `run-order` — the order the seeds fix, from the artifacts' own times:
 * no worker started before its run started; the report writer ends after every analyser it reports
 * on (seed 002 project structure: the report writer is the data.json author); plan verification runs
 * after the report draft (seed 002 README Phase 6: "Immediately after the report-writer worker drafts
 * the final report"); no re-verification round is dispatched beyond the final state's round limit.
 */
export async function checkRunOrder(run: RunUnderAudit): Promise<Finding[]> {
  const out: Finding[] = [];
  const state = run.teamStatePath ? [run.teamStatePath] : [];
  const add = (message: string) => out.push({ invariant: 'run-order', message, evidence: [run.manifestPath, ...state] });
  const rows = run.teamState?.workers ?? [];
  const runStart = at(run.manifest.startedAt);
  // A run start in the future is time-in-future's (a skewed clock), not an order the rows broke.
  for (const row of runStart <= Date.now() ? rows : []) {
    if (at(row.startedAt) < runStart) add(`worker '${row.workerId}' started at ${row.startedAt}, before its run started at ${run.manifest.startedAt}`);
  }
  const writer = rows.find(isReportWriter);
  if (writer?.status === 'completed' && writer.endedAt) {
    for (const row of rows) {
      if (row === writer || isReportWriter(row) || row.status !== 'completed' || isPlanVerify(row.dispatchKind) || !row.endedAt) continue;
      if (run.manifest.endedAt && at(row.endedAt) > at(run.manifest.endedAt)) continue; // after the run's end: 17's
      if (at(row.endedAt) > at(writer.endedAt)) add(`the report writer ended at ${writer.endedAt}, before analyser '${row.workerId}' ended at ${row.endedAt}`);
    }
    const draft = at(writer.endedAt);
    for (const row of rows.filter((r) => isPlanVerify(r.dispatchKind))) {
      if (at(row.startedAt) < draft)
        add(`plan verification by '${row.workerId}' started at ${row.startedAt}, before the report draft ended at ${writer.endedAt}`);
    }
    for (const d of run.manifest.workerDispatches.filter((x) => isPlanVerify(x.dispatchKind))) {
      if (at(d.startedAt) < draft)
        add(`plan verification dispatch of '${d.workerId}' at ${d.startedAt} came before the report draft ended at ${writer.endedAt}`);
    }
    // A native plan-verify answer has no row or record; its own audit sidecar's heartbeats date it. Judged against the
    // writer's start, not its end: a revision dispatch after the verification may move the writer's endedAt later.
    const sidecar = new RegExp(`-plan-verify-${run.taskType}-${run.seq}\\.audit\\.md$`);
    for (const name of run.files.list(join(run.runDir, 'worker-results')).filter((n) => sidecar.test(n))) {
      const first = minOf(parseHeartbeats((await run.files.readText(join(run.runDir, 'worker-results', name))) ?? '').map((h) => h.at.getTime()));
      if (first < at(writer.startedAt))
        add(`plan verification ${name} was working at ${new Date(first).toISOString()}, before the report writer started drafting at ${writer.startedAt}`);
    }
  }
  const limit = await roundLimit(run);
  if (limit !== null) {
    for (const d of run.manifest.workerDispatches) {
      const n = /^reverify-r([1-9][0-9]*)/.exec(d.dispatchKind)?.[1];
      if (n && Number(n) > limit) add(`worker '${d.workerId}' was dispatched for round ${n} after the final state closed convergence at round limit ${limit}`);
    }
  }
  return out;
}

async function roundLimit(run: RunUnderAudit): Promise<number | null> {
  const final = convergenceFinalStatePath(run.runDir, run);
  if (!run.files.exists(final)) return null;
  const t = await run.files.readText(final);
  try {
    const v = t === null ? null : (parseJsonText(t) as { roundLimit?: unknown });
    return typeof v?.roundLimit === 'number' ? v.roundLimit : null;
  } catch {
    return null;
  }
}

/**
 * Invariant 25 `run-stale` (seed 002 architecture: "the filename suffix `-<task-type>-<seq>`
 * separates reruns"): a `running` run whose work is done — its final report and data.json exist and
 * every team-state row is terminal — or that a later run of the same task type (and stage) superseded.
 */
export function checkRunStale(run: RunUnderAudit): Finding[] {
  if (run.manifest.status !== 'running') return [];
  const out: Finding[] = [];
  const manifests = join(run.runDir, 'manifests');
  const later = run.files
    .list(manifests)
    .map((n) => safeSeq(n, run.taskType))
    .filter((s): s is number => s !== null && s > Number(run.seq));
  if (later.length > 0) {
    out.push({
      invariant: 'run-stale',
      message: `the run is still running but seq ${maxOf(later)} of the same task type started after it`,
      evidence: [run.manifestPath],
    });
  }
  const rows = run.teamState?.workers ?? [];
  const done = !!run.teamState && rows.every((r) => !['pending', 'in-progress'].includes(r.status));
  const report = (suffix: string) => join(run.runDir, 'reports', `final-report-${run.taskType}-${run.seq}${suffix}`);
  if (done && run.files.exists(report('.md')) && run.files.exists(report('.data.json'))) {
    out.push({
      invariant: 'run-stale',
      message: 'the run-manifest says running but its report is written and every worker is terminal',
      evidence: [run.manifestPath, report('.md')],
    });
  }
  return out;
}

function safeSeq(name: string, taskType: string): number | null {
  try {
    const p = parseArtifactName(name, taskType) as { kind?: string; seq?: number } | null;
    return p?.kind === 'run-manifest' && typeof p.seq === 'number' ? p.seq : null;
  } catch {
    return null;
  }
}
