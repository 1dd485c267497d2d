import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError } from '@okstra/core';
import { repairJobsPath, repairPromptPath, runManifestPath, teamStatePath, toProjectRelative, type RunRef } from '@okstra/paths';
import { jobsFileArtifact, type Job } from '@okstra/schemas/jobs-file';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { repairDispatchKind } from '@okstra/schemas/vocabulary';
import { writeArtifact, writeTextAtomic } from '@okstra/state-file';
import { readTeamState } from '@okstra/team-state';
import { shellQuote } from './backends/wrapper-argv.js';

/** Where a run's files are: its project root, run directory and `<type>-<seq>`. */
export interface RepairPlace {
  projectRoot: string;
  runDir: string;
  run: RunRef;
}

/** One refused worker to re-ask: its repair prompt text and the result file its restated answer replaces (absolute). */
export interface RepairRequest {
  workerId: string;
  prompt: string;
  resultPath: string;
}

/** What {@link writeRepairDispatch} wrote (absolute paths). */
export interface RepairDispatch {
  dispatchKind: string;
  jobsFile: string;
  workers: Array<{ workerId: string; promptPath: string; resultPath: string }>;
}

/**
 * The workers whose newest dispatch in the run's team-state is the repair of `kind`
 * (`repair-<kind>`, docs/convergence.md "Repair dispatch"), each with its row's status: they had
 * their one repair of that dispatch, so a collect reading them again records a refusal or a failed
 * repair as `error` instead of asking again. Empty when the run has no team-state yet.
 * @throws InputError (exit 2) for an invalid team-state file.
 */
export async function repairedWorkers(place: RepairPlace, kind: string): Promise<Map<string, string>> {
  const path = teamStatePath(place.runDir, place.run);
  if (!existsSync(path)) return new Map();
  const repair = repairDispatchKind(kind);
  return new Map((await readTeamState(path)).workers.filter((w) => w.dispatchKind === repair && w.status !== 'pending').map((w) => [w.workerId, w.status]));
}

/**
 * Write the repair dispatch of refused answers to the dispatch of `kind` (docs/convergence.md
 * "Repair dispatch", docs/team.md "Dispatch kinds"): each worker's repair prompt at
 * `prompts/<worker>-prompt-repair-<kind>-<type>-<seq>.md`, then the jobs file
 * `state/repair-jobs-<kind>-<type>-<seq>.json` (`dispatchKind` `repair-<kind>`, schema `jobs-file`,
 * the input of `okstra team dispatch --jobs-file`) — the jobs file last, so it never names a prompt
 * not yet written. Each job takes the provider, role and model of the worker's team-state row (the
 * dispatch being repaired) and writes the worker's own result path, so the next collect reads the
 * restated answer; okstra-team exec moves the refused one aside to `<result>.attempt-<n>` first. A
 * fresh one-shot session, like every dispatch: nothing resumes the refused conversation. Every
 * check runs before the first write; each write is atomic. Re-running with the same input
 * rewrites the same bytes.
 * @throws InputError (exit 2) naming the team-state file and field: no team-state, no row for a
 *   worker, or a row without a model; a result path outside the project root.
 */
export async function writeRepairDispatch(place: RepairPlace, kind: string, requests: readonly RepairRequest[]): Promise<RepairDispatch> {
  const statePath = teamStatePath(place.runDir, place.run);
  if (!existsSync(statePath))
    throw new InputError('a repair dispatch needs the run team-state (the dispatch it repairs records each worker)', { file: statePath });
  const rows = (await readTeamState(statePath)).workers;
  const rel = (p: string, what: string) => {
    const r = toProjectRelative(place.projectRoot, p);
    if (r.startsWith('..') || r === '') throw new InputError(`${what} ${p} lies outside the project root ${place.projectRoot}`);
    return r;
  };
  const planned = requests.map((req) => {
    const i = rows.findIndex((w) => w.workerId === req.workerId);
    const row: TeamStateRow | undefined = rows[i];
    if (!row)
      throw new InputError(`worker ${req.workerId} has no team-state row: its dispatch of ${kind} was never recorded`, { file: statePath, field: 'workers' });
    if (!row.model) throw new InputError(`worker ${req.workerId} has no model recorded to repair with`, { file: statePath, field: `workers[${i}].model` });
    const promptPath = repairPromptPath(place.runDir, req.workerId, kind, place.run);
    const result = rel(req.resultPath, `worker ${req.workerId}'s result`);
    const job: Job = {
      workerId: req.workerId,
      provider: row.provider,
      role: row.role,
      modelExecutionValue: row.model,
      promptPath: rel(promptPath, 'repair prompt'),
      resultPath: result,
      workerResultPath: result,
      completionPaths: [result],
    };
    return { req, promptPath, job };
  });
  const dispatchKind = repairDispatchKind(kind);
  const jobsFile = repairJobsPath(place.runDir, kind, place.run);
  for (const p of planned) {
    await mkdir(dirname(p.promptPath), { recursive: true });
    await writeTextAtomic(p.promptPath, p.req.prompt);
  }
  await mkdir(dirname(jobsFile), { recursive: true });
  await writeArtifact(jobsFile, jobsFileArtifact, { schemaVersion: '1.0', dispatchKind, jobs: planned.map((p) => p.job) }, { replace: 'any' });
  return { dispatchKind, jobsFile, workers: planned.map((p) => ({ workerId: p.req.workerId, promptPath: p.promptPath, resultPath: p.req.resultPath })) };
}

/**
 * What a refusing `--repair` collect prints on stdout (docs/convergence.md "Repair dispatch"):
 * `{ refused: [<worker>…], repair: { dispatchKind, jobsFile, command, workers: [{ workerId, promptPath, resultPath }] } }`, paths
 * absolute; `command` is {@link repairDispatchCommand}'s line.
 */
export function repairSummary(refused: readonly string[], repair: RepairDispatch, place: RepairPlace): Record<string, unknown> {
  return {
    refused: [...refused],
    repair: {
      dispatchKind: repair.dispatchKind,
      jobsFile: resolve(repair.jobsFile),
      command: repairDispatchCommand(place, repair),
      workers: repair.workers.map((w) => ({ workerId: w.workerId, promptPath: resolve(w.promptPath), resultPath: resolve(w.resultPath) })),
    },
  };
}

/**
 * The command line that dispatches `repair`, as typed from the project root: `okstra team dispatch
 * --project-root . --run-manifest <run's manifest> --jobs-file <jobs file>` (paths project-relative,
 * shell-quoted when they need it). A new user pasted the bare `--jobs-file` hint and got exit 2.
 */
export function repairDispatchCommand(place: RepairPlace, repair: RepairDispatch): string {
  const word = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : (shellQuote(w) ?? JSON.stringify(w)));
  const rel = (p: string) => word(toProjectRelative(place.projectRoot, p));
  return `okstra team dispatch --project-root . --run-manifest ${rel(runManifestPath(place.runDir, place.run))} --jobs-file ${rel(repair.jobsFile)}`;
}
