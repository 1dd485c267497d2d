import { realpathSync, statSync } from 'node:fs';
import { InputError, pathArg } from '@okstra/core';
import { resolveInsideRoot, runDirOfManifest } from '@okstra/paths';
import { runManifestArtifact, type RunManifest, type WorkerDispatch } from '@okstra/schemas/run-manifest';
import { parseJsonText, readArtifact, readTextFile, validateArtifact, withFileLock, writeArtifact } from '@okstra/state-file';
import { ownerTag } from '@okstra/team-state';

/** A run as dispatch/await/teardown see it: root, manifest, team-state and the ownership tag. */
export interface RunContext {
  projectRoot: string;
  manifestPath: string;
  manifest: RunManifest;
  runDir: string;
  teamStatePath: string;
  /** `@okstra-run` pane tag: `<taskKey>/<taskType>-<seq>[/stage-<N>]`. */
  runTag: string;
  /** The project root's realpath. */
  realRoot: string;
  /** `@okstra-owner` pane tag: {@link ownerTag} of `realRoot` and `runTag` (docs/team.md "Ownership"). */
  owner: string;
}

/**
 * Read the run manifest (inside `--project-root`) and resolve its team-state.
 * Both arguments are relative to `io.cwd` (`pathArg`, docs/conventions.md).
 * @throws InputError (exit 2): missing root, manifest outside the root,
 *   invalid manifest, team-state path escaping the root.
 */
export async function loadRun(io: { readonly cwd: string }, projectRootArg: string, manifestArg: string): Promise<RunContext> {
  const projectRoot = pathArg(io, projectRootArg, '--project-root');
  // Checked first: a missing root would otherwise read as "the manifest escapes the project root".
  if (!statSync(projectRoot, { throwIfNoEntry: false })?.isDirectory()) {
    throw new InputError('project root does not exist or is not a directory', { file: projectRoot, field: '--project-root' });
  }
  const manifestPath = resolveInsideRoot(projectRoot, pathArg(io, manifestArg), '--run-manifest');
  const manifest = await readArtifact(manifestPath, runManifestArtifact);
  let teamStatePath: string;
  try {
    teamStatePath = resolveInsideRoot(projectRoot, manifest.teamStatePath, 'teamStatePath');
  } catch (error) {
    throw error instanceof InputError ? new InputError(error.message, { file: manifestPath, field: 'teamStatePath' }) : error;
  }
  const stage = manifest.stage ? `/stage-${manifest.stage}` : '';
  const runTag = `${manifest.taskKey}/${manifest.taskType}-${manifest.seq}${stage}`;
  let realRoot: string;
  try {
    realRoot = realpathSync(projectRoot);
  } catch (error) {
    throw new InputError(`'${projectRootArg}' cannot be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { field: '--project-root' });
  }
  return {
    projectRoot,
    manifestPath,
    manifest,
    runDir: runDirOfManifest(manifestPath),
    teamStatePath,
    runTag,
    realRoot,
    owner: ownerTag(realRoot, runTag),
  };
}

/**
 * One locked read-modify-write of the run manifest's `workerDispatches[]`
 * (every other key kept as read). `update` gets the current records and
 * returns the new list.
 */
export async function updateWorkerDispatches(manifestPath: string, update: (records: WorkerDispatch[]) => WorkerDispatch[]): Promise<WorkerDispatch[]> {
  return withFileLock(manifestPath, async () => {
    // Every other key is written back exactly as read (raw), typed through the parsed manifest.
    const raw = parseJsonText<Record<string, unknown>>(await readTextFile(manifestPath), { label: manifestPath });
    const parsed = validateArtifact(raw, runManifestArtifact, { label: manifestPath });
    const next = update(parsed.workerDispatches);
    await writeArtifact(manifestPath, runManifestArtifact, { ...parsed, ...raw, workerDispatches: next }, { replace: 'any' });
    return next;
  });
}

/**
 * The records of workers that were started as recorded: without `phase`. A
 * `starting` record (its dispatch ended before recording what it started) is
 * left to the unrecorded-dispatch rules — await's stand-in from the job file,
 * teardown's adoption by pane tags — exactly like a dispatch that recorded
 * nothing; a `not-started` one started nothing (docs/team.md "dispatch").
 */
export function startedDispatches(records: readonly WorkerDispatch[]): WorkerDispatch[] {
  return records.filter((r) => r.phase === undefined);
}

/** The newest `workerDispatches[]` record of each worker, in first-dispatch order. */
export function latestDispatches(records: readonly WorkerDispatch[]): WorkerDispatch[] {
  const byWorker = new Map<string, WorkerDispatch>();
  for (const r of records) {
    byWorker.delete(r.workerId);
    byWorker.set(r.workerId, r);
  }
  return [...byWorker.values()];
}
