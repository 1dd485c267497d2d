import { BREAKAGE_KINDS, FIXABILITY_VALUES, PLAN_VERDICT_WORDS } from '@okstra/schemas/vocabulary';
import { hedgeIn } from './hedges.js';
import { cleanVerdictText } from './words.js';
import type { VerdictBlock, VerdictField } from './parse.js';

/**
 * The plan-body verification vote grammar (docs/plan-items.md "Verdict grammar"):
 * how one `### P-…` block's fields become one vote, read exactly. One vote per
 * block: a Verdict line names exactly one verdict word; a kind is exactly one
 * letter a–e; one Fixability, one breakage-kind field; nothing a vote cannot
 * carry (a kind or a blocking fixability on an AGREE/SUPPLEMENT). Whatever is
 * not beyond doubt is a problem with a line and a message saying what was
 * expected — never a silent guess. okstra-plan-items `collect-verdicts` reads
 * every block with {@link readPlanVote}.
 */

type Word = (typeof PLAN_VERDICT_WORDS)[number];
type Kind = (typeof BREAKAGE_KINDS)[number];
type Fix = (typeof FIXABILITY_VALUES)[number];

/** One worker's vote on one plan item, as read from its block. */
export interface PlanVote {
  verdict: Word;
  breakageKind: Kind | null;
  fixability: Fix | null;
  /** The Basis field's whole content as Markdown source (up to the next known field label or the end of the block), or null. */
  basis: string | null;
}

/** Why a block gives no vote: the 1-based line to name and what was expected. */
export interface PlanVoteProblem {
  line: number;
  message: string;
}

/** The field labels of a plan block (pass as `fieldLabels` to `parseVerdictBlocks`): any other `Word:` line is text of the field before it. */
export const PLAN_FIELD_LABELS = [
  'Verdict',
  'Breakage kind',
  'Breakage',
  'Kind',
  'Fixability',
  'Basis',
  'Explanation',
  'Rationale',
  'Reasoning',
  'Confidence',
] as const;
/** The labels of a vote's explanation: several different ones are kept, in document order (docs/plan-items.md). */
const BASIS_KEYS = ['basis', 'explanation', 'rationale', 'reasoning'];
const KIND_KEYS = ['breakage kind', 'breakage', 'kind'];

const VERDICTS = 'AGREE, SUPPLEMENT or DISAGREE (<kind>) with one kind letter a–e';
const FIXES = 'in-place, replan or needs-clarification';
/** Whole verdict words, any case (`disagreement` is not `DISAGREE`). */
const VERDICT_WORD = /(?<![A-Za-z0-9])(AGREE|DISAGREE|SUPPLEMENT)(?![A-Za-z0-9])/gi;
/** Fixability words with the spellings workers use (`in place`, `In_Place`, `RE-PLAN`). */
const FIX_WORD = /(?<![A-Za-z0-9])(in[\s_-]*place|re[\s_-]*plan|needs[\s_-]*clarification)(?![A-Za-z0-9])/gi;
/** Separators between a kind and what follows it inside brackets: `(b, in-place)`, `(b — path)`. */
const SEPARATOR = /^\s*(?:[,;/:&\u2013\u2014-]|or\b|and\b)\s*/i;
/** A template placeholder copied literally: `<kind>`, `<a-e>`. */
const PLACEHOLDER = /<[^<>\n]{1,20}>/;
/** A code span that starts with a verdict word in capitals or a fixability word: an answer written as code, not a path (`src/agree.ts`). */
const ANSWER_SPAN = /^\s*(?:(?:AGREE|DISAGREE|SUPPLEMENT)|in[\s_-]*place|re[\s_-]*plan|needs[\s_-]*clarification)(?![A-Za-z0-9./_-])/i;
/** Values that mean "none" in a field that does not apply (`n/a`, `none`, `-`). */
const NONE = /^\s*(?:n\/?a|none|null|nil|not applicable|[-\u2013\u2014])?\s*\.?\s*$/i;

/**
 * Read one block into a vote, or the first problem that stops it (see the
 * module comment and docs/plan-items.md for every rule).
 */
export function readPlanVote(block: VerdictBlock): { vote: PlanVote } | { problem: PlanVoteProblem } {
  const fail = (line: number, message: string) => ({ problem: { line, message } });
  const verdicts = block.occurrences['verdict'] ?? [];
  const field = verdicts[0];
  if (!field || lineText(field) === '') {
    const said = headingVerdict(block.headingRest);
    return fail(
      field?.line ?? block.headingLine,
      `assigned item left unanswered: the block has no **Verdict** value${said ? ` (the heading says '${block.headingRest}': put it on a **Verdict**: line)` : ''}`,
    );
  }
  if (verdicts.length > 1) return fail(verdicts[1].line, `the block has ${verdicts.length} **Verdict** lines (${lines(verdicts)}): expected exactly one`);
  const read = readVerdictLine(lineText(field));
  if ('error' in read) return fail(field.line, read.error);

  const kindFields = KIND_KEYS.flatMap((k) => block.occurrences[k] ?? []).sort((a, b) => a.line - b.line);
  if (kindFields.length > 1)
    return fail(kindFields[1].line, `the block has ${kindFields.length} breakage-kind fields (${lines(kindFields)}): expected at most one`);
  const fixFields = block.occurrences['fixability'] ?? [];
  if (fixFields.length > 1)
    return fail(fixFields[1].line, `the block has ${fixFields.length} **Fixability** lines (${lines(fixFields)}): expected at most one`);
  const kindField = kindFields[0];
  const fixField = fixFields[0];
  for (const key of BASIS_KEYS) {
    const list = block.occurrences[key] ?? [];
    const label = key[0].toUpperCase() + key.slice(1);
    if (list.length > 1) return fail(list[1].line, `the block has ${list.length} **${label}** fields (${lines(list)}): expected at most one`);
  }
  // The Basis whole, as Markdown source, with an Explanation/Rationale beside it kept after it (docs/plan-items.md).
  const basis =
    BASIS_KEYS.flatMap((k) => block.occurrences[k] ?? [])
      .sort((a, b) => a.line - b.line)
      .map((f) => f.source)
      .filter((t) => t.trim() !== '')
      .join('\n\n') || null;
  const heading = headingPlanVerdict(block.headingRest);
  if (heading && (heading.verdict !== read.verdict || (heading.kind !== null && read.kind !== null && heading.kind !== read.kind))) {
    return fail(
      field.line,
      `the heading says '${block.headingRest}' (line ${block.headingLine}) but the **Verdict** field says '${firstWords(lineText(field))}' (line ${field.line}): expected one verdict`,
    );
  }

  if (read.verdict !== 'DISAGREE') {
    if (read.kind !== null) return fail(field.line, `${read.verdict} takes no breakage kind (got '${read.kind}'): a kind goes with DISAGREE only`);
    if (kindField && !NONE.test(lineText(kindField))) {
      return fail(
        kindField.line,
        `${read.verdict} takes no breakage kind (got '${firstWords(lineText(kindField))}'): a kind goes with DISAGREE only; write DISAGREE (<kind>) or drop the field`,
      );
    }
    const fix = fixField ? readFixabilityText(lineText(fixField)) : null;
    if (fix && 'fixability' in fix && fix.fixability !== 'in-place') {
      return fail(
        fixField!.line,
        `${read.verdict} takes no fixability '${fix.fixability}' (it would block the plan): write DISAGREE (<kind>) with it, or drop the field`,
      );
    }
    if (fix && 'error' in fix && fix.several) return fail(fixField!.line, fix.error);
    return { vote: { verdict: read.verdict, breakageKind: null, fixability: null, basis } };
  }

  let fieldKind: Kind | null = null;
  if (kindField) {
    const k = readKindText(lineText(kindField), 'field');
    if ('error' in k) return fail(kindField.line, `Breakage kind '${firstWords(lineText(kindField))}': ${k.error}`);
    const hedge = hedgeIn(lineText(kindField), k.rest);
    if (hedge) return fail(kindField.line, `Breakage kind '${firstWords(lineText(kindField))}' ${hedge}: expected exactly one kind letter a–e`);
    fieldKind = k.kind;
  }
  if (read.kind !== null && fieldKind !== null && read.kind !== fieldKind) {
    return fail(kindField!.line, `DISAGREE (${read.kind}) and Breakage kind '${fieldKind}' disagree: expected one kind`);
  }
  const kind = read.kind ?? fieldKind;
  if (kind === null) return fail(kindField?.line ?? field.line, 'DISAGREE with no breakage kind (write DISAGREE (a) … DISAGREE (e))');

  let fixability: Fix | null = read.fixability;
  if (fixField) {
    const fix = readFixabilityText(lineText(fixField));
    if ('error' in fix) return fail(fixField.line, fix.error);
    const hedge = hedgeIn(lineText(fixField), lineText(fixField).replace(FIX_START, ''));
    if (hedge) return fail(fixField.line, `Fixability '${firstWords(lineText(fixField))}' ${hedge}: expected exactly one of ${FIXES}`);
    if (fixability !== null && fix.fixability !== fixability) {
      return fail(fixField.line, `DISAGREE (${kind}, ${fixability}) and Fixability '${fix.fixability}' disagree: expected one fixability`);
    }
    fixability = fix.fixability;
  }
  if (fixability === null) return fail(field.line, `DISAGREE without a fixability value (${FIXES})`);
  return { vote: { verdict: 'DISAGREE', breakageKind: kind, fixability, basis } };
}

/** A Verdict line read: the word, the kind in its brackets, a fixability written there too. */
export type VerdictLine = { verdict: Word; kind: Kind | null; fixability: Fix | null } | { error: string };

/**
 * Read a Verdict line's text ({@link lineText}). It starts with exactly one verdict
 * word (any case, whole word) and names no other anywhere (`AGREE — no disagreement
 * here` is an AGREE; `AGREE, but DISAGREE (c)`, `AGREE/DISAGREE` and the template
 * `AGREE | SUPPLEMENT | DISAGREE (<kind>)` are refused). Brackets right after the word
 * — `DISAGREE (b)`, `DISAGREE(b)`, `DISAGREE [b]`, `DISAGREE (kind b)`, `DISAGREE (b,
 * in-place)`, `DISAGREE (b — abbreviated path)` — hold the kind ({@link readKindText});
 * brackets holding words only (`AGREE (minor)`) are a description.
 */
export function readVerdictLine(written: string): VerdictLine {
  const text = cleanVerdictText(written);
  const words = [...text.matchAll(VERDICT_WORD)].map((m) => m[1].toUpperCase());
  const start = /^\s*(AGREE|DISAGREE|SUPPLEMENT)(?![A-Za-z0-9])/i.exec(text);
  const template = `the Verdict is the template placeholder '${firstWords(text)}': expected ${VERDICTS}`;
  if (words.length > 1 && (PLACEHOLDER.test(text) || /\|/.test(text))) return { error: template };
  if (words.length > 1) {
    return {
      error: `the Verdict line names ${words.length} verdict words (${words.join(', ')}): expected exactly one — ${VERDICTS}; put the explanation in **Basis**`,
    };
  }
  if (!start) return { error: `unknown verdict '${firstWords(text)}' (expected ${VERDICTS}, as the first word of the Verdict line)` };
  const verdict = start[1].toUpperCase() as Word;
  const rest = text.slice(start[0].length);
  const bracket = /^\s*([([])([^)\]]*)([)\]])?/.exec(rest);
  // `AGREE? Not really`, `AGREE (probably)`, `DISAGREE (b) — maybe`: the word taken back is no vote.
  const hedge = hedgeIn(text, rest, bracket?.[2] ?? '', bracket?.[3] ? rest.slice(bracket[0].length) : '');
  if (hedge) return { error: `the Verdict '${firstWords(text)}' ${hedge}: expected ${VERDICTS}, stated plainly; put doubts in **Basis**` };
  if (!bracket) {
    // `DISAGREE: b`, `DISAGREE-b`, `DISAGREE c — order`: one letter standing alone after the word is the kind.
    const loose = /^\s*(?:[:\uff1a\u2013\u2014-]\s*)?([A-Za-z])\s*(?:$|[,;:\u2013\u2014-])/.exec(rest);
    if (loose && verdict !== 'DISAGREE') return { error: `${verdict} takes no breakage kind (got '${firstWords(text)}'): a kind goes with DISAGREE only` };
    if (loose) {
      const k = readKindText(rest.replace(/^\s*(?:[:\uff1a\u2013\u2014-]\s*)?/, ''), 'field');
      if ('error' in k) return { error: `DISAGREE ${rest.trim()}: ${k.error}` };
      const fix = fixIn(k.rest);
      if (fix && 'error' in fix) return fix;
      return { verdict, kind: k.kind, fixability: fix?.fixability ?? null };
    }
    return { verdict, kind: null, fixability: null };
  }
  if (bracket[3] === undefined) return { error: `the bracket after ${verdict} is not closed: expected ${verdict} (<kind>) with one kind letter a–e` };
  const inner = bracket[2];
  if (/^\s*</.test(inner)) return { error: template };
  const k = readKindText(inner, 'bracket');
  if ('error' in k) return { error: `${verdict} (${inner.trim()}): ${k.error}` };
  if (k.kind === null) return { verdict, kind: null, fixability: null }; // words only: a description
  // `DISAGREE (b, in-place)`, or after the bracket: `DISAGREE (b) — in-place`.
  const after = fixIn(`${k.rest} ${rest.slice(bracket[0].length)}`);
  if (after && 'error' in after) return after;
  return { verdict, kind: k.kind, fixability: after?.fixability ?? null };
}

/** The one fixability a text names (`— in-place`), none, or the refusal of two. */
function fixIn(text: string): { fixability: Fix } | { error: string } | undefined {
  const found = [...new Set([...text.matchAll(FIX_WORD)].map((m) => canonicalFix(m[1])))];
  if (found.length > 1) return { error: `the Verdict line names ${found.length} fixability values (${found.join(', ')}): expected exactly one of ${FIXES}` };
  return found.length === 1 ? { fixability: found[0] } : undefined;
}

/** The verdict a heading states after its id (`### P-Opt-1 — DISAGREE (a)`): a verdict word in capitals first; undefined for a title. */
function headingPlanVerdict(rest: string): { verdict: Word; kind: Kind | null } | undefined {
  if (!/^[\s*_`[(]*(AGREE|DISAGREE|SUPPLEMENT)(?![A-Za-z0-9])/.test(rest)) return undefined;
  const read = readVerdictLine(rest.replace(/[*_`]/g, ''));
  return 'error' in read ? undefined : { verdict: read.verdict, kind: read.kind };
}

/**
 * Read a kind: exactly one letter a–e, optionally after `kind` (`kind b`, `kind: b`)
 * and, in a field, wrapped in brackets (`(b) path…`, `[B]`). After the letter comes
 * the end, a closing bracket or a separator and more text (`b — abbreviated path`,
 * `b, in-place`); in a field, also a space and words (`b path mismatch`).
 * Refused: a list or range (`a, b`, `a/b`, `a-e`, `a or b`), several letters (`ab`),
 * a letter outside a–e (`f`). In a verdict's brackets, text that starts with a word
 * (`minor`, `see below`) is a description: kind null.
 * @returns the kind (or null) and the text after it; or the reason it is refused.
 */
export function readKindText(text: string, where: 'field' | 'bracket'): { kind: Kind | null; rest: string } | { error: string } {
  let t = text.trim();
  if (where === 'field' && NONE.test(t)) return { kind: null, rest: '' };
  const named = /^kind\b\s*:?\s*/i.exec(t);
  if (named) t = t.slice(named[0].length);
  if (where === 'field') t = t.replace(/^[(["'\u201c\u2018]\s*/, '');
  const token = /^[A-Za-z]+/.exec(t);
  if (!token) {
    if (named || where === 'field') return { error: 'expected exactly one kind letter a–e' };
    return { kind: null, rest: t };
  }
  const letters = token[0];
  if (letters.length > 1) {
    // `(ab)`, `(abc)`, `(ab, in-place)`: several kind letters run together; `(bad path)` is a description.
    const whole = /^\s*(?:$|[)\]]|[,;/:&\u2013\u2014-])/.test(t.slice(letters.length));
    if (/^[a-e]+$/i.test(letters) && letters.length <= BREAKAGE_KINDS.length && (whole || where === 'field')) {
      return { error: `'${letters}' is not one letter: expected exactly one kind letter a–e` };
    }
    if (named || where === 'field') return { error: `'${letters}' is not a kind: expected exactly one kind letter a–e` };
    return { kind: null, rest: t };
  }
  const kind = letters.toLowerCase();
  if (!(BREAKAGE_KINDS as readonly string[]).includes(kind)) return { error: `breakage kind '${kind}' is not one of a-e` };
  let after = t.slice(1);
  if (where === 'field') after = after.replace(/^\s*[)\]]/, '');
  if (after.trim() === '') return { kind: kind as Kind, rest: '' };
  const sep = SEPARATOR.exec(after);
  if (sep) {
    const next = after.slice(sep[0].length);
    const other = /^([A-Za-z])\s*(?:$|[,;/:&)\]\u2013\u2014-]|or\b|and\b)/i.exec(next);
    if (other) return { error: `names ${/^\s*[-\u2013]/.test(after) ? 'a range' : 'a list'} of breakage kinds: expected exactly one kind letter a–e` };
    return { kind: kind as Kind, rest: next.trim() };
  }
  if (where === 'field' && /^\s+\S/.test(after)) return { kind: kind as Kind, rest: after.trim() };
  return { error: `after the kind letter '${kind}' expected the closing bracket or a separator (DISAGREE (${kind}), DISAGREE (${kind}, in-place))` };
}

/**
 * Read a Fixability text: it starts with exactly one of `in-place`, `replan`,
 * `needs-clarification` (any case; `-`, `_` or spaces between the words) and names
 * no second one (`in-place or replan` is refused); anything else may follow
 * (`in place — trivial`). `several` marks the refusal of a second value.
 */
export function readFixabilityText(text: string): { fixability: Fix } | { error: string; several: boolean } {
  const found = [...text.matchAll(FIX_WORD)].map((m) => canonicalFix(m[1]));
  const distinct = [...new Set(found)];
  if (distinct.length > 1)
    return { error: `Fixability names ${distinct.length} values (${distinct.join(', ')}): expected exactly one of ${FIXES}`, several: true };
  // `in place — trivial`, or one value named in prose: `easy fix — the path can be corrected in-place`.
  const first = leadingFix(text) ?? distinct[0];
  if (first === undefined) return { error: `unknown fixability '${firstWords(text)}' (expected ${FIXES})`, several: false };
  return { fixability: first };
}

/**
 * The text of a field's own paragraph, from its Markdown source: a code span that
 * wraps the start (`` `DISAGREE (b)` ``) is unwrapped, so is a later span that is itself an
 * answer (`` `DISAGREE (b)` ``, `` `replan` ``), other code spans (paths such as
 * `src/agree.ts`) and HTML comments dropped, link targets dropped, emphasis marks removed.
 */
export function lineText(field: VerdictField): string {
  let t = field.source.split(/\n[ \t]*\n/)[0];
  t = t.replace(/<!--[\s\S]*?-->/g, '');
  t = t.replace(/^(`+)([^`]+)\1/, '$2');
  // A span that is itself an answer (`` `DISAGREE (b)` ``, `` `replan` ``) is kept, so a second answer in code is seen, not dropped.
  t = t.replace(/(`+)([^`]*)\1/g, (_span, _ticks, inner: string) => (ANSWER_SPAN.test(inner) ? inner : ' '));
  t = t.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  t = t.replace(/\*+/g, '').replace(/(^|[\s([])_+|_+(?=$|[\s)\].,;:!?])/g, '$1');
  return t.replace(/[ \t]+/g, ' ').trim();
}

/** A fixability word at the start of a text. */
const FIX_START = /^\s*(in[\s_-]*place|re[\s_-]*plan|needs[\s_-]*clarification)(?![A-Za-z0-9])/i;

function leadingFix(text: string): Fix | undefined {
  const m = FIX_START.exec(text);
  return m ? canonicalFix(m[1]) : undefined;
}

function canonicalFix(word: string): Fix {
  const w = word.toLowerCase().replace(/[\s_-]+/g, '');
  return w === 'inplace' ? 'in-place' : w === 'replan' ? 'replan' : 'needs-clarification';
}

/** A verdict word the heading's rest starts with (`### P-Opt-1 — DISAGREE (b)`), for the hint of a block with no Verdict line. */
function headingVerdict(rest: string): boolean {
  return /^\s*(AGREE|DISAGREE|SUPPLEMENT)(?![A-Za-z0-9])/i.test(rest);
}

function lines(fields: readonly VerdictField[]): string {
  const ns = fields.map((f) => f.line);
  return ns.length === 2 ? `lines ${ns[0]} and ${ns[1]}` : `lines ${ns.join(', ')}`;
}

function firstWords(text: string): string {
  const line = text.split('\n')[0].trim();
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}
