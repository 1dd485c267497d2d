import type { ConvergenceMode, Verdict } from '@okstra/schemas/convergence';
import { CONVERGENCE_VERDICT_WORDS } from '@okstra/schemas/vocabulary';
import {
  bearingProblems,
  cleanVerdictText,
  dispatchedIds,
  leadingWord,
  normalizeWord,
  parseAnswer,
  refuseAnswers,
  secondIdInHeading,
  summaryStatements,
  tableRows,
  truncatedAt,
  verdictWordsIn,
  type AnswerProblem,
  type TableRow,
  type VerdictBlock,
  type VerdictField,
} from '@okstra/verdict-blocks';

/** The verdict words each mode accepts (upper case) and the vote each maps to: the vocabulary's one home. */
export const VERDICT_WORDS: Readonly<Record<ConvergenceMode, Readonly<Record<string, Verdict>>>> = CONVERGENCE_VERDICT_WORDS;

/** Field labels read as a vote's explanation (Basis and its synonyms); several different ones are kept, in order. */
export const EXPLANATION_FIELDS = ['basis', 'explanation', 'rationale', 'reasoning'] as const;

/** The field labels of a vote block: only a line starting with one of these ends a field (docs/convergence.md "Response blocks"). `Confidence` is known so it stays out of the verdict and the Basis. */
export const VOTE_FIELD_LABELS = ['verdict', ...EXPLANATION_FIELDS, 'confidence'] as const;

/** A block heading id: any finding id, in any case (`f-002` is read as the dispatched `F-002`). */
const HEADING_ID = /[A-Z][A-Z0-9]*-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/i;

/** One vote read from a response block. */
export interface BlockVote {
  id: string;
  verdict: Verdict;
  /** The Basis, whole, as Markdown source. */
  explanation: string;
  sourceVerdict: string;
  /** The line of the verdict (its field, or the heading when the verdict stands there). */
  line: number;
}

/** A problem of one response (AnswerProblem without worker, file and thing). */
type Problem = { id: string; line: number; message: string };

/**
 * Read every vote block of one worker response (docs/convergence.md "Response
 * blocks" and "Verdict words"). `wanted` are the ids the worker was asked about,
 * in order; `thing` names them in messages (`finding`, `gap`). Returns one vote per
 * wanted id, in `wanted` order.
 * @throws InputError (exit 2) listing every problem ({@link readResponseVotesWithProblems}).
 */
export function readResponseVotes(input: ResponseInput): BlockVote[] {
  const { votes, problems } = readResponseVotesWithProblems(input);
  if (problems.length > 0) refuseAnswers(problems);
  return votes;
}

/** The input of {@link readResponseVotes}. */
export interface ResponseInput {
  workerId: string;
  file: string;
  text: string;
  mode: ConvergenceMode;
  wanted: readonly string[];
  thing: string;
  /** The provider's end-of-turn signal when captured (WorkerResponse.endOfTurn): any but `end-turn` is a truncated answer. */
  endOfTurn?: { signal: string } | null;
}

/**
 * {@link readResponseVotes} without throwing on the response's problems: the votes
 * (only when there is no problem) and every problem, each naming the id, the line,
 * what was found and what was expected. Problems: a block for an id not asked
 * about; two different blocks for one id (an exact repeat is one answer); a block
 * with no verdict; two Verdict fields, or the same explanation label twice (naming
 * both lines); a heading verdict, a closing summary or table row, or a later
 * correction that differs from the block's verdict (naming both lines); a heading
 * that starts with a verdict word but says more; an unknown or decorated verdict
 * word (listing the accepted words); a vote with no Basis; an id missing from the response.
 * @throws InputError only for a response over the size cap or nested too deep.
 */
export function readResponseVotesWithProblems(input: ResponseInput): { votes: BlockVote[]; problems: AnswerProblem[] } {
  const { workerId, file, mode, thing } = input;
  const words = VERDICT_WORDS[mode];
  const accepted = Object.keys(words);
  const dispatched = (written: string) => dispatchedIds(written, input.wanted);
  const problems: Problem[] = [];
  const fail = (id: string, line: number, message: string) => problems.push({ id, line, message });
  const votes = new Map<string, BlockVote>();
  const raws = new Map<string, string>();
  const answer = parseAnswer(input.text, { idPattern: HEADING_ID, fieldLabels: VOTE_FIELD_LABELS, file });
  for (const block of answer.blocks) {
    const matches = dispatched(block.id);
    const id = matches[0] ?? block.id;
    if (matches.length > 1) {
      fail(block.id, block.headingLine, `the id matches ${matches.join(' and ')} in another case or zero-padding: write it exactly as dispatched`);
      continue;
    }
    if (matches.length === 0) {
      // `## Re-verification Results`: a heading whose first word looks like an id but that carries no verdict is a title.
      if (block.fields.verdict || headingVerdict(block, accepted)) fail(block.id, block.headingLine, `verdict for a ${thing} not dispatched to this worker`);
      continue;
    }
    const other = otherIdInHeading(block.headingRest, input.wanted);
    if (other && other !== id) {
      fail(id, block.headingLine, `the heading names more than one ${thing} (${id} and ${other}): answer each in its own block`);
      continue;
    }
    const earlier = votes.get(id);
    if (raws.has(id)) {
      const again = readBlock(block, id, thing, words, mode, accepted, () => undefined);
      if (earlier && again && repeats(earlier, again)) continue; // the same answer printed twice: one answer
      fail(
        id,
        block.headingLine,
        `two verdicts for one ${thing} in one response (lines ${earlier?.line ?? '?'} and ${block.fields.verdict?.line ?? block.headingLine})`,
      );
      votes.delete(id);
      continue;
    }
    raws.set(id, block.raw);
    const vote = readBlock(block, id, thing, words, mode, accepted, fail);
    if (vote) votes.set(id, vote);
  }
  // Tables: a row votes for an id with no block, and is a statement compared with the block of one that has.
  const rowsById = new Map<string, TableRow[]>();
  for (const row of tableRows(answer, HEADING_ID)) {
    const [id] = dispatched(row.id);
    if (id) rowsById.set(id, [...(rowsById.get(id) ?? []), row]);
  }
  for (const [id, rows] of rowsById) {
    if (raws.has(id)) continue;
    const row = rows[0];
    const word = cellWord(row.verdict, accepted);
    if (!word) {
      fail(id, row.line, `unknown verdict '${row.verdict}' in the table row (${mode} mode accepts ${accepted.join(', ')})`);
      continue;
    }
    if (!row.basis) {
      fail(id, row.line, `vote with no explanation (the table row has no Basis cell)`);
      continue;
    }
    votes.set(id, { id, verdict: words[word], explanation: row.basis, sourceVerdict: word, line: row.line });
  }
  type Statement = { id: string | null; text: string; line: number; what: string; correction?: boolean; afterTitle?: string };
  const statements: Statement[] = [
    ...[...rowsById].flatMap(([id, rows]) => rows.map((r): Statement => ({ id, text: r.verdict, line: r.line, what: 'the table row' }))),
    ...summaryStatements(answer, HEADING_ID).flatMap((s): Statement[] => {
      if (s.id === null) return [{ id: null, text: s.text, line: s.line, what: 'the summary' }];
      const [id] = dispatched(s.id);
      return id
        ? [{ id, text: s.text, line: s.line, what: s.correction ? 'the correction' : 'the summary line', correction: s.correction, afterTitle: s.afterTitle }]
        : [];
    }),
  ];
  for (const st of statements) {
    let word = statementWord(st.text, accepted) ?? (st.afterTitle === undefined ? undefined : statementWord(st.afterTitle, accepted));
    if (!word && st.correction && st.id !== null) {
      // A correction may name its verdict anywhere (`… so F-001 actually SURVIVES`): every word it names must be the block's.
      const named = verdictWordsIn(st.text, accepted);
      const vote = votes.get(st.id);
      if (vote && named.words.length > 0 && (named.negated || named.words.length > 1 || named.words[0] !== vote.sourceVerdict)) {
        fail(
          st.id,
          st.line,
          `the block says ${vote.sourceVerdict} (line ${vote.line}) but a correction at line ${st.line} says '${st.text}': expected one verdict, the same everywhere`,
        );
        continue;
      }
      word = named.words.length === 1 ? named.words[0] : undefined;
    }
    if (!word) continue;
    if (st.id === null) {
      if (votes.size > 0 && ![...votes.values()].some((v) => v.sourceVerdict === word))
        fail(
          '(all)',
          st.line,
          `${st.what} says ${word} (line ${st.line}) but no ${thing} block says it: expected one verdict per ${thing}, the same everywhere`,
        );
      continue;
    }
    const vote = votes.get(st.id);
    if (vote && vote.sourceVerdict !== word)
      fail(
        st.id,
        st.line,
        `the block says ${vote.sourceVerdict} (line ${vote.line}) but ${st.what} says ${word} (line ${st.line}): expected one verdict, the same everywhere`,
      );
  }
  // Fail closed: every other line that bears on a vote refuses the answer (docs/contracts.md "Which answers give a vote").
  // Only for an answer whose blocks all read: the repair of a broken block comes first, and its text bears on nothing yet.
  const reported = new Set(problems.map((p) => p.line));
  const ownLines = new Set<number>([...votes.values()].map((v) => v.line));
  for (const block of answer.blocks) for (const key of ['verdict', 'confidence']) for (const f of block.occurrences[key] ?? []) ownLines.add(f.line);
  const bearing = bearingProblems({
    answer,
    idPattern: HEADING_ID,
    resolve: (written) => {
      const ids = dispatched(written);
      return ids.length === 1 ? ids[0] : undefined;
    },
    votes: new Map([...votes].map(([id, v]) => [id, { word: v.sourceVerdict, line: v.line }])),
    ownLines,
  });
  const cut =
    input.endOfTurn && input.endOfTurn.signal !== 'end-turn'
      ? { line: 0, why: `the provider's turn did not end (end-of-turn signal '${input.endOfTurn.signal}' in the wrapper's status sidecar)` }
      : truncatedAt(answer.text);
  if (problems.length === 0 && input.wanted.every((id) => votes.has(id))) for (const p of bearing) if (!reported.has(p.line)) fail(p.id, p.line, p.message);
  if (cut) fail(input.wanted[input.wanted.length - 1] ?? '(answer)', cut.line, `the answer is cut off: ${cut.why} (a truncated answer gives no vote)`);
  for (const id of input.wanted) {
    if (!votes.has(id) && !raws.has(id) && !rowsById.has(id) && !problems.some((p) => p.id === id))
      fail(id, 0, `dispatched ${thing} with no verdict (no '### ${id}' block in the response)`);
  }
  const all = problems.map((p) => ({ ...p, workerId, file, thing }));
  return { votes: all.length > 0 ? [] : input.wanted.map((id) => votes.get(id)!), problems: all };
}

/** A second block that repeats the first: the same verdict and the same Basis (one may run on into the answer's closing words). */
function repeats(a: BlockVote, b: BlockVote): boolean {
  return a.sourceVerdict === b.sourceVerdict && (a.explanation.startsWith(b.explanation) || b.explanation.startsWith(a.explanation));
}

/** The verdict word a table cell or summary text states exactly (decoration allowed), if any. */
function cellWord(text: string, accepted: readonly string[]): string | undefined {
  const word = normalizeWord(text.replace(/`/g, ''));
  return accepted.includes(word) ? word : undefined;
}

/** The verdict word a statement starts with (`REFUTED — the header is read…`), if it states one. */
function statementWord(text: string, accepted: readonly string[]): string | undefined {
  return cellWord(text, accepted) ?? leadingWord(text.replace(/`/g, ''), accepted);
}

/** A dispatched id (its dispatched spelling) that the heading's rest starts with: `### F-001, F-002`, `### F-001 / F-002`, `### F-001 and F-002`. */
function otherIdInHeading(rest: string, wanted: readonly string[]): string | undefined {
  const other = secondIdInHeading(rest);
  const ids = other ? dispatchedIds(other, wanted) : undefined;
  return ids?.length === 1 ? ids[0] : undefined;
}

function readBlock(
  block: VerdictBlock,
  id: string,
  thing: string,
  words: Readonly<Record<string, Verdict>>,
  mode: ConvergenceMode,
  accepted: string[],
  fail: (id: string, line: number, message: string) => void,
): BlockVote | undefined {
  const verdicts = block.occurrences.verdict ?? [];
  if (verdicts.length > 1) {
    fail(id, verdicts[1].line, `two **Verdict** fields in one block (lines ${verdicts[0].line} and ${verdicts[1].line})`);
    return undefined;
  }
  for (const label of EXPLANATION_FIELDS) {
    const list = block.occurrences[label] ?? [];
    if (list.length > 1) {
      fail(id, list[1].line, `two **${label[0].toUpperCase()}${label.slice(1)}** fields in one block (lines ${list[0].line} and ${list[1].line})`);
      return undefined;
    }
  }
  const explanations = EXPLANATION_FIELDS.flatMap((k) => block.occurrences[k] ?? []).sort((a, b) => a.line - b.line);

  const heading = headingVerdict(block, accepted);
  if (heading && 'error' in heading) {
    fail(id, block.headingLine, heading.error);
    return undefined;
  }
  const field = block.fields.verdict;
  let word: string;
  let line: number;
  if (field) {
    const read = fieldWord(field, accepted, mode);
    if ('error' in read) {
      fail(id, field.line, read.error);
      return undefined;
    }
    word = read.word;
    line = field.line;
    if (heading && heading.word !== word) {
      fail(id, field.line, `the heading says ${heading.word} (line ${block.headingLine}) but the **Verdict** field says ${word} (line ${field.line})`);
      return undefined;
    }
  } else if (heading) {
    word = heading.word;
    line = block.headingLine;
  } else {
    fail(id, block.headingLine, `dispatched ${thing} with no verdict (its block has no **Verdict** line)`);
    return undefined;
  }
  const basis = explanations
    .map((e) => e.source)
    .filter((s) => s.trim() !== '')
    .join('\n\n');
  if (basis.trim() === '') {
    fail(id, line, `vote with no explanation (no **Basis** in its block)`);
    return undefined;
  }
  return { id, verdict: words[word], explanation: basis, sourceVerdict: word, line };
}

/** The verdict word of a heading (`### F-001: REFUTED`), undefined for a title; an error for a heading that starts with a verdict word but says more. */
function headingVerdict(block: VerdictBlock, accepted: string[]): { word: string } | { error: string } | undefined {
  if (block.headingRest === '') return undefined;
  const word = normalizeWord(block.headingRest);
  if (accepted.includes(word)) return { word };
  // A title, then the verdict after a separator: `### F-001 — Queue race — SURVIVES`, `### F-001: race (SURVIVES)`.
  const tail = /(?:\s[\u2014\u2013-]\s|[:|]\s|\s(?=\())\s*([^\u2014\u2013:|]+?)\s*$/.exec(block.headingRest)?.[1];
  if (tail !== undefined && accepted.includes(normalizeWord(tail))) return { word: normalizeWord(tail) };
  const lead = leadingWord(block.headingRest, accepted);
  // `Unverifiable retry cap` is a title (the word, a space, more words); `REFUTED — …`, `SURVIVES, mostly` are verdicts with more.
  if (!lead) return undefined;
  const head = new RegExp(`^[\\s*_\`"'“‘[(]*${lead.split('-').join('[\\s_-]+')}`, 'i');
  const after = cleanVerdictText(block.headingRest).replace(head, '');
  if (!/^[ \t]+[A-Za-z0-9]/.test(after)) {
    return {
      error: `the heading '${block.headingRest}' starts with the verdict ${lead} but says more (write the word alone, or a **Verdict** field, and the rest in **Basis**)`,
    };
  }
  return undefined;
}

function fieldWord(field: VerdictField, accepted: string[], mode: ConvergenceMode): { word: string } | { error: string } {
  const word = normalizeWord(field.value);
  if (accepted.includes(word)) return { word };
  const lead = leadingWord(field.value, accepted);
  const shown = field.source.split('\n')[0];
  if (lead)
    return {
      error: `verdict '${shown}' is ${lead} with more words: write the word alone and the rest in **Basis** (${mode} mode accepts ${accepted.join(', ')})`,
    };
  return { error: `unknown verdict '${shown}' (${mode} mode accepts ${accepted.join(', ')})` };
}
