// Test helpers every package's tests share (not built, not published): `@okstra/core/test-support`.
export * from './run-bin.js';
export * from './project.js';
export * from './random.js';
