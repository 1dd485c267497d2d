import { problemLine, type AnswerProblem } from './problems.js';

/**
 * The repair prompt of one worker whose answer was refused (issue #25 item 4,
 * docs/convergence.md "Repair dispatch"): the problems found, the form expected,
 * and the worker's own answer verbatim, asking it to restate that answer in the
 * form without changing any verdict. Sent as a fresh one-shot session, never a
 * resumed conversation. The answer stands in a fence longer than any backtick
 * run inside it, so nothing in it can close the fence.
 * @param input.expectedForm the answer format of the worker text (prompts/workers/…), as Markdown.
 */
export function renderRepairPrompt(input: { problems: readonly AnswerProblem[]; expectedForm: string; answer: string }): string {
  const longest = Math.max(2, ...[...input.answer.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [
    '## Restate your answer (repair)',
    '',
    'Your answer below could not be read. Restate the **same** answer in the form',
    'that follows: keep every verdict, kind, fixability and Basis exactly as you',
    'gave them — change no verdict and add no new finding. If your answer really',
    'said two different things about one id, give the one you hold and say why in its Basis.',
    '',
    '### What could not be read',
    '',
    ...input.problems.map((p) => `- ${problemLine(p)}`),
    '',
    '### The form expected',
    '',
    input.expectedForm.trim(),
    '',
    '### Your answer, as you wrote it',
    '',
    `${fence}markdown`,
    input.answer.replace(/\s+$/, ''),
    fence,
    '',
  ].join('\n');
}
