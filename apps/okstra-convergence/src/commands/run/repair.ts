import { existsSync } from 'node:fs';
import { repairJobsPath } from '@okstra/paths';
import { coverageBatchArtifact, roundResultsArtifact } from '@okstra/schemas/convergence';
import { jobsFileArtifact } from '@okstra/schemas/jobs-file';
import { repairDispatchKind } from '@okstra/schemas/vocabulary';
import { readArtifact } from '@okstra/state-file';
import type { CliContext } from '@okstra/cli-kit';
import type { RunContext } from '@okstra/team-run';
import { awaitKind } from './team.js';
import type { RunPlace } from './round-files.js';

/** The fields of a round's worker report a repair updates. */
export interface RepairableReport {
  workerId: string;
  status: string;
  durationMs: number;
  reason: string | null;
  refused: string | null;
  usage: unknown;
}

/** One repair of a round or of the gap vote, as `run`'s report lists it (`repairs[]`). */
export interface RepairReport {
  workerId: string;
  dispatchKind: string;
  /** `read`, `refused`, `timeout`, `error`, `not-run` (schema `RepairRecord`). */
  outcome: string;
}

/**
 * The repair step of `run`'s collect (docs/convergence.md "Repair dispatch"): once a `--repair`
 * collect of the dispatch of `kind` (`reverify-r<N>`, `gap-vote`) has refused and written the repair
 * jobs file, dispatch the workers of that file not started yet (`dispatch`: run's own not-started
 * rule, so a resumed run never starts a repair twice), await `repair-<kind>`, and take each repaired
 * worker's status, duration and usage from it for the next collect. `step` marks the boundaries
 * (`repair dispatch`, `repair await`) for the step trace seam.
 * @returns false when there is no repair jobs file (nothing to repair: the caller gives the outcome up).
 */
export async function repairRefused(
  ctx: CliContext,
  team: RunContext,
  place: RunPlace,
  kind: string,
  deadline: string | undefined,
  reports: RepairableReport[],
  dispatch: (jobsPath: string, dispatchKind: string, workers: ReadonlyArray<{ workerId: string }>) => Promise<string[]>,
  step: (name: string) => void,
): Promise<boolean> {
  const jobsPath = repairJobsPath(place.runDir, kind, place.run);
  if (!existsSync(jobsPath)) return false;
  const repairKind = repairDispatchKind(kind);
  await resumeRepair(place, kind, dispatch);
  step('repair dispatch');
  for (const row of await awaitKind(ctx, team, deadline, repairKind)) {
    const report = reports.find((r) => r.workerId === row.workerId);
    if (!report) continue;
    Object.assign(report, { status: row.status, durationMs: row.durationMs, reason: row.reason, usage: row.usage ?? null });
  }
  step('repair await');
  return true;
}

/**
 * Dispatch the not-started workers of the repair jobs file of `kind`, if a collect wrote one (a
 * resumed run, before it awaits `kind`): a repair whose dispatch was killed before it launched its
 * worker leaves a `starting` record and an in-progress row that await would wait on for ever; the
 * not-started rule (`dispatch`) starts it once, and never a repair that started.
 */
export async function resumeRepair(
  place: RunPlace,
  kind: string,
  dispatch: (jobsPath: string, dispatchKind: string, workers: ReadonlyArray<{ workerId: string }>) => Promise<string[]>,
): Promise<void> {
  const jobsPath = repairJobsPath(place.runDir, kind, place.run);
  if (!existsSync(jobsPath)) return;
  await dispatch(jobsPath, repairDispatchKind(kind), (await readArtifact(jobsPath, jobsFileArtifact)).jobs);
}

/** A collected outcome that may carry its repair (`RepairRecord`: a round results row, a coverage batch `dispatches[]` row). */
interface RepairedOutcome {
  workerId: string;
  status: string;
  repair?: { dispatchKind: string; outcome: string; problems?: string[] } | undefined;
}

/**
 * The repairs the round results record (`outcome.repair`), and each repaired worker's report made to
 * agree with its outcome (a repair refused again or failed is `error`).
 */
export async function repairsOf(resultsPath: string, reports: RepairableReport[]): Promise<RepairReport[]> {
  return repairsOfOutcomes((await readArtifact(resultsPath, roundResultsArtifact)).workers, reports);
}

/** The same for the gap vote: the repairs its coverage batch records (`dispatches[].repair`). */
export async function gapRepairsOf(batchPath: string, reports: RepairableReport[]): Promise<RepairReport[]> {
  return repairsOfOutcomes((await readArtifact(batchPath, coverageBatchArtifact)).dispatches as RepairedOutcome[], reports);
}

function repairsOfOutcomes(outcomes: readonly RepairedOutcome[], reports: RepairableReport[]): RepairReport[] {
  const out: RepairReport[] = [];
  for (const w of outcomes) {
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
