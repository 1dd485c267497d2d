import { bearingWords, contraryDecoration, idsQuantifierIn, polarityOf, quantifierIn, retractionIn, turnAt, type BearingWord } from './bearing.js';
import type { ParsedAnswer } from './parse.js';

/**
 * A vote gives a reading only when nothing else in the answer bears on it
 * (docs/contracts.md "Which answers give a vote", issue #37 item 2). The readers
 * first read each block by its grammar; this pass then reads every other line of
 * the answer — around the blocks, inside their Basis, in quotes — and refuses the
 * answer when one bears on a vote it does not restate exactly.
 */

/** A vote the reader took from a block or a table row. */
export interface HeldVote {
  /** The verdict word as the reader spells it (`SURVIVES-WITH-CAVEAT`, `AGREE`, `DISAGREE`). */
  word: string;
  /** The line the vote stands on (its Verdict field, heading or table row). */
  line: number;
  /** Plan votes: the breakage kind letter and fixability of a DISAGREE. */
  kind?: string | null;
  fixability?: string | null;
}

/** The input of {@link bearingProblems}. */
export interface BearingInput {
  answer: ParsedAnswer;
  /** The reader's id pattern (`F-001`, `P-Step-2-3`), any flags. */
  idPattern: RegExp;
  /** The dispatched id an id as written names, or undefined. */
  resolve: (written: string) => string | undefined;
  /** Every vote read, by dispatched id. */
  votes: ReadonlyMap<string, HeldVote>;
  /** Lines that state a vote's own fields (Verdict, Fixability, Breakage kind, a table row): read by the grammar, checked here for decoration only. */
  ownLines: ReadonlySet<number>;
}

/** One line that bears on a vote: the id (or `(every id)`), the line, and the message naming both lines. */
export interface BearingProblem {
  id: string;
  line: number;
  message: string;
}

/** Every line of `answer` that bears on a vote other than by restating it exactly. */
export function bearingProblems(input: BearingInput): BearingProblem[] {
  const { answer, votes } = input;
  const lines = answer.text.split(/\r\n|\r|\n/);
  const ids = new RegExp(input.idPattern.source, input.idPattern.flags.replace(/[gy]/g, '') + 'g');
  const blockOf = blockRanges(input);
  const problems: BearingProblem[] = [];
  const quote = (n: number) => `'${clip(lines[n - 1]?.trim() ?? '')}'`;
  const said = (id: string) => {
    const v = votes.get(id)!;
    return `the block says ${describe(v)} at line ${v.line} (${quote(v.line)})`;
  };
  const everyVote = () => [...votes].map(([id, v]) => `${id} ${describe(v)} at line ${v.line}`).join(', ');
  let fence: string | undefined;
  lines.forEach((raw, i) => {
    const n = i + 1;
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (f) {
      if (fence === undefined) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length) fence = undefined;
      return;
    }
    if (fence !== undefined || raw.trim() === '') return;
    const own = blockOf(n);
    if (own && own.headingLine === n) {
      const deco = contraryDecoration(raw, votes.get(own.id)!.word);
      if (deco) problems.push({ id: own.id, line: n, message: `the heading's '${deco}' leans the other way from ${said(own.id)}: one verdict, said one way` });
      return;
    }
    if (input.ownLines.has(n)) {
      const id = own?.id ?? [...votes].find(([, v]) => v.line === n)?.[0];
      const vote = id ? votes.get(id) : undefined;
      const deco = vote ? contraryDecoration(raw, vote.word) : undefined;
      if (id && deco)
        problems.push({ id, line: n, message: `the verdict line's '${deco}' leans the other way from ${describe(vote!)}: one verdict, said one way` });
      return;
    }
    const quoted = /^\s{0,3}>/.test(raw);
    const text = statementText(raw);
    if (text === '') return;
    const named = [...text.matchAll(ids)]
      .filter((m) => !/[A-Za-z0-9_-]/.test(text.charAt((m.index ?? 0) + m[0].length)) && !/[A-Za-z0-9_-]/.test(text.charAt((m.index ?? 0) - 1)))
      .map((m) => ({ id: input.resolve(m[0]), at: m.index ?? 0, end: (m.index ?? 0) + m[0].length }))
      .filter((m): m is { id: string; at: number; end: number } => m.id !== undefined && votes.has(m.id));
    const others = named.filter((m) => m.id !== own?.id);
    const retraction = retractionIn(text);
    const quantifier = quantifierIn(text);
    const words = bearingWords(withoutCode(text));
    if (others.length === 0 && own) {
      // A line of a block's own Basis (or the text after it up to the next block).
      const problem = basisProblem(text, quoted, votes.get(own.id)!, retraction);
      if (problem)
        problems.push({ id: own.id, line: n, message: `${problem} at line ${n} (${quote(n)}), but ${said(own.id)}: one verdict, the same everywhere` });
      return;
    }
    if (others.length === 0) {
      if (retraction === undefined && words.length === 0) return;
      // `Verdict: AGREE` under blocks that all say AGREE restates every vote.
      const voted = new Set([...votes.values()].map((v) => v.word.toUpperCase()));
      if (retraction === undefined && voted.size === 1 && words.every((w) => w.word !== null && voted.has(w.word))) return;
      const why = retraction ? `a correction ('${retraction}')` : `'${words[0].text}'`;
      const about = quantifier ? `every ${votes.size > 1 ? 'id' : 'vote'} ('${quantifier}')` : 'no id';
      problems.push({
        id: '(every id)',
        line: n,
        message: `line ${n} outside the blocks names ${about} and bears on the votes with ${why} (${quote(n)}); the blocks say ${everyVote()}: a vote is read only when nothing else speaks of it`,
      });
      return;
    }
    // A line naming ids other than its own block's: each id's part must restate its vote exactly, or say nothing of it.
    const segments = named.map((m, k) => ({ id: m.id, text: withoutCode(text.slice(m.end, k + 1 < named.length ? named[k + 1].at : text.length)) }));
    const head = withoutCode(text.slice(0, named[0].at));
    for (const seg of segments) {
      if (own && seg.id === own.id) continue;
      const segWords = bearingWords(seg.text);
      const vote = votes.get(seg.id)!;
      const restates =
        retraction === undefined &&
        quantifierIn(seg.text) === undefined &&
        bearingWords(head).length === 0 &&
        segWords.every((w) => w.word !== null && w.word === vote.word.toUpperCase()) &&
        kindAndFixabilityAgree(seg.text, vote);
      const bears = retraction !== undefined || segWords.length > 0 || (quantifier !== undefined && words.length > 0);
      if (bears && !restates)
        problems.push({
          id: seg.id,
          line: n,
          message: `line ${n} ${own ? `inside the block of ${own.id}` : 'outside its block'} speaks of ${seg.id} (${quote(n)}), but ${said(seg.id)}: a vote is read only when nothing else speaks of it`,
        });
    }
  });
  return problems;
}

/** Why a line of a block's own Basis takes its vote back or contradicts it, or undefined. */
function basisProblem(text: string, quoted: boolean, vote: HeldVote, retraction: string | undefined): string | undefined {
  if (retraction) return `a correction ('${retraction}')`;
  const words = bearingWords(withoutCode(text));
  const polarity = polarityOf(vote.word);
  const every = idsQuantifierIn(text);
  if (!quoted && every && words.length > 0) return `a statement about every id ('${every}' … '${words[0].text}')`;
  if (!quoted) {
    // A verdict word of either vocabulary in the worker's own words must be the block's (another reviewer's verdict goes in a `>` quote).
    const other = words.find(
      (w) => w.word !== null && (w.polarity !== polarity || (isCaps(w.text) && w.word !== vote.word.toUpperCase() && !sameFamily(w.word, vote.word))),
    );
    if (other) return `'${other.text}'`;
    const flipped = words.find((w) => w.word === null && w.negated && /[A-Za-z]/.test(w.text) && isVocabulary(w.text) && w.polarity !== polarity);
    if (flipped) return `'${flipped.text}' negated`;
    const turn = turnAt(text);
    const against = turn && words.find((w) => w.index > turn.index && w.polarity !== polarity);
    if (turn && against) return `a change of mind ('${turn.text}' … '${against.text}')`;
  }
  if (vote.word.toUpperCase() === 'DISAGREE') {
    const kind = namedKind(text);
    if (kind && vote.kind && kind !== vote.kind) return `the Basis names kind (${kind}), not (${vote.kind})`;
    const fix = namedFixability(text);
    if (fix && vote.fixability && fix !== vote.fixability) return `the Basis names fixability ${fix}, not ${vote.fixability}`;
  }
  return undefined;
}

/** `SURVIVES` in an answer voting `SURVIVES-WITH-CAVEAT` (or the reverse) is the same word family in capitals: the Basis restates the vote's stem. */
function sameFamily(a: string, b: string): boolean {
  return a.toUpperCase().startsWith('SURVIVES') && b.toUpperCase().startsWith('SURVIVES') && a.toUpperCase() === 'SURVIVES';
}

function isCaps(text: string): boolean {
  return text === text.toUpperCase() && /[A-Z]/.test(text);
}

function isVocabulary(text: string): boolean {
  return /refut|surviv|agree|supplement|unverifiable/i.test(text);
}

/** A kind letter a Basis names: `kind (c)`, `a (c) breakage`, `DISAGREE (d)`, `breakage kind e`. */
export function namedKind(text: string): string | undefined {
  const m =
    /(?:kind|type|breakage|disagree|category)\s*[([]\s*([a-e])\s*[)\]]/i.exec(text) ??
    /[([]\s*([a-e])\s*[)\]]\s*(?:breakage|kind)/i.exec(text) ??
    /(?:breakage kind|kind)\s+([a-e])(?![A-Za-z0-9])/i.exec(text);
  return m?.[1].toLowerCase();
}

/** A fixability a Basis names, unless negated (`no replan needed` names none). */
export function namedFixability(text: string): string | undefined {
  const m = /(?<![A-Za-z])(in[\s_-]place|re[\s_-]?plan(?:ning|ned)?|needs?[\s_-]clarification|ask the user)(?![A-Za-z])/i.exec(text);
  if (!m) return undefined;
  const before = text.slice(Math.max(0, m.index - 30), m.index);
  if (/(?:^|\W)(?:no|not|never|without|nor|n't)\W+(?:\w+\W+){0,2}$/i.test(before) || /n['’]t\s+(?:\w+\s+){0,2}$/i.test(before)) return undefined;
  const w = m[1].toLowerCase();
  return w.startsWith('in') ? 'in-place' : w.startsWith('re') ? 'replan' : 'needs-clarification';
}

function kindAndFixabilityAgree(text: string, vote: HeldVote): boolean {
  const kind = namedKind(text) ?? /\(\s*([a-e])\s*[,)]/i.exec(text)?.[1]?.toLowerCase();
  if (kind && vote.kind && kind !== vote.kind) return false;
  const fix = namedFixability(text);
  return !(fix && vote.fixability && fix !== vote.fixability);
}

function describe(v: HeldVote): string {
  return v.kind ? `${v.word} (${v.kind}${v.fixability ? `, ${v.fixability}` : ''})` : v.word;
}

/** The plain text of a source line: quote, list, heading and table marks and emphasis dropped. */
function statementText(raw: string): string {
  return raw
    .replace(/^\s{0,3}(?:>\s?)+/, '')
    .replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+/, '')
    .replace(/^\s*#{1,6}\s+/, '')
    .replace(/\|/g, ' | ')
    .replace(/\*\*|__|(?<![A-Za-z0-9])[*_](?=\S)|(?<=\S)[*_](?![A-Za-z0-9])/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim();
}

/** Code spans dropped, except one holding exactly a word (`` `SURVIVES` ``): code is not a statement. */
function withoutCode(text: string): string {
  return text.replace(/`+([^`]*)`+/g, (_, inner: string) => (/^[A-Za-z-]+$/.test(inner.trim()) ? inner : ' '));
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** The dispatched block a line belongs to (from its heading to its last line), or undefined. */
function blockRanges(input: BearingInput): (line: number) => { id: string; headingLine: number } | undefined {
  const ranges = input.answer.blocks
    .map((b) => ({ id: input.resolve(b.id), headingLine: b.headingLine, endLine: b.endLine }))
    .filter((r): r is { id: string; headingLine: number; endLine: number } => r.id !== undefined && input.votes.has(r.id));
  return (line) => {
    const r = ranges.find((x) => x.headingLine <= line && line <= x.endLine);
    return r && { id: r.id, headingLine: r.headingLine };
  };
}

export type { BearingWord };

/**
 * Where an answer stops mid-token (issue #37 item 2, "cut off"): a code fence never
 * closed, or a last line that leaves a code span, a bold span or a bracket open.
 * Undefined when the answer ends whole.
 */
export function truncatedAt(text: string): { line: number; why: string } | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  let fence: { mark: string; line: number } | undefined;
  let last = -1;
  lines.forEach((raw, i) => {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (f) {
      if (fence === undefined) fence = { mark: f[1], line: i + 1 };
      else if (f[1][0] === fence.mark[0] && f[1].length >= fence.mark.length) fence = undefined;
    }
    if (raw.trim() !== '') last = i;
  });
  if (fence) return { line: fence.line, why: 'a code fence opened here is never closed' };
  if (last < 0) return undefined;
  let first = last;
  while (first > 0 && lines[first - 1].trim() !== '' && !/^\s{0,3}(`{3,}|~{3,})/.test(lines[first - 1])) first -= 1;
  const paragraph = lines.slice(first, last + 1).join('\n');
  const line = lines[last];
  const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;
  if (count(paragraph.replace(/``+/g, ''), /`/g) % 2 === 1) return { line: last + 1, why: 'its last line leaves a code span open' };
  const plain = line.replace(/`[^`]*`/g, '');
  if (count(plain, /\*\*/g) % 2 === 1) return { line: last + 1, why: 'its last line leaves a bold span open' };
  if (count(plain, /[([（]/g) > count(plain, /[)\]）]/g)) return { line: last + 1, why: 'its last line leaves a bracket open' };
  return undefined;
}
