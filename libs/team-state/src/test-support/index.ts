// Test fixtures of @okstra/team-state (the `./test-support` export; compiled so the demo can run it, never published).
export * from './team-run.js';
