import { z } from 'zod';
import { defineArtifact } from './artifact.js';
import { TaskKeyString, Timestamp } from './common.js';

/** `<task-root>/task-manifest.json` (docs/contracts.md §4). Unknown keys are kept. */
export const TaskManifest = z.looseObject({
  schemaVersion: z.literal('1.0'),
  taskKey: TaskKeyString,
  projectId: z.string(),
  taskGroup: z.string(),
  taskId: z.string(),
  title: z.string().optional(),
  createdAt: Timestamp.optional(),
  workStatus: z.enum(['todo', 'in-progress', 'blocked', 'done']).optional(),
});
export type TaskManifest = z.infer<typeof TaskManifest>;

export const taskManifestArtifact = defineArtifact('task-manifest', ['1.0'], 'okstra task-manifest.json', TaskManifest);
