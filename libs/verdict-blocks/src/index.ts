/**
 * `@okstra/verdict-blocks`: the one parser of worker-response Markdown blocks
 * (`### <id>` headings followed by `**Label**: value` fields), shared by
 * okstra-convergence `collect-results` and okstra-plan-items `collect-verdicts`
 * (docs/contracts.md §2 "markdown verdict blocks — one rule, one home").
 */
export { parseVerdictBlocks, secondIdInHeading } from './parse.js';
export type { ParseOptions, VerdictBlock, VerdictField } from './parse.js';
export { leadingWord, normalizeWord } from './words.js';
export { MAX_MARKDOWN_NESTING, assertMarkdownNesting, markdownNesting } from './nesting.js';
export { findNearMisses } from './near-miss.js';
export type { NearMiss } from './near-miss.js';
export { PLAN_FIELD_LABELS, lineText, readFixabilityText, readKindText, readPlanVote, readVerdictLine } from './plan-verdict.js';
export type { PlanVote, PlanVoteProblem, VerdictLine } from './plan-verdict.js';
export { DEFAULT_DEPTHS, parseAnswer } from './parse.js';
export type { OutsideLine, ParsedAnswer } from './parse.js';
export { MAX_RESPONSE_BYTES, assertResponseSize, parseMarkdownLinear } from './linear.js';
export { problemLine, refuseAnswers } from './problems.js';
export type { AnswerProblem } from './problems.js';
export { summaryStatements, tableRows } from './statements.js';
export type { SummaryStatement, TableRow } from './statements.js';
export { cleanVerdictText, verdictWordsIn } from './words.js';
export { hedgeIn } from './hedges.js';
export { renderRepairPrompt, repairOutcome } from './repair.js';
export { dispatchedIds } from './ids.js';
export { LABEL_SPELLINGS, normalizeLabel } from './labels.js';
export { bearingProblems, truncatedAt } from './fail-closed.js';
export type { BearingInput, BearingProblem, HeldVote } from './fail-closed.js';
export { bearingWords, polarityOf } from './bearing.js';
export type { Polarity } from './bearing.js';
export { answerVerdictLines, objectVotesById, readAnswerRecord, renderAnswerMarkdown, resultDigest } from './answer-object.js';
