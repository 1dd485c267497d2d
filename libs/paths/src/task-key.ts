import { InputError, TASK_KEY_SEGMENT } from '@okstra/core';

/** The three parts of a task key `project-id:task-group:task-id` (docs/contracts.md §4). */
export interface TaskKey {
  projectId: string;
  taskGroup: string;
  taskId: string;
}

/** A path segment okstra builds from its own ids: ASCII letters, digits, `.`, `_`, `-`; not `.`/`..`. */
const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._-]+$/;

/** `id` when `pattern` takes it, else an InputError naming `what`: the one refusal of every id segment. */
function assertMatching(pattern: RegExp, what: string, id: string): string {
  if (!pattern.test(id)) throw new InputError(`invalid ${what} '${id}': use letters, digits, '.', '_' or '-'`);
  return id;
}

/**
 * Refuse a worker id that cannot be one path segment; Unicode letters, marks
 * and digits are allowed, as in task keys (libs/core `TASK_KEY_SEGMENT`).
 * @throws InputError naming the worker id.
 */
export function assertWorkerId(id: string): string {
  return assertTaskKeySegment('worker id', id);
}

/**
 * Refuse an id okstra names itself (a task type, dispatch kind)
 * that cannot be one ASCII path segment (slashes, `..`, spaces, empty).
 * @throws InputError naming `what` (e.g. `task type`).
 */
export function assertSegment(what: string, id: string): string {
  return assertMatching(SEGMENT, what, id);
}

/**
 * Refuse a task-key segment (project id, task group, task id) that cannot be
 * one path segment: Unicode letters, marks and digits are allowed, as the
 * user's own words (libs/core `TASK_KEY_SEGMENT`, docs/contracts.md §4).
 * @throws InputError naming `what` (e.g. `task-group`).
 */
export function assertTaskKeySegment(what: string, id: string): string {
  return assertMatching(TASK_KEY_SEGMENT, what, id);
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
  assertTaskKeySegment('project-id', projectId);
  assertTaskKeySegment('task-group', taskGroup);
  assertTaskKeySegment('task-id', taskId);
  return { projectId, taskGroup, taskId };
}

/** Build `project-id:task-group:task-id`. */
export function formatTaskKey(key: TaskKey): string {
  return `${assertTaskKeySegment('project-id', key.projectId)}:${assertTaskKeySegment('task-group', key.taskGroup)}:${assertTaskKeySegment('task-id', key.taskId)}`;
}
