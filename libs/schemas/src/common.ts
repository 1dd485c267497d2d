import { TASK_KEY, TASK_KEY_SEGMENT } from '@okstra/core';
import * as z from './zod.js';

/** RFC 3339 / ISO-8601 timestamp with `Z` or an offset, optional fraction. Okstra writes UTC (`Z`). */
export const Timestamp = z.iso.datetime({ offset: true });

/** A worker id (`claude`, `codex`, `report-writer`, `리뷰어-1`): one safe path segment, Unicode letters allowed (libs/core `TASK_KEY_SEGMENT`, docs/contracts.md §4). */
export const WorkerId = z.string().check(z.regex(TASK_KEY_SEGMENT, 'expected a worker id of letters, digits, ".", "_" or "-"'));

/** A zero-padded run sequence number (`001`). */
export const Seq = z.string().check(z.regex(/^[0-9]{3,}$/, 'expected a zero-padded seq like "001"'));

/** A task type (`implementation-planning`): one safe path segment. */
export const TaskType = z.string().check(z.regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a task type like "error-analysis"'));

/** `project-id:task-group:task-id`; each segment Unicode letters, marks, digits, `.`, `_`, `-` (libs/core `TASK_KEY`, docs/contracts.md §4). */
export const TaskKeyString = z.string().check(z.regex(TASK_KEY, 'expected <project-id>:<task-group>:<task-id>'));

/** One segment of a task key (a project id, task group or task id): libs/core `TASK_KEY_SEGMENT`. */
export const TaskKeySegment = z.string().check(z.regex(TASK_KEY_SEGMENT, 'expected letters, digits, ".", "_" or "-"'));

/** Provider ids of the bundled registry (0.164.0 README table); user providers may add more. */
export const ProviderId = z.string().check(z.regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a provider id like "claude"'));

/** An integer ≥ 0 (a count, a duration in ms, round 0 = seed). */
export const NonNegativeInt = z.int().check(z.gte(0));

/** An integer ≥ 1 (a round, a line, a stage). */
export const PositiveInt = z.int().check(z.gte(1));

/** A string of at least one character. */
export const NonEmptyString = z.string().check(z.minLength(1));

/** A path recorded in an artifact: project-root-relative (preferred, `/`-separated) or absolute. */
export const ArtifactPath = NonEmptyString;
