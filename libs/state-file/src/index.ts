export * from './read-file.js';
export * from './write-file.js';
export * from './file-lock.js';
export * from './artifact-io.js';
export { canonicalPath } from '@okstra/paths';
export { MAX_JSON_DEPTH, assertSaneJson } from './json-guard.js';
