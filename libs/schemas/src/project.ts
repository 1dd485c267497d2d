import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { Timestamp } from './common.js';

/** `.okstra/project.json` (docs/contracts.md §4): the project's identity. Unknown keys are kept. */
export const ProjectJson = z.looseObject({
  schemaVersion: z.literal('1.0'),
  projectId: z.string().check(z.regex(/^[A-Za-z0-9._-]+$/)),
  name: z.optional(z.string()),
  createdAt: z.optional(Timestamp),
});
export type ProjectJson = z.infer<typeof ProjectJson>;

export const projectJsonArtifact = defineArtifact('project', ['1.0'], 'okstra .okstra/project.json', ProjectJson);
