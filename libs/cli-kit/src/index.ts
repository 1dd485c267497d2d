// The commander-free base (exit codes, typed errors, stable JSON) lives in
// @okstra/core; re-exported here so an app needs one import.
export * from '@okstra/core';
export * from './io.js';
export * from './json-output.js';
export * from './options.js';
export * from './progress.js';
export * from './report-error.js';
export * from './run-cli.js';
export * from './run-process.js';
export * from './suggest.js';
export * from './version.js';
