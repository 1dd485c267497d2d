/**
 * The dependency-free base every okstra package may import (libs included):
 * exit codes, the typed errors deep code throws, deterministic JSON, the
 * task-key segment rule, path and duration arguments, and the child-process
 * helpers (lazy `node:child_process`, the PATH lookup, the step-trace seam).
 * Commander wiring and the one error funnel (`runCli`) stay in `@okstra/cli-kit`,
 * which re-exports all of this for apps (docs/conventions.md "Layout").
 */
export * from './exit-codes.js';
export * from './errors.js';
export * from './stable-json.js';
export * from './resource-errors.js';
export * from './ids.js';
export * from './collections.js';
export * from './child-process.js';
export * from './executables.js';
export * from './step-trace.js';
export * from './path-args.js';
export * from './durations.js';
