/**
 * The dependency-free base every okstra package may import (libs included):
 * exit codes, the typed errors deep code throws, deterministic JSON, the
 * task-key segment rule.
 * Commander wiring and the one error funnel (`runCli`) stay in `@okstra/cli-kit`,
 * which re-exports all of this for apps (docs/conventions.md "Layout").
 */
export * from './exit-codes.js';
export * from './errors.js';
export * from './stable-json.js';
export * from './resource-errors.js';
export * from './ids.js';
