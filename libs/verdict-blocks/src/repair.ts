import type { RepairRecord } from '@okstra/schemas/convergence';
import { problemLine, type AnswerProblem } from './problems.js';
import { maxOf } from '@okstra/core';

/**
 * The repair prompt of one worker whose answer was refused (issue #25 item 4,
 * docs/convergence.md "Repair dispatch"): the problems found, the form expected,
 * and the worker's own answer verbatim, asking it to restate that answer in the
 * form without changing any verdict. Sent as a fresh one-shot session, never a
 * resumed conversation. The answer stands in a fence longer than any backtick
 * run inside it, so nothing in it can close the fence.
 * @param input.expectedForm the answer format of the worker text (prompts/workers/…), as Markdown.
 * @param input.to when given, a header first: the title naming the worker and the dispatch repaired,
 *   the `Batch: ` line of the ids it answers (as every round prompt has), and the file to write the
 *   restated answer to (project-relative, replacing the refused one).
 */
export function renderRepairPrompt(input: {
  problems: readonly AnswerProblem[];
  expectedForm: string;
  answer: string;
  to?: { workerId: string; kind: string; ids: readonly string[]; resultPath: string };
}): string {
  const longest = Math.max(2, maxOf([...input.answer.matchAll(/`+/g)].map((m) => m[0].length)));
  const fence = '`'.repeat(longest + 1);
  const to = input.to;
  const header = to
    ? [
        `# Repair of your ${to.kind} answer: ${to.workerId}`,
        '',
        `Batch: ${to.ids.join(', ')}`,
        '',
        `Write the restated answer to \`${to.resultPath}\` (it replaces the refused one; write nothing else).`,
        '',
      ]
    : [];
  return [
    ...header,
    '## Restate your answer (repair)',
    '',
    'Your answer below could not be read. Restate the **same** answer in the form',
    'that follows: keep every verdict, kind, fixability and Basis exactly as you',
    'gave them — change no verdict and add no new finding. If your answer really',
    'said two different things about one id, give the one you hold and say why in its Basis.',
    'Say each verdict once, in its block: drop every line quoted below that speaks of a',
    "verdict outside its block, and quote another reviewer's verdict on a `>` line.",
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

/**
 * How a repaired worker's answer ends — the one rule of the three `--repair` collects (docs/convergence.md
 * "Repair dispatch"): a restated answer with `problems` (their rendered lines) is `refused`; a repair
 * dispatch that did not end `completed` keeps its status (`timeout`, `error`, `not-run`); else `read`.
 * Only `read` keeps the worker's votes; every other outcome collects the worker as `error`, never
 * repaired a second time. Pure.
 */
export function repairOutcome(dispatchKind: string, status: string, problems: readonly string[]): RepairRecord {
  if (problems.length > 0) return { dispatchKind, outcome: 'refused', problems: [...problems] };
  if (status !== 'completed') return { dispatchKind, outcome: status as RepairRecord['outcome'] };
  return { dispatchKind, outcome: 'read' };
}
