import { InputError } from '@okstra/core';

/** The three parts of a task key `project-id:task-group:task-id` (docs/contracts.md §4). */
export interface TaskKey {
  projectId: string;
  taskGroup: string;
  taskId: string;
}

/** A path segment okstra builds from ids: letters, digits, `.`, `_`, `-`; not `.`/`..`. */
const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]+$/;

/** True when `id` can be one segment of an `.okstra` path. */
function isSafeSegment(id: string): boolean {
  return SEGMENT.test(id);
}

/**
 * Refuse an id that cannot be one path segment (slashes, `..`, spaces, empty).
 * @throws InputError naming `what` (e.g. `task-group`).
 */
export function assertSegment(what: string, id: string): string {
  if (!isSafeSegment(id)) throw new InputError(`invalid ${what} '${id}': use letters, digits, '.', '_' or '-'`);
  return id;
}

/**
 * Parse `project-id:task-group:task-id`.
 * @throws InputError when there are not exactly three safe segments.
 */
export function parseTaskKey(key: string): TaskKey {
  const parts = key.split(':');
  if (parts.length !== 3) {
    throw new InputError(`invalid task key '${key}': expected <project-id>:<task-group>:<task-id>`);
  }
  const [projectId, taskGroup, taskId] = parts as [string, string, string];
  assertSegment('project-id', projectId);
  assertSegment('task-group', taskGroup);
  assertSegment('task-id', taskId);
  return { projectId, taskGroup, taskId };
}

/** Build `project-id:task-group:task-id`. */
export function formatTaskKey(key: TaskKey): string {
  return `${assertSegment('project-id', key.projectId)}:${assertSegment('task-group', key.taskGroup)}:${assertSegment('task-id', key.taskId)}`;
}
