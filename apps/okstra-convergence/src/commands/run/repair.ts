import { existsSync } from 'node:fs';
import { repairJobsPath } from '@okstra/paths';
import { roundResultsArtifact } from '@okstra/schemas/convergence';
import { jobsFileArtifact } from '@okstra/schemas/jobs-file';
import { repairDispatchKind, reverifyDispatchKind } from '@okstra/schemas/vocabulary';
import { readArtifact } from '@okstra/state-file';
import type { CliContext } from '@okstra/cli-kit';
import type { RunContext } from '@okstra/team-run';
import { runAwait } from '@okstra/team-run/await';
import type { RunPlace } from './round-files.js';
import { callCommand } from './sub-command.js';

/** The fields of a round's worker report a repair updates. */
export interface RepairableReport {
  workerId: string;
  status: string;
  durationMs: number;
  reason: string | null;
  refused: string | null;
  usage: unknown;
}

/** One repair of a round, as `run`'s round report lists it (`repairs[]`). */
export interface RepairReport {
  workerId: string;
  dispatchKind: string;
  /** `read`, `refused`, `timeout`, `error`, `not-run` (schema `RepairRecord`). */
  outcome: string;
}

/**
 * The repair step of `run`'s collect (docs/convergence.md "Repair dispatch"): once a
 * `collect-results --repair` of round `round` has refused and written the repair jobs file, dispatch
 * the workers of that file not started yet (`dispatch`: run's own not-started rule, so a resumed run
 * never starts a repair twice), await the round (a repair is judged in its kind's round), and take
 * each repaired worker's status, duration and usage from it for the next collect.
 * @returns false when there is no repair jobs file (nothing to repair: the caller gives the outcome up).
 */
export async function repairRefused(
  ctx: CliContext,
  team: RunContext,
  place: RunPlace,
  round: number,
  deadline: string | undefined,
  reports: RepairableReport[],
  dispatch: (jobsPath: string, dispatchKind: string, workers: ReadonlyArray<{ workerId: string }>) => Promise<string[]>,
): Promise<boolean> {
  const kind = reverifyDispatchKind(round);
  const jobsPath = repairJobsPath(place.runDir, kind, place.run);
  if (!existsSync(jobsPath)) return false;
  const repairKind = repairDispatchKind(kind);
  const jobs = (await readArtifact(jobsPath, jobsFileArtifact)).jobs;
  await dispatch(jobsPath, repairKind, jobs);
  const awaited = await callCommand(ctx, runAwait, {
    projectRoot: team.projectRoot,
    runManifest: team.manifestPath,
    deadline,
    json: true,
    dispatchKind: repairKind,
  });
  for (const row of (awaited.json?.workers ?? []) as Array<{ workerId: string; status: string; durationMs: number; reason: string | null; usage: unknown }>) {
    const report = reports.find((r) => r.workerId === row.workerId);
    if (!report) continue;
    Object.assign(report, { status: row.status, durationMs: row.durationMs, reason: row.reason, usage: row.usage ?? null });
  }
  return true;
}

/**
 * The repairs the round results record (`outcome.repair`), and each repaired worker's report made to
 * agree with its outcome (a repair refused again or failed is `error`).
 */
export async function repairsOf(resultsPath: string, reports: RepairableReport[]): Promise<RepairReport[]> {
  const results = await readArtifact(resultsPath, roundResultsArtifact);
  const out: RepairReport[] = [];
  for (const w of results.workers) {
    if (!w.repair) continue;
    out.push({ workerId: w.workerId, dispatchKind: w.repair.dispatchKind, outcome: w.repair.outcome });
    const report = reports.find((r) => r.workerId === w.workerId);
    if (report && w.status !== 'completed') {
      report.status = w.status;
      report.refused = w.repair.outcome === 'refused' ? (w.repair.problems ?? []).join('; ') : report.refused;
      report.reason = `repair ${w.repair.outcome}${report.reason ? `: ${report.reason}` : ''}`;
    }
  }
  return out;
}
