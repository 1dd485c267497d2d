import type { ConvergenceMode } from '@okstra/schemas/convergence';
import type { ConvergenceVoteObject } from '@okstra/schemas/answers';
import { answerVerdictLines, objectVotesById, type AnswerProblem } from '@okstra/verdict-blocks';
import { VERDICT_WORDS, type BlockVote } from './response-votes.js';

/** A worker's answer object as its collector read it (verdict-blocks `readAnswerRecord`): the votes, or why none are believed. */
export interface ResponseObject {
  votes: readonly ConvergenceVoteObject[] | null;
  problems: readonly string[];
}

/**
 * The votes of a schema-bound reverify or gap-vote answer (docs/contracts.md
 * "Answer objects"), read from its object and never from the result's prose:
 * one vote per wanted id, its word one of the run mode's (the schema holds
 * both modes' words), its Basis the explanation, its line that of its
 * `**Verdict**` in the Markdown written from the object (the result the
 * record's digest binds). Problems name the result's file, line 0. Same return as
 * `readResponseVotesWithProblems`.
 */
export function readObjectVotes(input: {
  workerId: string;
  file: string;
  mode: ConvergenceMode;
  wanted: readonly string[];
  thing: string;
  object: ResponseObject;
}): { votes: BlockVote[]; problems: AnswerProblem[] } {
  const { workerId, file, thing } = input;
  const at = (id: string, message: string): AnswerProblem => ({ workerId, file, thing, id, line: 0, message });
  if (input.object.votes === null) return { votes: [], problems: input.object.problems.map((m) => at('(all)', `answer object refused: ${m}`)) };
  const words = VERDICT_WORDS[input.mode];
  const { byId, problems } = objectVotesById(input.object.votes, input.wanted, thing);
  const all = problems.map((p) => at(p.id, p.message));
  for (const [id, v] of byId)
    if (!(v.verdict in words))
      all.push(at(id, `unknown verdict '${v.verdict}' in the answer object (${input.mode} mode accepts ${Object.keys(words).join(', ')})`));
  if (all.length > 0) return { votes: [], problems: all };
  const lines = answerVerdictLines('reverify', { votes: [...input.object.votes] });
  const lineOf = new Map(input.object.votes.map((v, i) => [v, lines[i]!]));
  return {
    votes: input.wanted.map((id) => {
      const v = byId.get(id)!;
      return { id, verdict: words[v.verdict]!, explanation: v.basis.trim(), sourceVerdict: v.verdict, line: lineOf.get(v)! };
    }),
    problems: [],
  };
}
