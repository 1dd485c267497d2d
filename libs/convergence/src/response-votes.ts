import { InputError } from '@okstra/core';
import type { ConvergenceMode, Verdict } from '@okstra/schemas/convergence';
import { CONVERGENCE_VERDICT_WORDS } from '@okstra/schemas/vocabulary';
import { leadingWord, normalizeWord, parseVerdictBlocks, secondIdInHeading, type VerdictBlock, type VerdictField } from '@okstra/verdict-blocks';

/** The verdict words each mode accepts (upper case) and the vote each maps to: the vocabulary's one home. */
export const VERDICT_WORDS: Readonly<Record<ConvergenceMode, Readonly<Record<string, Verdict>>>> = CONVERGENCE_VERDICT_WORDS;

/** Field labels read as a vote's explanation; both name the same field, so a block may carry only one of them. */
export const EXPLANATION_FIELDS = ['basis', 'explanation'] as const;

/** The field labels of a vote block: only a line starting with one of these ends a field (docs/convergence.md "Response blocks"). */
export const VOTE_FIELD_LABELS = ['verdict', ...EXPLANATION_FIELDS] as const;

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

/**
 * Read every vote block of one worker response (docs/convergence.md "Response
 * blocks" and "Verdict words"). `wanted` are the ids the worker was asked about,
 * in order; `thing` names them in messages (`finding`, `gap`). Returns one vote per
 * wanted id, in `wanted` order.
 * @throws InputError (exit 2) naming the worker, the id, the file and the line, on:
 *   a block for an id not asked about; two blocks for one id; a block with no verdict;
 *   two Verdict fields, or two Basis/Explanation fields (naming both lines); a
 *   heading verdict and a Verdict field that differ; a heading that starts with a
 *   verdict word but says more; an unknown or decorated verdict word (listing the
 *   accepted words); a vote with no Basis; an id missing from the response.
 */
export function readResponseVotes(input: {
  workerId: string;
  file: string;
  text: string;
  mode: ConvergenceMode;
  wanted: readonly string[];
  thing: string;
}): BlockVote[] {
  const { workerId, file, mode, thing } = input;
  const words = VERDICT_WORDS[mode];
  const canonical = new Map<string, string[]>();
  for (const id of input.wanted) canonical.set(id.toLowerCase(), [...(canonical.get(id.toLowerCase()) ?? []), id]);
  const votes = new Map<string, BlockVote>();
  for (const block of parseVerdictBlocks(input.text, { idPattern: HEADING_ID, fieldLabels: VOTE_FIELD_LABELS, file })) {
    const where = { file, field: `line ${block.headingLine}` };
    const matches = input.wanted.includes(block.id) ? [block.id] : (canonical.get(block.id.toLowerCase()) ?? []);
    if (matches.length > 1) throw new InputError(`worker ${workerId}: ${thing} ${block.id}: the id matches ${matches.join(' and ')} in another case`, where);
    const id = matches[0];
    const who = `worker ${workerId}: ${thing} ${id ?? block.id}`;
    if (!id) throw new InputError(`${who}: verdict for a ${thing} not dispatched to this worker`, where);
    const other = otherIdInHeading(block.headingRest, canonical);
    if (other && other !== id)
      throw new InputError(`${who}: the heading names more than one ${thing} (${id} and ${other}): answer each in its own block`, where);
    const earlier = votes.get(id);
    if (earlier) {
      const line = block.fields.verdict?.line ?? block.headingLine;
      throw new InputError(`${who}: two verdicts for one ${thing} in one response (lines ${earlier.line} and ${line})`, where);
    }
    votes.set(id, readBlock(block, id, who, file, words, mode, thing));
  }
  const missing = input.wanted.find((id) => !votes.has(id));
  if (missing)
    throw new InputError(`worker ${workerId}: ${thing} ${missing}: dispatched ${thing} with no verdict (no '### ${missing}' block in the response)`, { file });
  return input.wanted.map((id) => votes.get(id)!);
}

/** A dispatched id (its dispatched spelling) that the heading's rest starts with: `### F-001, F-002`, `### F-001 / F-002`, `### F-001 and F-002`. */
function otherIdInHeading(rest: string, canonical: ReadonlyMap<string, string[]>): string | undefined {
  const other = secondIdInHeading(rest);
  const ids = other ? canonical.get(other.toLowerCase()) : undefined;
  return ids?.length === 1 ? ids[0] : undefined;
}

function readBlock(
  block: VerdictBlock,
  id: string,
  who: string,
  file: string,
  words: Readonly<Record<string, Verdict>>,
  mode: ConvergenceMode,
  thing: string,
): BlockVote {
  const accepted = Object.keys(words);
  const at = (line: number) => ({ file, field: `line ${line}` });
  const twice = (list: VerdictField[] | undefined, what: string) => {
    if (list && list.length > 1) throw new InputError(`${who}: two ${what} fields in one block (lines ${list[0].line} and ${list[1].line})`, at(list[1].line));
  };
  twice(block.occurrences.verdict, '**Verdict**');
  const explanations = EXPLANATION_FIELDS.flatMap((k) => block.occurrences[k] ?? []).sort((a, b) => a.line - b.line);
  twice(explanations, '**Basis**');

  const heading = headingVerdict(block, accepted, who, file);
  const field = block.fields.verdict;
  let word: string;
  let line: number;
  if (field) {
    word = fieldWord(field, accepted, who, file, mode);
    line = field.line;
    if (heading && heading !== word) {
      throw new InputError(
        `${who}: the heading says ${heading} (line ${block.headingLine}) but the **Verdict** field says ${word} (line ${field.line})`,
        at(field.line),
      );
    }
  } else if (heading) {
    word = heading;
    line = block.headingLine;
  } else throw new InputError(`${who}: dispatched ${thing} with no verdict (its block has no **Verdict** line)`, at(block.headingLine));
  const basis = explanations[0]?.source ?? '';
  if (basis.trim() === '') throw new InputError(`${who}: vote with no explanation (no **Basis** in its block)`, at(line));
  return { id, verdict: words[word], explanation: basis, sourceVerdict: word, line };
}

/** The verdict word of a heading (`### F-001: REFUTED`), undefined for a title; refuses a heading that starts with a verdict word but says more. */
function headingVerdict(block: VerdictBlock, accepted: string[], who: string, file: string): string | undefined {
  if (block.headingRest === '') return undefined;
  const word = normalizeWord(block.headingRest);
  if (accepted.includes(word)) return word;
  const lead = leadingWord(block.headingRest, accepted);
  // `Unverifiable retry cap` is a title (the word, a space, more words); `REFUTED — …`, `SURVIVES, mostly` are verdicts with more.
  if (!lead) return undefined;
  const head = new RegExp(`^[\\s*_\`"'“‘[(]*${lead.split('-').join('[\\s_-]+')}`, 'i');
  const after = block.headingRest.replace(head, '');
  if (!/^[ \t]+[A-Za-z0-9]/.test(after)) {
    throw new InputError(
      `${who}: the heading '${block.headingRest}' starts with the verdict ${lead} but says more (write the word alone, or a **Verdict** field, and the rest in **Basis**)`,
      { file, field: `line ${block.headingLine}` },
    );
  }
  return undefined;
}

function fieldWord(field: VerdictField, accepted: string[], who: string, file: string, mode: ConvergenceMode): string {
  const word = normalizeWord(field.value);
  if (accepted.includes(word)) return word;
  const at = { file, field: `line ${field.line}` };
  const lead = leadingWord(field.value, accepted);
  const shown = field.source.split('\n')[0];
  if (lead) {
    throw new InputError(
      `${who}: verdict '${shown}' is ${lead} with more words: write the word alone and the rest in **Basis** (${mode} mode accepts ${accepted.join(', ')})`,
      at,
    );
  }
  throw new InputError(`${who}: unknown verdict '${shown}' (${mode} mode accepts ${accepted.join(', ')})`, at);
}
