/**
 * zod schemas (with inferred types) of the foundation artifacts. Each tool
 * adds its own artifacts as `src/<artifact>.ts`, imported as
 * `@okstra/schemas/<artifact>`; the build emits a JSON Schema per artifact.
 * Import this lazily from command actions: building zod schemas costs start-up time.
 */
export * from './vocabulary.js';
export * from './artifact.js';
export * from './common.js';
export * from './project.js';
export * from './task-manifest.js';
export * from './team-state.js';
export * from './jobs-file.js';
export * from './run-manifest.js';
export * from './retry-budget.js';
export * from './roles.js';
