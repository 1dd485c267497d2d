import { InputError } from '@okstra/core';

/** One reason a worker answer is refused: who, about what, where (1-based line; 0 = none), and the message saying what was found and what was expected. */
export interface AnswerProblem {
  workerId: string;
  /** The id as dispatched (or as written, when it was not dispatched). */
  id: string;
  /** What the id names in messages: `finding`, `gap`, `item`. */
  thing: string;
  file: string;
  line: number;
  message: string;
}

/** One problem as the refusal names it: `<file>: line <N>: worker <w>: <thing> <id>: <message>`. */
export function problemLine(p: AnswerProblem): string {
  return [p.file, p.line > 0 ? `line ${p.line}` : undefined, `worker ${p.workerId}: ${p.thing} ${p.id}: ${p.message}`].filter(Boolean).join(': ');
}

/**
 * Refuse answers with every problem at once (docs/convergence.md "collect-results",
 * docs/plan-items.md "Hard errors"): the first problem names the file and line as
 * every refusal does; the others follow on the same line, each with its file,
 * line, worker and id, after `; and <K> more: `.
 * @throws InputError (exit 2), always.
 */
export function refuseAnswers(problems: readonly AnswerProblem[]): never {
  const [first, ...more] = problems;
  const rest = more.length > 0 ? `; and ${more.length} more: ${more.map(problemLine).join('; ')}` : '';
  throw new InputError(`worker ${first.workerId}: ${first.thing} ${first.id}: ${first.message}${rest}`, {
    file: first.file,
    field: first.line > 0 ? `line ${first.line}` : undefined,
  });
}
