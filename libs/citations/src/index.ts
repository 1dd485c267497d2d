/**
 * @okstra/citations — the citation grammar and the citation checker (docs/worker-audit-check.md):
 * which spans of a worker's Markdown are `path:line` citations, and for each whether the file
 * exists in the project, the lines are in range, attached code matches, and the worker read it.
 * No CLI, no printing: worker-audit-check, collect-results, collect-verdicts and run-audit use it.
 */
export * from './grammar.js';
export * from './hosts.js';
export * from './cited.js';
export * from './quotes.js';
export * from './source-tree.js';
export * from './check.js';
export * from './project.js';
export * from './run.js';
