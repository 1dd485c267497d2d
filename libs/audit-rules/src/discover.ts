import { lstatSync, readdirSync, statSync } from 'node:fs';
import { InputError } from '@okstra/core';
import { parseTaskKey, projectJsonPath, taskManifestPath, taskRoot as taskRootOf, tasksDir, joinPath as join } from '@okstra/paths';
import { readJsonFileSync as readJsonSync } from '@okstra/state-file';
import { ProjectJson } from '@okstra/schemas/project';
import { TaskManifest } from '@okstra/schemas/task-manifest';

/** One run-manifest found under `.okstra/tasks/<group>/<id>/runs/<type>/[stage-<N>/]manifests/`. */
export interface DiscoveredRun {
  taskRoot: string;
  /** From the task's `task-manifest.json`, else `<project-id>:<group>:<id>`. */
  taskKey: string;
  runDir: string;
  /** The `runs/<task-type>` directory name. */
  taskType: string;
  stage?: number;
  manifestPath: string;
  /** A `stage-…` directory whose name is not `stage-<N>` (`stage-01`, `Stage-1`): its runs are reported, not skipped. */
  misnamedStage?: string;
}

/** A place in the runs tree that may hold runs discovery could not look into (`runsSkipped[]` of run-audit's report). */
export type SkippedRun = {
  /** Absolute path of the entry. */
  path: string;
  /** Why no run under it was audited (a symlink to nothing, `manifests` that is not a directory). */
  reason: string;
};

/** Options of {@link discoverRuns}. */
export interface DiscoverOptions {
  /** Only the task `<project-id>:<group>:<id>` (its directory must exist). */
  taskKey?: string;
  /** Receives each place that may hold runs but could not be looked into: the report lists them and is not `ok`. */
  onSkip?: (skipped: SkippedRun) => void;
}

/**
 * Walk a project's runs in a stable order (task group, task id, task type,
 * stage number, manifest name — each sorted) and yield one entry per
 * `manifests/run-manifest-*.json` entry of any file type (auditRun reports one that is not a regular file). Streams: nothing but the current
 * directory listings is held, so memory does not grow with the number of runs.
 * No all-clear without having looked (docs/run-audit.md "Discovery"): a directory of the tree
 * the OS refuses to read (ENAMETOOLONG, ELOOP, EACCES, EIO, …) is exit 2 naming it, never a
 * task or run left out; a place that may hold runs but holds nothing readable (a symlink to
 * nothing, a `manifests` that is a file) goes to `options.onSkip`.
 * @throws InputError for a malformed `taskKey`, one whose project-id is not the
 *   project's (`project.json` `projectId`), a task directory that does not exist,
 *   or a directory of the tree the OS refuses.
 */
export async function* discoverRuns(projectRoot: string, options: DiscoverOptions = {}): AsyncGenerator<DiscoveredRun> {
  const skip = options.onSkip ?? (() => undefined);
  const dirs = (dir: string) => subdirectories(dir, skip);
  const projectId = await readProjectId(projectRoot);
  let tasks: Array<{ group: string; id: string }>;
  if (options.taskKey !== undefined) {
    const key = parseTaskKey(options.taskKey);
    if (projectId !== UNKNOWN_PROJECT && key.projectId !== projectId) {
      throw new InputError(`task key '${options.taskKey}' is for project '${key.projectId}', but this project is '${projectId}'`, {
        file: projectJsonPath(projectRoot),
      });
    }
    const root = taskRootOf(projectRoot, key);
    if ((await dirs(root)) === null) throw new InputError(`no task directory for task key '${options.taskKey}'`, { file: root });
    tasks = [{ group: key.taskGroup, id: key.taskId }];
  } else {
    tasks = [];
    const groups = await dirs(tasksDir(projectRoot));
    // No tasks directory is a project with no runs yet; a file (or FIFO) there is a broken layout, not "0 runs, ok".
    if (groups === null && existsAt(tasksDir(projectRoot))) throw new InputError('is not a directory', { file: tasksDir(projectRoot) });
    for (const group of groups ?? []) {
      for (const id of (await dirs(join(tasksDir(projectRoot), group))) ?? []) tasks.push({ group, id });
    }
  }
  for (const task of tasks) {
    const root = join(tasksDir(projectRoot), task.group, task.id);
    const taskKey = (await readTaskKey(root)) ?? `${projectId}:${task.group}:${task.id}`;
    for (const taskType of (await dirs(join(root, 'runs'))) ?? []) {
      const typeDir = join(root, 'runs', taskType);
      const children = (await dirs(typeDir)) ?? [];
      const stages = children
        .map((name) => /^stage-([1-9][0-9]*)$/.exec(name))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => Number(m[1]))
        .sort((a, b) => a - b);
      const runDirs: Array<{ runDir: string; stage?: number; misnamedStage?: string }> = [];
      // A `manifests` that is not a directory is listed as skipped below, never passed over.
      if (children.includes('manifests') || existsAt(join(typeDir, 'manifests'))) runDirs.push({ runDir: typeDir });
      for (const stage of stages) runDirs.push({ runDir: join(typeDir, `stage-${stage}`), stage });
      // `stage-01`, `Stage-2`: not a stage the layout names, but runs in it must not vanish from the scan.
      for (const name of children.filter((n) => /^stage[-_]?\d/i.test(n) && !/^stage-[1-9][0-9]*$/.test(n))) {
        runDirs.push({ runDir: join(typeDir, name), misnamedStage: name });
      }
      for (const { runDir, stage, misnamedStage } of runDirs) {
        const manifestsDir = join(runDir, 'manifests');
        const listed = await names(manifestsDir);
        if (listed === null && existsAt(manifestsDir)) skip({ path: manifestsDir, reason: 'is not a directory: its runs cannot be listed' });
        const manifests = (listed ?? []).filter((n) => n.startsWith('run-manifest-') && n.endsWith('.json'));
        for (const name of manifests) {
          yield {
            taskRoot: root,
            taskKey,
            runDir,
            taskType,
            ...(stage !== undefined ? { stage } : {}),
            ...(misnamedStage !== undefined ? { misnamedStage } : {}),
            manifestPath: join(runDir, 'manifests', name),
          };
        }
      }
    }
  }
}

async function readProjectId(projectRoot: string): Promise<string> {
  try {
    // A special file is refused by the read itself (its fstat): the id falls back like any unreadable file.
    return readJsonSync(projectJsonPath(projectRoot), { schema: ProjectJson }).projectId;
  } catch {
    return UNKNOWN_PROJECT;
  }
}

/** The project id used in task keys when `.okstra/project.json` is missing or invalid. */
export const UNKNOWN_PROJECT = 'unknown-project';

async function readTaskKey(root: string): Promise<string | null> {
  try {
    return readJsonSync(taskManifestPath(root), { schema: TaskManifest }).taskKey;
  } catch {
    return null;
  }
}

/**
 * Sorted sub-directory names of `dir`, or null when there is no directory
 * there (ENOENT, ENOTDIR). A symlink to a directory counts as one (as
 * `.okstra/tasks` itself does): skipping it dropped a task's or a run's
 * violations without a word; a symlink to nothing goes to `skip`.
 * @throws InputError naming the path the OS refused (ENAMETOOLONG, ELOOP, EACCES, …).
 */
async function subdirectories(dir: string, skip: (s: SkippedRun) => void): Promise<string[] | null> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    return absentOrRefused(error, dir);
  }
  const out: string[] = [];
  for (const e of entries) {
    if (e.isDirectory()) out.push(e.name);
    else if (e.isSymbolicLink()) {
      const target = join(dir, e.name);
      try {
        if (statSync(target).isDirectory()) out.push(e.name);
      } catch (error) {
        if (absentOrRefused(error, target) === null) skip({ path: target, reason: 'is a symlink to nothing: runs it may have held cannot be listed' });
      }
    }
  }
  return out.sort();
}

/** True when there is an entry at `path`, of any type (a dangling symlink too). */
function existsAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sorted entry names of `dir` of any type, or null when there is no directory there. Not only
 * regular files: a run-manifest that is a symlink is audited as its target, and one that is a
 * directory, FIFO or device is reported (`artifact-invalid`), never skipped.
 * @throws InputError naming the path the OS refused.
 */
async function names(dir: string): Promise<string[] | null> {
  try {
    return readdirSync(dir).sort();
  } catch (error) {
    return absentOrRefused(error, dir);
  }
}

/**
 * null for an error that means "nothing there" (ENOENT, ENOTDIR); any other is the OS refusing a
 * path that may hold runs (ENAMETOOLONG, ELOOP, EACCES, EIO, EMFILE, …): exit 2 naming it, so a
 * tree that was not looked into is never reported clean.
 * @throws InputError for a refusal.
 */
function absentOrRefused(error: unknown, path: string): null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return null;
  throw new InputError(`cannot be read (${REFUSALS[code ?? ''] ?? code ?? String(error)}); runs under it would go unaudited`, {
    file: path,
    hint: 'run run-audit where every path of the project can be read (a shorter project root, read permission, no symlink loop)',
  });
}

const REFUSALS: Record<string, string> = {
  ENAMETOOLONG: 'ENAMETOOLONG: the path is longer than the OS allows',
  ELOOP: 'ELOOP: a symlink loop',
  EACCES: 'EACCES: permission denied',
  EPERM: 'EPERM: operation not permitted',
};
