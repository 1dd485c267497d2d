// The read-vote report (issue #37 item 4): for each committed corpus, how many
// answers a reader reads directly, how many one repair turns into a read vote
// (restatement.ts: the worker restating its own blocks in the prompt's form), and
// how many stay refused — over all answers and over the clear ones. Printed by
// the read-votes specs of libs/convergence and libs/plan-items, and written as
// JSON to $READ_VOTES_OUT for bench/read-votes.bench.mjs.
import { appendFileSync } from 'node:fs';
import { restatedAnswer } from './restatement.js';
import type { CorpusAnswer, CorpusOutcome } from './corpus/index.js';

/** One corpus's figures. */
export interface ReadVoteFigures {
  corpus: string;
  answers: number;
  readDirectly: number;
  readAfterOneRepair: number;
  stillRefused: number;
  clear: { answers: number; readDirectly: number; readAfterOneRepair: number; stillRefused: number };
}

/** Read every answer, repair each refused one once, and count. */
export function readVoteFigures(
  corpus: string,
  answers: readonly CorpusAnswer[],
  read: (answer: CorpusAnswer) => CorpusOutcome,
  options: { idPattern: RegExp; fieldLabels: readonly string[] },
): ReadVoteFigures {
  const f: ReadVoteFigures = {
    corpus,
    answers: 0,
    readDirectly: 0,
    readAfterOneRepair: 0,
    stillRefused: 0,
    clear: { answers: 0, readDirectly: 0, readAfterOneRepair: 0, stillRefused: 0 },
  };
  for (const answer of answers) {
    const first = read(answer);
    let kind: 'readDirectly' | 'readAfterOneRepair' | 'stillRefused' = 'readDirectly';
    if ('refusal' in first) {
      const restated = restatedAnswer(answer.text, first.refusal, answer.ids, options);
      kind = restated !== undefined && !('refusal' in read({ ...answer, text: restated })) ? 'readAfterOneRepair' : 'stillRefused';
    }
    f.answers++;
    f[kind]++;
    if (answer.reads) {
      f.clear.answers++;
      f.clear[kind]++;
    }
  }
  if (process.env['READ_VOTES_OUT']) appendFileSync(process.env['READ_VOTES_OUT'], `${JSON.stringify(f)}\n`);
  return f;
}
