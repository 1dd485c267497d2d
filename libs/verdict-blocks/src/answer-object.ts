import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { appendAll, InputError } from '@okstra/core';
import { ANSWER_SHAPES, AnswerRecord, type AnswerKind, type AnswerObject, type ConvergenceVoteObject, type PlanVoteObject } from '@okstra/schemas/answers';

/**
 * Schema-bound answers (docs/contracts.md "Answer objects"): the Markdown a
 * worker's result is written in from its validated answer object, and how a
 * collector reads that object instead of the result's prose.
 */

/** sha256 (hex) of a result's text, as the answer record keeps it. */
export function resultDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The seeds' Markdown result of an answer object: one `### <id>` block per
 * vote, in the object's order, with `**Verdict**` (a plan DISAGREE as
 * `DISAGREE (<kind>)` and its `**Fixability**`) and `**Basis**` — the form the
 * round prompts ask for, so every seed artifact stays and a reader of the
 * Markdown finds the same votes.
 */
export function renderAnswerMarkdown(kind: AnswerKind, answer: AnswerObject): string {
  return renderWithLines(kind, answer).text;
}

/** The 1-based line of each vote's `**Verdict**` in {@link renderAnswerMarkdown}'s text, in the object's order (what a vote read from the object cites). */
export function answerVerdictLines(kind: AnswerKind, answer: AnswerObject): number[] {
  return renderWithLines(kind, answer).verdictLines;
}

function renderWithLines(kind: AnswerKind, answer: AnswerObject): { text: string; verdictLines: number[] } {
  const lines: string[] = [];
  const verdictLines: number[] = [];
  for (const v of answer.votes as ReadonlyArray<ConvergenceVoteObject | PlanVoteObject>) {
    if (lines.length > 0) lines.push('');
    lines.push(`### ${v.id}`, '');
    const plan = kind === 'plan-verify' ? (v as PlanVoteObject) : null;
    verdictLines.push(lines.length + 1);
    lines.push(`**Verdict**: ${plan?.verdict === 'DISAGREE' ? `DISAGREE (${plan.breakageKind})` : v.verdict}`);
    if (plan?.verdict === 'DISAGREE') lines.push(`**Fixability**: ${plan.fixability}`);
    appendAll(lines, `**Basis**: ${v.basis.trim()}`.split('\n'));
  }
  return { text: `${lines.join('\n')}\n`, verdictLines };
}

/** One vote of an answer object. */
type ObjectVote = ConvergenceVoteObject | PlanVoteObject;

/**
 * The wrapper's answer record of a result (`answerRecordPath`), or null when
 * there is none (a Markdown answer). A record that does not parse, is of
 * another kind, or whose result was changed after the wrapper wrote it
 * (`resultSha256`) is not believed: a refused record's problems, or these,
 * come back as `problems` — the collector refuses that worker (repair path)
 * and never reads the result's prose for votes.
 * @throws InputError (exit 2) naming the record file and field when it is not a valid answer record.
 */
export function readAnswerRecord(
  recordPath: string,
  expect: { kind: AnswerKind; resultText: string },
): { record: AnswerRecord; votes: ObjectVote[] | null; problems: string[] } | null {
  let text: string;
  try {
    text = readFileSync(recordPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InputError(`cannot read the answer record (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file: recordPath });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError('the answer record is not JSON', { file: recordPath });
  }
  const parsed = AnswerRecord.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(issue.message, { file: recordPath, field: issue.path.join('.') || undefined });
  }
  const record = parsed.data;
  if (record.kind !== expect.kind)
    throw new InputError(`a ${record.kind} answer record where a ${expect.kind} answer was expected`, { file: recordPath, field: 'kind' });
  if (record.status === 'refused') return { record, votes: null, problems: record.problems.length > 0 ? record.problems : ['the answer object was refused'] };
  if (record.answer === null || !ANSWER_SHAPES[record.kind].safeParse(record.answer).success)
    throw new InputError(`a read answer record without a valid ${record.kind} answer`, { file: recordPath, field: 'answer' });
  if (record.resultSha256 !== resultDigest(expect.resultText))
    return {
      record,
      votes: null,
      problems: ['the result is not the Markdown the wrapper wrote from the answer object (changed since): the object is the answer, the prose is not read'],
    };
  return { record, votes: record.answer.votes, problems: [] };
}

/**
 * The votes of an answer object by dispatched id: every wanted id exactly
 * once, nothing else (an id matching a wanted one in another case is that
 * one, as the Markdown reader takes it). @returns the votes in `wanted`
 * order when there is no problem, and the problems (`id`, message).
 */
export function objectVotesById<V extends ObjectVote>(
  votes: readonly V[],
  wanted: readonly string[],
  thing: string,
): { byId: Map<string, V>; problems: Array<{ id: string; message: string }> } {
  const canonical = new Map(wanted.map((id) => [id.toLowerCase(), id]));
  const byId = new Map<string, V>();
  const problems: Array<{ id: string; message: string }> = [];
  votes.forEach((v, i) => {
    const id = wanted.includes(v.id) ? v.id : canonical.get(v.id.toLowerCase());
    if (!id) return void problems.push({ id: v.id, message: `votes[${i}]: a vote for a ${thing} not dispatched to this worker` });
    if (byId.has(id)) return void problems.push({ id, message: `votes[${i}]: a second vote for one ${thing} in the answer object` });
    byId.set(id, v);
  });
  for (const id of wanted)
    if (!byId.has(id) && !problems.some((p) => p.id === id)) problems.push({ id, message: `dispatched ${thing} with no vote in the answer object` });
  return { byId, problems };
}
