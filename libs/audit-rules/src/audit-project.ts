import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError } from '@okstra/core';
import { okstraDir, joinPath as join } from '@okstra/paths';
import type { AuditViolation, RunAuditReport } from '@okstra/schemas/audit';
import { auditRun, carryDirOf } from './audit-run.js';
import { discoverRuns, type DiscoveredRun } from './discover.js';
import { indexDirs, runArtifactDirs, type FileIndex } from './files.js';

/** Options of {@link auditProject} / {@link runAudit}. */
export interface AuditOptions {
  /** Only the runs of this task (`<project-id>:<group>:<id>`). */
  taskKey?: string;
  /** Called after each run with the number of runs audited so far (progress display). */
  onProgress?: (runsScanned: number) => void;
}

/** One audited run and its violations (empty when it breaks no invariant). */
export interface AuditedRun {
  run: DiscoveredRun;
  violations: AuditViolation[];
}

/**
 * Check that `projectRoot` is an okstra project: an existing directory with a `.okstra` directory.
 * @returns the absolute project root.
 * @throws InputError (exit 2) otherwise.
 */
export async function assertProjectRoot(projectRoot: string): Promise<string> {
  const root = resolve(projectRoot);
  const isDir = async (p: string) => (await stat(p).catch(() => null))?.isDirectory() === true;
  if (!(await isDir(root))) throw new InputError('project root does not exist or is not a directory', { file: root });
  if (!(await isDir(okstraDir(root)))) throw new InputError('not an okstra project: no .okstra directory', { file: root });
  return root;
}

/**
 * The project root for a command run without `--project-root`: the nearest of
 * `cwd` and its ancestors that holds a `.okstra` directory, found upward the way
 * git finds `.git` (docs/run-audit.md).
 * @returns the absolute project root.
 * @throws InputError (exit 2) when neither `cwd` nor any parent has one.
 */
export async function findProjectRoot(cwd: string): Promise<string> {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if ((await stat(join(dir, '.okstra')).catch(() => null))?.isDirectory()) return dir;
    if (dirname(dir) === dir) break;
  }
  throw new InputError('not an okstra project: no .okstra directory here or in any parent directory', { file: start });
}

/**
 * Audit every run of a project, one at a time, in the stable order of
 * {@link discoverRuns} (docs/run-audit.md). Streams: only the current run
 * directory's file index is held, so memory does not grow with the number of runs.
 * @throws InputError for an unusable project root or task key.
 */
export async function* auditProject(projectRoot: string, options: AuditOptions = {}): AsyncGenerator<AuditedRun> {
  const root = await assertProjectRoot(projectRoot);
  let indexedDir: string | null = null;
  let files: FileIndex | null = null;
  for await (const run of discoverRuns(root, { taskKey: options.taskKey })) {
    if (run.runDir !== indexedDir || !files) {
      files = await indexDirs([...runArtifactDirs(run.runDir), carryDirOf(run.taskRoot)]);
      indexedDir = run.runDir;
    }
    yield { run, violations: await auditRun(root, run, files) };
  }
}

/**
 * `okstra run-audit` as a value: `{ok, projectRoot, runsScanned, violations}`
 * (docs/run-audit.md "Output"); `ok` is true exactly when there is no violation.
 * Read-only.
 * @throws InputError for an unusable project root or task key.
 */
export async function runAudit(projectRoot: string, options: AuditOptions = {}): Promise<RunAuditReport> {
  const root = await assertProjectRoot(projectRoot);
  const violations: AuditViolation[] = [];
  let runsScanned = 0;
  for await (const audited of auditProject(root, options)) {
    runsScanned++;
    violations.push(...audited.violations);
    options.onProgress?.(runsScanned);
  }
  return { ok: violations.length === 0, projectRoot: root, runsScanned, violations };
}
