import { InputError } from '@okstra/core';
import { canonicalPath, isInside, projectRootOf, resolveInsideRoot, wrapperLogPath, wrapperStatusPath } from '@okstra/paths';
import { readArtifact } from '@okstra/state-file';
import { teamStateArtifact, type TeamState, type TeamStateRow } from '@okstra/schemas/team-state';
import { isTerminalWorkerStatus, type TerminalWorkerStatus } from '@okstra/schemas/vocabulary';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** One worker to judge: the team-state file that holds its row, and its id. */
export interface WorkerSelector {
  teamStatePath: string;
  workerId: string;
}

/** The terminal statuses a row can carry (reported as the verdict, healthy). */
export type TerminalStatus = TerminalWorkerStatus;

/**
 * What the probe has to look at for one selected row, decided from the row
 * alone (docs/contracts.md §7): a terminal row is reported as is; otherwise
 * `livenessMode` picks the artifact and `startedAt` anchors the graces.
 * `recorded` is the artifact path as the row records it (for evidence);
 * `abs` is it resolved against the project root.
 */
export type ProbeTarget =
  | { kind: 'terminal'; selector: WorkerSelector; status: TerminalStatus; mode: TeamStateRow['livenessMode'] | null }
  | { kind: 'not-dispatched'; selector: WorkerSelector; mode: TeamStateRow['livenessMode'] | null }
  | { kind: 'audit-heartbeat'; selector: WorkerSelector; startedAt: Date; recorded: string; abs: string }
  | { kind: 'wrapper-status'; selector: WorkerSelector; startedAt: Date; recorded: string; abs: string };

/**
 * Read every distinct team-state file once and resolve each selector to its
 * {@link ProbeTarget}. Everything is validated before anything is probed.
 * Team-state paths are made absolute by `resolvePath` (the caller's path-argument rule); errors name them as given.
 * A `pending` row (not dispatched yet) resolves to `not-dispatched`.
 * @throws InputError (exit 2) naming the file and row: unreadable or invalid
 *   team-state (unknown `livenessMode` is a schema violation at
 *   `workers[i].livenessMode`), unknown worker id, an in-progress row without `livenessMode` or `startedAt`,
 *   or without the artifact path its mode needs, or one escaping the project root
 *   — lexically, or by realpath through a symlink (the sidecar, or the
 *   prompt's `.status.json`/`.log`) — or an artifact that exists but is not a
 *   regular file (a FIFO, a directory: never opened, so the probe cannot hang).
 *   A team-state path that is not a regular file is refused before it is read.
 */
export async function resolveTargets(selectors: readonly WorkerSelector[], resolvePath: (path: string) => string = (p) => resolve(p)): Promise<ProbeTarget[]> {
  const files = new Map<string, { state: TeamState; abs: string }>();
  for (const { teamStatePath } of selectors) {
    if (!files.has(teamStatePath)) {
      const abs = resolvePath(teamStatePath);
      refuseNonRegular(abs, teamStatePath);
      files.set(teamStatePath, { state: await readArtifact(abs, teamStateArtifact, { label: teamStatePath }), abs });
    }
  }
  return selectors.map((selector) => {
    const { state, abs } = files.get(selector.teamStatePath)!;
    return resolveOne(selector, state, abs);
  });
}

function resolveOne(selector: WorkerSelector, state: TeamState, teamStateAbs: string): ProbeTarget {
  const file = selector.teamStatePath;
  const index = state.workers.findIndex((w) => w.workerId === selector.workerId);
  if (index < 0) {
    throw new InputError(`no worker '${selector.workerId}' (workers: ${state.workers.map((w) => w.workerId).join(', ') || 'none'})`, {
      file,
      field: 'workers',
    });
  }
  const row = state.workers[index];
  const at = (field: string) => `workers[${index}].${field}`;
  const name = `worker '${row.workerId}'`;
  if (isTerminalWorkerStatus(row.status)) {
    return { kind: 'terminal', selector, status: row.status, mode: row.livenessMode ?? null };
  }
  // Not dispatched yet (a report writer waiting its turn): reported as such, never judged.
  if (row.status === 'pending') return { kind: 'not-dispatched', selector, mode: row.livenessMode ?? null };
  if (!row.livenessMode) throw new InputError(`${name} is in-progress but has no livenessMode`, { file, field: at('livenessMode') });
  if (!row.startedAt) throw new InputError(`${name} is in-progress but has no startedAt`, { file, field: at('startedAt') });
  const pathField = row.livenessMode === 'audit-heartbeat' ? 'auditSidecarPath' : 'promptPath';
  const recorded = row[pathField];
  if (!recorded) {
    throw new InputError(`${name} has livenessMode ${row.livenessMode} but no ${pathField}`, { file, field: at(pathField) });
  }
  const root = projectRootOf(canonicalPath(teamStateAbs));
  const abs = resolveArtifact(root, file, recorded, at(pathField));
  const artifacts = row.livenessMode === 'audit-heartbeat' ? [abs] : [abs, wrapperStatusPath(abs), wrapperLogPath(abs)];
  for (const a of artifacts) checkRealArtifact(root!, file, a, at(pathField), a !== abs || row.livenessMode === 'audit-heartbeat');
  return { kind: row.livenessMode, selector, startedAt: new Date(row.startedAt), recorded, abs };
}

/**
 * Row paths are project-root-relative (root = the directory holding the `.okstra`
 * tree the team-state really lives in) or absolute, and must stay inside that
 * root (docs/conventions.md "Containment"). A team-state outside any `.okstra`
 * tree has no project to read in: refused, never read as absolute paths anywhere.
 */
function resolveArtifact(root: string | null, teamStatePath: string, recorded: string, field: string): string {
  if (root === null) {
    throw new InputError(`'${recorded}' cannot be checked: the team-state is not inside a .okstra tree, so there is no project root to read in`, {
      file: teamStatePath,
      field,
    });
  }
  try {
    return resolveInsideRoot(root, recorded, field);
  } catch (error) {
    if (error instanceof InputError) throw new InputError(error.message, { file: teamStatePath, field });
    throw error;
  }
}

/**
 * The real-path half of the containment check: the artifact (or, when it does
 * not exist yet, its nearest existing ancestor) must have a realpath inside
 * the project root's realpath, so a symlink in the tree cannot lead the probe
 * outside. `mustBeFile`: an existing artifact must be a regular file.
 * @throws InputError naming the team-state file and the row's field.
 */
function checkRealArtifact(root: string, teamStatePath: string, abs: string, field: string, mustBeFile: boolean): void {
  let probe = abs;
  while (!existsSync(probe) && dirname(probe) !== probe) probe = dirname(probe);
  let realRoot: string;
  let real: string;
  try {
    realRoot = realpathSync(root);
    real = realpathSync(probe);
  } catch (error) {
    throw new InputError(`cannot resolve '${abs}' (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { file: teamStatePath, field });
  }
  if (!isInside(realRoot, real)) {
    throw new InputError(`'${abs}' leads outside the project root ${realRoot} through a symlink (real path ${real})`, { file: teamStatePath, field });
  }
  if (mustBeFile && probe === abs && !statSync(abs).isFile()) {
    throw new InputError(`'${abs}' is not a regular file`, { file: teamStatePath, field });
  }
}

/** A path that exists but is not a regular file (a FIFO would block the read forever). @throws InputError naming it. */
function refuseNonRegular(abs: string, label: string): void {
  let isFile = true;
  try {
    isFile = statSync(abs).isFile();
  } catch {
    return; // missing or unreadable: the reader reports it
  }
  if (!isFile) throw new InputError('is not a regular file', { file: label });
}
