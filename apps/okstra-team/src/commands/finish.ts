import { existsSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InputError, writeJson, type CliContext } from '@okstra/cli-kit';
import { finalReportDataPath, finalReportPath } from '@okstra/paths';
import { capabilityOfRoleLabel } from '@okstra/schemas/roles';
import { runManifestArtifact } from '@okstra/schemas/run-manifest';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { REPORT_WRITER_ROLE, requiresReason } from '@okstra/schemas/vocabulary';
import { parseJsonText, readTextFile, validateArtifact, withFileLock, writeArtifact } from '@okstra/state-file';
import { readTeamState } from '@okstra/team-state';
import { loadRun } from '@okstra/team-run';

/** Flags of `team finish`. */
export interface FinishFlags {
  projectRoot: string;
  runManifest: string;
  status?: 'completed' | 'failed' | 'aborted';
  reason?: string;
  json?: boolean;
}

const isWriter = (r: Pick<TeamStateRow, 'workerId' | 'role'>) => r.workerId === REPORT_WRITER_ROLE || capabilityOfRoleLabel(r.role) === REPORT_WRITER_ROLE;

/**
 * `okstra-team finish --project-root <dir> --run-manifest <p> [--status completed|failed|aborted] [--reason <text>]`
 * (docs/team.md "finish"): mark the run ended in its manifest — `status`, `endedAt` (now) and `reportAuthor`
 * (`report-writer` when the writer's row completed; `lead` when it ended `timeout`/`error`/`not-run` with a reason
 * and a final report exists: the seeds' one legal lead-authored fallback). The lead runs it after usage collection,
 * before `okstra run-audit` and the user's approval gate; the last round's panes are torn down after the gate.
 * `failed`/`aborted` need `--reason`, appended as one line of `<task-root>/errors-<date>.jsonl` naming the run.
 * A run already ended with the same status is left as is (exit 0); with another, exit 2.
 * @throws InputError (exit 2): a worker still `in-progress` (or, for `completed`, still `pending`), a completed run
 * with no final report, a missing reason, a run that already ended otherwise.
 */
export async function runFinish(flags: FinishFlags, ctx: CliContext): Promise<number> {
  const status = flags.status ?? 'completed';
  if (status !== 'completed' && !flags.reason?.trim()) throw new InputError(`--status ${status} needs --reason`, { field: '--reason' });
  const run = await loadRun(ctx.io, flags.projectRoot, flags.runManifest);
  const rows = existsSync(run.teamStatePath) ? (await readTeamState(run.teamStatePath)).workers : [];
  for (const row of rows) {
    if (row.status === 'in-progress' || (status === 'completed' && row.status === 'pending'))
      throw new InputError(`worker '${row.workerId}' is still ${row.status}: await it or record its terminal status first`, {
        file: run.teamStatePath,
        field: 'workers',
      });
  }
  const ref = { taskType: run.manifest.taskType, seq: run.manifest.seq };
  const report = [finalReportPath(run.runDir, ref), finalReportDataPath(run.runDir, ref)];
  if (status === 'completed' && !report.every((p) => existsSync(p)))
    throw new InputError('a completed run has its final report (.md and .data.json): write it before finishing the run', { file: report[0] });
  const writer = rows.find(isWriter);
  const reportAuthor =
    writer?.status === 'completed'
      ? REPORT_WRITER_ROLE
      : writer && requiresReason(writer.status) && writer.reason && report.some((p) => existsSync(p))
        ? 'lead'
        : (run.manifest.reportAuthor ?? null);
  const now = ctx.io.now().toISOString();
  const changed = await withFileLock(run.manifestPath, async () => {
    const raw = parseJsonText<Record<string, unknown>>(await readTextFile(run.manifestPath), { label: run.manifestPath });
    const current = validateArtifact(raw, runManifestArtifact, { label: run.manifestPath });
    if (current.status === status) return false;
    if (current.status !== 'running') throw new InputError(`the run already ended ${current.status}`, { file: run.manifestPath, field: 'status' });
    const next = { ...current, ...raw, status, endedAt: now, ...(reportAuthor ? { reportAuthor } : {}) };
    await writeArtifact(run.manifestPath, runManifestArtifact, next, { replace: 'any' });
    return true;
  });
  if (changed && status !== 'completed') {
    // Invariant 28: a failed or aborted run logs a line naming it in its task's errors log.
    const taskRoot = dirname(dirname(run.manifest.stage ? dirname(run.runDir) : run.runDir));
    const line = { at: now, taskKey: run.manifest.taskKey, taskType: ref.taskType, seq: ref.seq, status, error: flags.reason!.trim() };
    await appendFile(join(taskRoot, `errors-${now.slice(0, 10)}.jsonl`), JSON.stringify(line) + '\n');
  }
  const out = { runManifest: run.manifestPath, status, endedAt: changed ? now : null, reportAuthor, changed };
  if (flags.json) writeJson(ctx.io, out);
  else ctx.io.stdout.write(`${status}\t${changed ? now : 'unchanged'}\t${reportAuthor ?? ''}\n`);
  return 0;
}
