import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { TaskKeySegment, Timestamp } from './common.js';

/** `.okstra/project.json` (docs/contracts.md §4): the project's identity. Unknown keys are kept. */
export const ProjectJson = z.looseObject({
  schemaVersion: z.literal('1.0'),
  projectId: TaskKeySegment,
  name: z.optional(z.string()),
  createdAt: z.optional(Timestamp),
});
export type ProjectJson = z.infer<typeof ProjectJson>;

export const projectJsonArtifact = defineArtifact('project', ['1.0'], 'okstra .okstra/project.json', ProjectJson);
