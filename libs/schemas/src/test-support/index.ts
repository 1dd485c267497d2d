// Test helpers of @okstra/schemas (not built, not published): ajv is a dev dependency only.
export * from './json-schema-file.js';
