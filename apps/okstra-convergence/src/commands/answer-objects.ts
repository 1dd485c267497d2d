import { answerRecordPath } from '@okstra/paths';
import type { ResponseObject } from '@okstra/convergence';
import type { AnswerKind } from '@okstra/schemas/answers';
import { readAnswerRecord } from '@okstra/verdict-blocks';

/**
 * The answer object beside a worker's result (docs/contracts.md "Answer
 * objects"): the wrapper's record of a schema-bound answer, read instead of
 * the result's prose; undefined for a Markdown answer (no record).
 * @throws InputError (exit 2) naming the record when it is not a valid one.
 */
export function answerObjectBeside(resultPath: string, kind: AnswerKind, resultText: string): ResponseObject | undefined {
  const read = readAnswerRecord(answerRecordPath(resultPath), { kind, resultText });
  return read ? { votes: read.votes as ResponseObject['votes'], problems: read.problems } : undefined;
}
