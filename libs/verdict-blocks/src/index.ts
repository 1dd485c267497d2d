/**
 * `@okstra/verdict-blocks`: the one parser of worker-response Markdown blocks
 * (`### <id>` headings followed by `**Label**: value` fields), shared by
 * okstra-convergence `collect-results` and okstra-plan-items `collect-verdicts`
 * (ARCHITECTURE.md §2 "markdown verdict blocks — one rule, one home").
 */
export { parseVerdictBlocks } from './parse.js';
export type { ParseOptions, VerdictBlock, VerdictField } from './parse.js';
export { leadingWord, normalizeWord } from './words.js';
export { MAX_MARKDOWN_NESTING, assertMarkdownNesting, markdownNesting } from './nesting.js';
