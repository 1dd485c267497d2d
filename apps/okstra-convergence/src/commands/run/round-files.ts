import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { InputError } from '@okstra/cli-kit';
import { runCitationChecker } from '@okstra/citations';
import { renderGapVotePrompt, renderReverifyPrompt } from '@okstra/convergence';
import {
  auditSidecarBeside,
  gapVotePromptPath,
  gapVoteResultPath,
  parseRunDir,
  projectRootOf,
  reverifyPromptPath,
  reverifyResultPath,
  toProjectRelative,
  type RunRef,
} from '@okstra/paths';
import type { CriticCandidate, RoundPlan, WorkingState } from '@okstra/schemas/convergence';
import { jobsFileArtifact, type Job } from '@okstra/schemas/jobs-file';
import { writeArtifact, writeTextAtomic } from '@okstra/state-file';

/** Where a run's files are: its run directory, project root and `<type>-<seq>`. */
export interface RunPlace {
  projectRoot: string;
  runDir: string;
  run: RunRef;
}

/** One worker's files of a round (absolute paths). */
export interface WorkerFiles {
  workerId: string;
  promptPath: string;
  resultPath: string;
  auditSidecarPath: string;
}

/**
 * Write each batch's reverify prompt of `plan` at `prompts/<worker>-prompt-reverify-r<N>-<type>-<seq>.md`
 * (libs/paths `reverifyPromptPath`), rendered by `renderReverifyPrompt` (libs/convergence). A prompt
 * already holding the same bytes is left alone, so a resumed run changes nothing a running worker reads.
 * @returns the workers' files, in plan order.
 */
export async function writeReverifyPrompts(place: RunPlace, state: WorkingState, plan: RoundPlan): Promise<WorkerFiles[]> {
  const out: WorkerFiles[] = [];
  const notes = citationNotes(
    place,
    state.seed.findings.flatMap((f) => f.evidence),
  );
  for (const batch of plan.batches) {
    const files = reverifyFiles(place, batch.workerId, plan.round);
    const text = renderReverifyPrompt(state.seed, plan, batch, relativeFiles(place, files), notes);
    await writeIfChanged(files.promptPath, text);
    out.push(files);
  }
  return out;
}

/**
 * Why each cited evidence line that does not hold fails (libs/citations, against the run's project at
 * its recorded commit or the working tree), so the reverify prompts mark it for the other workers.
 * Empty when the project has nothing to check against.
 */
function citationNotes(place: RunPlace, evidence: readonly string[]): Map<string, string> {
  const checker = runCitationChecker(place.runDir, place.run);
  const notes = new Map<string, string>();
  if (checker.status === 'unchecked') return notes;
  for (const e of new Set(evidence)) {
    if (e.includes('`')) continue;
    const c = checker.check(`\`${e}\``, null).citations[0];
    if (c && !c.holds) notes.set(e, WHY[c.problem!] ?? c.problem!);
  }
  return notes;
}

const WHY: Record<string, string> = {
  missing: 'no such file in the project',
  'out-of-range': 'the lines are past the end of the file',
  'outside-project': 'the path is outside the project',
  'not-a-file': 'not a regular file of the project',
};

/** A worker's reverify prompt, result and sidecar paths of round `round`. */
export function reverifyFiles(place: RunPlace, workerId: string, round: number): WorkerFiles {
  const resultPath = reverifyResultPath(place.runDir, workerId, round, place.run);
  return { workerId, promptPath: reverifyPromptPath(place.runDir, workerId, round, place.run), resultPath, auditSidecarPath: auditSidecarBeside(resultPath) };
}

/** Write each analyser's gap-vote prompt (`prompts/<worker>-prompt-gap-vote-<type>-<seq>.md`). */
export async function writeGapVotePrompts(
  place: RunPlace,
  mode: RoundPlan['mode'],
  workers: readonly string[],
  candidates: readonly CriticCandidate[],
): Promise<WorkerFiles[]> {
  const out: WorkerFiles[] = [];
  for (const workerId of workers) {
    const resultPath = gapVoteResultPath(place.runDir, workerId, place.run);
    const files = { workerId, promptPath: gapVotePromptPath(place.runDir, workerId, place.run), resultPath, auditSidecarPath: auditSidecarBeside(resultPath) };
    await writeIfChanged(files.promptPath, renderGapVotePrompt(workerId, mode, candidates, relativeFiles(place, files)));
    out.push(files);
  }
  return out;
}

/**
 * Write the jobs file of one dispatch (schema `jobs-file`; docs/team.md): one job per worker,
 * `role` (the pane title) `worker-reverify-r<N>` for a round and `worker-gap-vote` for the gap vote (roles.ts), paths project-relative, the result its completion path.
 */
export async function writeJobsFile(
  place: RunPlace,
  path: string,
  dispatchKind: string,
  workers: ReadonlyArray<WorkerFiles & { provider: string; model: string }>,
): Promise<void> {
  const rel = (p: string) => toProjectRelative(place.projectRoot, p);
  const jobs: Job[] = workers.map((w) => ({
    workerId: w.workerId,
    provider: w.provider,
    role: jobRole(dispatchKind),
    modelExecutionValue: w.model,
    promptPath: rel(w.promptPath),
    resultPath: rel(w.resultPath),
    workerResultPath: rel(w.resultPath),
    completionPaths: [rel(w.resultPath)],
    auditSidecarPath: rel(w.auditSidecarPath),
  }));
  await mkdir(dirname(path), { recursive: true });
  await writeArtifact(path, jobsFileArtifact, { schemaVersion: '1.0', dispatchKind, jobs }, { replace: 'any' });
}

/** The role (pane title) of a round's jobs: `worker-reverify-r<N>`, `worker-gap-vote` (libs/schemas roles.ts). */
export function jobRole(dispatchKind: string): string {
  return dispatchKind.startsWith('reverify-') || dispatchKind === 'gap-vote' ? `worker-${dispatchKind}` : 'analyser';
}

function relativeFiles(place: RunPlace, files: WorkerFiles): { resultPath: string; auditSidecarPath: string } {
  return { resultPath: toProjectRelative(place.projectRoot, files.resultPath), auditSidecarPath: toProjectRelative(place.projectRoot, files.auditSidecarPath) };
}

async function writeIfChanged(path: string, text: string): Promise<void> {
  let current: string | null = null;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // not written yet
  }
  if (current === text) return;
  await mkdir(dirname(path), { recursive: true });
  await writeTextAtomic(path, text);
}

/**
 * The run a plan file belongs to: `<run-dir>/state/convergence-plan-r<N>-<type>-<seq>.json`.
 * @throws InputError (exit 2) naming the plan when it lies elsewhere.
 */
export function placeOfPlan(planPath: string): RunPlace {
  return placeOfStateFile(planPath, 'convergence-plan-r[1-9][0-9]*', 'a round plan at <run-dir>/state/convergence-plan-r<N>-<type>-<seq>.json');
}

/**
 * The run a working state belongs to: `<run-dir>/state/convergence-work-<type>-<seq>.json`.
 * @throws InputError (exit 2) naming the file when it lies elsewhere.
 */
export function placeOfWorkState(statePath: string): RunPlace {
  return placeOfStateFile(statePath, 'convergence-work', 'the working state at <run-dir>/state/convergence-work-<type>-<seq>.json');
}

function placeOfStateFile(path: string, stem: string, what: string): RunPlace {
  const runDir = dirname(dirname(path));
  const parsed = parseRunDir(runDir);
  const projectRoot = projectRootOf(runDir);
  const m = parsed ? new RegExp(`^${stem}-${parsed.taskType.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-([0-9]{3,})\\.json$`).exec(basename(path)) : null;
  if (!parsed || !projectRoot || !m || basename(dirname(path)) !== 'state') throw new InputError(`expected ${what} inside a .okstra project`, { file: path });
  return { projectRoot, runDir, run: { taskType: parsed.taskType, seq: m[1]! } };
}
