import type { PlanVerdict } from '@okstra/schemas/implementation-planning';
import type { PlanVoteObject } from '@okstra/schemas/answers';
import { objectVotesById } from '@okstra/verdict-blocks';
import type { CollectProblem } from './collect.js';

/** A worker's plan-verify answer object as its collector read it (verdict-blocks `readAnswerRecord`): the votes, or why none are believed. */
export interface PlanResponseObject {
  votes: readonly PlanVoteObject[] | null;
  problems: readonly string[];
}

/**
 * The votes of a schema-bound plan-verify answer (docs/contracts.md "Answer
 * objects"), read from its object and never from the result's prose: every
 * queue item exactly once (the object's shape already holds the verdict
 * grammar: a DISAGREE with one kind and one fixability, the others with
 * neither). @returns item id → vote, or → null when the item was not read
 * (its problem pushed, line 0).
 */
export function readObjectResponse(
  response: { workerId: string; file: string; object: PlanResponseObject },
  queue: readonly string[],
  problems: CollectProblem[],
): Map<string, PlanVerdict | null> {
  const { workerId, file } = response;
  const out = new Map<string, PlanVerdict | null>(queue.map((id) => [id, null]));
  if (response.object.votes === null) {
    for (const message of response.object.problems) problems.push({ workerId, itemId: '(all)', file, line: 0, message: `answer object refused: ${message}` });
    return out;
  }
  const read = objectVotesById(response.object.votes, queue, 'item');
  for (const p of read.problems) problems.push({ workerId, itemId: p.id, file, line: 0, message: p.message });
  if (read.problems.length > 0) return out;
  for (const [id, v] of read.byId) out.set(id, { workerId, verdict: v.verdict, breakageKind: v.breakageKind, fixability: v.fixability, basis: v.basis.trim() });
  return out;
}
