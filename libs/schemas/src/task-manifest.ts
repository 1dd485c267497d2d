import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { TaskKeyString, Timestamp } from './common.js';

/** `<task-root>/task-manifest.json` (docs/contracts.md §4). Unknown keys are kept. */
export const TaskManifest = z.looseObject({
  schemaVersion: z.literal('1.0'),
  taskKey: TaskKeyString,
  projectId: z.string(),
  taskGroup: z.string(),
  taskId: z.string(),
  title: z.optional(z.string()),
  createdAt: z.optional(Timestamp),
  workStatus: z.optional(z.enum(['todo', 'in-progress', 'blocked', 'done'])),
});
export type TaskManifest = z.infer<typeof TaskManifest>;

export const taskManifestArtifact = defineArtifact('task-manifest', ['1.0'], 'okstra task-manifest.json', TaskManifest);
