import { basename, dirname } from 'node:path';
import { joinPath as join } from './fast-join.js';
import { InputError } from '@okstra/core';
import { assertSegment, assertTaskKeySegment, assertWorkerId } from './task-key.js';
import { runSuffix } from './seq.js';

/**
 * The `.okstra` storage layout of docs/contracts.md §4. Every okstra path is
 * built here; no other module concatenates `.okstra` paths. All functions
 * return absolute paths when given an absolute root.
 */

/** `<project>/.okstra` */
export function okstraDir(projectRoot: string): string {
  return join(projectRoot, '.okstra');
}

/** `<home>/.okstra`: the user's okstra home (config, user adapters), apart from any project. */
function userOkstraDir(home: string): string {
  return join(home, '.okstra');
}

/** `<home>/.okstra/config.json`: the user's okstra settings. */
export function userConfigPath(home: string): string {
  return join(userOkstraDir(home), 'config.json');
}

/** `<home>/.okstra/adapters/providers`: where user-installed provider manifests are discovered (0.164.0 registry text). */
export function userProvidersDir(home: string): string {
  return join(userOkstraDir(home), 'adapters', 'providers');
}

/** `<home>/.okstra/error-issue/plan.json`: error-issue's default plan file. */
export function userErrorIssuePlanPath(home: string): string {
  return join(userOkstraDir(home), 'error-issue', 'plan.json');
}

/** `<project>/.okstra/project.json` */
export function projectJsonPath(projectRoot: string): string {
  return join(okstraDir(projectRoot), 'project.json');
}

/** `<project>/.okstra/tasks` */
export function tasksDir(projectRoot: string): string {
  return join(okstraDir(projectRoot), 'tasks');
}

/** `<project>/.okstra/tasks/<task-group>/<task-id>` */
export function taskRoot(projectRoot: string, task: { taskGroup: string; taskId: string }): string {
  return join(tasksDir(projectRoot), assertTaskKeySegment('task-group', task.taskGroup), assertTaskKeySegment('task-id', task.taskId));
}

/** `<task-root>/task-manifest.json` */
export function taskManifestPath(root: string): string {
  return join(root, 'task-manifest.json');
}

/** Identity of one run: its task type, seq and optional implementation stage. */
export interface RunRef {
  taskType: string;
  seq: number | string;
  /** `stage-<N>/` level for `implementation` and single-stage `final-verification`. */
  stage?: number;
}

/** `<task-root>/runs/<task-type>[/stage-<N>]` */
export function runDir(root: string, run: Omit<RunRef, 'seq'>): string {
  const base = join(root, 'runs', assertSegment('task-type', run.taskType));
  if (run.stage === undefined) return base;
  if (!Number.isInteger(run.stage) || run.stage < 1) throw new InputError(`invalid stage '${run.stage}'`);
  return join(base, `stage-${run.stage}`);
}

/** `<run-dir>/manifests/run-manifest-<type>-<seq>.json` */
export function runManifestPath(dir: string, run: RunRef): string {
  return join(dir, 'manifests', `run-manifest${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/team-state-<type>-<seq>.json` */
export function teamStatePath(dir: string, run: RunRef): string {
  return join(dir, 'state', `team-state${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/prompts/<worker>-prompt-<type>-<seq>.md` */
export function promptPath(dir: string, workerId: string, run: RunRef): string {
  return join(dir, 'prompts', `${assertWorkerId(workerId)}-prompt${runSuffix(run.taskType, run.seq)}.md`);
}

/**
 * `<run-dir>/prompts/<worker>-prompt-reverify-r<N>-<type>-<seq>.md` — a worker's convergence
 * re-verification prompt for round N, rendered by `okstra convergence render-prompts` / `run`
 * (docs/convergence.md "Reverify prompts"; the jobs file's `promptPath`).
 */
export function reverifyPromptPath(dir: string, workerId: string, round: number, run: RunRef): string {
  return join(dir, 'prompts', `${assertWorkerId(workerId)}-prompt-reverify-r${positive('round', round)}${runSuffix(run.taskType, run.seq)}.md`);
}

/** `<run-dir>/prompts/<worker>-prompt-gap-vote-<type>-<seq>.md` — an analyser's critic gap-vote prompt, rendered by `okstra convergence run`. */
export function gapVotePromptPath(dir: string, workerId: string, run: RunRef): string {
  return join(dir, 'prompts', `${assertWorkerId(workerId)}-prompt-gap-vote${runSuffix(run.taskType, run.seq)}.md`);
}

/**
 * The audit sidecar beside a result file: `.md` replaced by `.audit.md`
 * (`<worker>-<type>-<seq>.md` → {@link auditSidecarPath}; a round response
 * `<worker>-reverify-r<N>-<type>-<seq>.md` → `…-reverify-r<N>-<type>-<seq>.audit.md`).
 */
export function auditSidecarBeside(resultPath: string): string {
  return replaceExtension(resultPath, '.audit.md');
}

/**
 * `<run-dir>/state/run-<type>-<seq>.lock.json` — the run lock: the one dispatcher of a run at a time
 * (`okstra convergence run`, `okstra-team dispatch`; libs/team-run `takeRunLock`), pid + start time.
 */
export function runLockPath(dir: string, run: RunRef): string {
  return join(dir, 'state', `run${runSuffix(run.taskType, run.seq)}.lock.json`);
}

/** The wrapper transcript beside a prompt: `.md` replaced by `.log`. */
export function wrapperLogPath(prompt: string): string {
  return replaceExtension(prompt, '.log');
}

/**
 * Where a provider CLI writes its last message for the wrapper (codex
 * `--output-last-message`), beside the prompt: `.md` replaced by
 * `.last-message.txt` (not `.md`, so it is never taken for a prompt).
 */
export function wrapperLastMessagePath(prompt: string): string {
  return replaceExtension(prompt, '.last-message.txt');
}

/** The wrapper status sidecar beside a prompt: `.md` replaced by `.status.json`. */
export function wrapperStatusPath(prompt: string): string {
  return replaceExtension(prompt, '.status.json');
}

/** The wrapper's per-worker evidence file beside a prompt (and its status sidecar): `.md` replaced by `.evidence.json`. */
export function wrapperEvidencePath(prompt: string): string {
  return replaceExtension(prompt, '.evidence.json');
}

/**
 * The JSON Schema a schema-bound launch hands its provider (codex `--output-schema`), beside the
 * prompt: `.md` replaced by `.answer-schema.json`; written by the wrapper before the provider starts.
 */
export function answerSchemaPath(prompt: string): string {
  return replaceExtension(prompt, '.answer-schema.json');
}

/** The wrapper's record of a schema-bound answer, beside the result: `.md` replaced by `.answer.json` (docs/contracts.md "Answer objects"). */
export function answerRecordPath(resultPath: string): string {
  return replaceExtension(resultPath, '.answer.json');
}

/** `<run-dir>/worker-results/<worker>-<type>-<seq>.md` */
export function workerResultPath(dir: string, workerId: string, run: RunRef): string {
  return join(dir, 'worker-results', `${assertWorkerId(workerId)}${runSuffix(run.taskType, run.seq)}.md`);
}

/**
 * `<run-dir>/worker-results/<worker>-plan-verify-<type>-<seq>.md` — a worker's
 * plan-body verification response (prompts/lead/plan-body-verification.md §2),
 * read by `okstra plan-items collect-verdicts`.
 */
export function planVerifyResultPath(dir: string, workerId: string, run: RunRef): string {
  return join(dir, 'worker-results', `${assertWorkerId(workerId)}-plan-verify${runSuffix(run.taskType, run.seq)}.md`);
}

/**
 * `<run-dir>/worker-results/<worker>-reverify-r<N>-<type>-<seq>.md` — a worker's
 * convergence re-verification response for round N, read by
 * `okstra convergence collect-results --result <worker>=<path>` (docs/convergence.md).
 */
export function reverifyResultPath(dir: string, workerId: string, round: number, run: RunRef): string {
  return join(dir, 'worker-results', `${assertWorkerId(workerId)}-reverify-r${positive('round', round)}${runSuffix(run.taskType, run.seq)}.md`);
}

/** `<run-dir>/worker-results/<worker>-<type>-<seq>.audit.md` */
export function auditSidecarPath(dir: string, workerId: string, run: RunRef): string {
  return join(dir, 'worker-results', `${assertWorkerId(workerId)}${runSuffix(run.taskType, run.seq)}.audit.md`);
}

/** `<run-dir>/reports/final-report-<type>-<seq>.md` */
export function finalReportPath(dir: string, run: RunRef): string {
  return join(dir, 'reports', `final-report${runSuffix(run.taskType, run.seq)}.md`);
}

/** `<run-dir>/reports/final-report-<type>-<seq>.data.json` */
export function finalReportDataPath(dir: string, run: RunRef): string {
  return join(dir, 'reports', `final-report${runSuffix(run.taskType, run.seq)}.data.json`);
}

/** `<run-dir>/state/reverify-jobs-r<N>-<type>-<seq>.json` */
export function reverifyJobsPath(dir: string, round: number, run: RunRef): string {
  return join(dir, 'state', `reverify-jobs-r${positive('round', round)}${runSuffix(run.taskType, run.seq)}.json`);
}

/**
 * `<run-dir>/prompts/<worker>-prompt-repair-<kind>-<type>-<seq>.md` — a repair prompt for a
 * worker whose answer to the dispatch of `kind` (`reverify-r2`, `plan-verify`) was refused
 * (docs/convergence.md "Repair dispatch"): it asks the worker to restate its own answer in the form.
 */
export function repairPromptPath(dir: string, workerId: string, kind: string, run: RunRef): string {
  return join(dir, 'prompts', `${assertWorkerId(workerId)}-prompt-repair-${assertSegment('dispatch kind', kind)}${runSuffix(run.taskType, run.seq)}.md`);
}

/** `<run-dir>/state/repair-jobs-<kind>-<type>-<seq>.json` — the jobs file of a repair dispatch (`dispatchKind` `repair-<kind>`). */
export function repairJobsPath(dir: string, kind: string, run: RunRef): string {
  return join(dir, 'state', `repair-jobs-${assertSegment('dispatch kind', kind)}${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/gap-vote-jobs-<type>-<seq>.json` — the critic gap vote's jobs file (`dispatchKind` `gap-vote`), written by `okstra convergence run`. */
export function gapVoteJobsPath(dir: string, run: RunRef): string {
  return join(dir, 'state', `gap-vote-jobs${runSuffix(run.taskType, run.seq)}.json`);
}

/**
 * `<run-dir>/state/await-<round>-<type>-<seq>.json` — `okstra team await --output` of one round (`reverify-r2`,
 * `gap-vote`, `plan-verify`), the document collect-results, collect-critic-gaps and collect-verdicts take with `--await`.
 */
export function awaitReportPath(dir: string, round: string, run: RunRef): string {
  return join(dir, 'state', `await-${assertSegment('dispatch kind', round)}${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/<kind>-jobs-<type>-<seq>.json` — the jobs file of a retry the lead writes (`initial-retry`, `report-writer-retry`). */
export function retryJobsPath(dir: string, kind: string, run: RunRef): string {
  return join(dir, 'state', `${assertSegment('dispatch kind', kind)}-jobs${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/prompts/<worker>-prompt-plan-verify-<type>-<seq>.md` — an analyser's plan-verify prompt (prompts/lead/plan-body-verification.md §2). */
export function planVerifyPromptPath(dir: string, workerId: string, run: RunRef): string {
  return join(dir, 'prompts', `${assertWorkerId(workerId)}-prompt-plan-verify${runSuffix(run.taskType, run.seq)}.md`);
}

/** `<run-dir>/state/report-writer-jobs-<type>-<seq>.json` */
export function reportWriterJobsPath(dir: string, run: RunRef): string {
  return join(dir, 'state', `report-writer-jobs${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/convergence-work-<type>-<seq>.json` — replayable working state. */
export function convergenceWorkStatePath(dir: string, run: RunRef): string {
  return join(dir, 'state', `convergence-work${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/convergence-final-<type>-<seq>.json` — terminal v1.3 state. */
export function convergenceFinalStatePath(dir: string, run: RunRef): string {
  return join(dir, 'state', `convergence-final${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/convergence-groups-<type>-<seq>.json` — the lead's seed input. */
export function convergenceGroupsPath(dir: string, run: RunRef): string {
  return join(dir, 'state', `convergence-groups${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/convergence-plan-r<N>-<type>-<seq>.json` */
export function roundPlanPath(dir: string, round: number, run: RunRef): string {
  return join(dir, 'state', `convergence-plan-r${positive('round', round)}${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/convergence-results-r<N>-<type>-<seq>.json` */
export function roundResultsPath(dir: string, round: number, run: RunRef): string {
  return join(dir, 'state', `convergence-results-r${positive('round', round)}${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/convergence-critic-results-<type>-<seq>.json` — the coverage critic's own result document, read by `collect-critic-gaps --critic-results`. */
export function criticResultsPath(dir: string, run: RunRef): string {
  return join(dir, 'state', `convergence-critic-results${runSuffix(run.taskType, run.seq)}.json`);
}

/**
 * `<run-dir>/worker-results/<worker>-gap-vote-<type>-<seq>.md` — an analyser's vote on the
 * critic's gaps, read by `okstra convergence collect-critic-gaps --result <worker>=<path>` (docs/convergence.md).
 */
export function gapVoteResultPath(dir: string, workerId: string, run: RunRef): string {
  return join(dir, 'worker-results', `${assertWorkerId(workerId)}-gap-vote${runSuffix(run.taskType, run.seq)}.md`);
}

/** `<run-dir>/state/convergence-coverage-batch-<type>-<seq>.json` — the apply-critic-gaps input, written by collect-critic-gaps. */
export function coverageBatchPath(dir: string, run: RunRef): string {
  return join(dir, 'state', `convergence-coverage-batch${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/plan-verify-jobs-<type>-<seq>.json` — the plan-body verification round's jobs file. */
export function planVerifyJobsPath(dir: string, run: RunRef): string {
  return join(dir, 'state', `plan-verify-jobs${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/convergence-migration` — where seed keeps originals it replaced. */
export function convergenceMigrationDir(dir: string): string {
  return join(dir, 'state', 'convergence-migration');
}

/** `<run-dir>/state/plan-items-<type>-<seq>.json` */
export function planItemsPath(dir: string, run: RunRef): string {
  return join(dir, 'state', `plan-items${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/plan-verdicts-<type>-<seq>.json` */
export function planVerdictsPath(dir: string, run: RunRef): string {
  return join(dir, 'state', `plan-verdicts${runSuffix(run.taskType, run.seq)}.json`);
}

/** `<run-dir>/state/team-jobs`: the wrapper job files okstra-team writes, one per dispatched worker. */
export function teamJobsDir(dir: string): string {
  return join(dir, 'state', 'team-jobs');
}

/**
 * `<run-dir>/state/team-jobs/<dispatchKind>-<worker>-<type>-<seq>.job.json`: an okstra-generated job file
 * (safe characters only). The run's `<type>-<seq>` is in the name because one run directory holds every seq of
 * its task type: a dispatch of seq 003 never rewrites the job file a seq 002 record points at (docs/team.md).
 */
export function teamJobPath(dir: string, dispatchKind: string, workerId: string, run: RunRef): string {
  return join(teamJobsDir(dir), `${assertSegment('dispatch kind', dispatchKind)}-${assertWorkerId(workerId)}${runSuffix(run.taskType, run.seq)}.job.json`);
}

/** `<task-root>/runs/implementation/carry/stage-<N>.json` */
export function carryPath(root: string, stage: number): string {
  return join(root, 'runs', 'implementation', 'carry', `stage-${positive('stage', stage)}.json`);
}

/** Replace the last extension of `file` (`a/b.md` → `a/b.log`). */
function replaceExtension(file: string, ext: string): string {
  const name = basename(file);
  const dot = name.lastIndexOf('.');
  return join(dirname(file), (dot > 0 ? name.slice(0, dot) : name) + ext);
}

function positive(what: string, n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new InputError(`invalid ${what} '${n}'`);
  return n;
}
