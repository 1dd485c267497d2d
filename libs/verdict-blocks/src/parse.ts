import { assertMarkdownNesting } from './nesting.js';
import { assertResponseSize, parseMarkdownLinear } from './linear.js';
import { CORRECTION_WORD, STATEMENT_LABEL_WORD } from './statements.js';
import { labelSpellings, normalizeLabel } from './labels.js';
import type { Heading, Nodes, Paragraph, PhrasingContent, RootContent } from 'mdast';
import { appendAll } from '@okstra/core';

/**
 * One field of a block. Lines are 1-based in the original text.
 * - `value`: the plain text (inline Markdown stripped, lines trimmed, `\n` between them) of the
 *   label's own line and the rest of its paragraph up to the next field line; a label left empty
 *   takes the next paragraph. Meant for one-word fields (`Verdict`, `Fixability`).
 * - `source`: the field's whole content as Markdown source — from after `Label:` up to the next
 *   field line or the end of the block, paragraphs, lists, code blocks, inline code and links
 *   kept. Line endings are `\n`; continuation lines of a list-item field lose the item's
 *   indentation; leading and trailing blank space is trimmed. Meant for explanations (`Basis`).
 */
export interface VerdictField {
  value: string;
  source: string;
  line: number;
}

/** One `### <id>` block of a worker response. Lines are 1-based in the original text. */
export interface VerdictBlock {
  /** The id as written (see {@link parseVerdictBlocks}), e.g. `F-003`, `f-003` or `P-Step-2-3`. */
  id: string;
  headingLine: number;
  /** 3 or 4 (`###` or `####`) by default; other depths are not blocks. */
  depth: number;
  /**
   * The heading's plain text after the id, separators (`:`, `—`, `–`, `-`, `.`) and wrapping
   * punctuation before it dropped: `### F-001 — SURVIVES` → `SURVIVES`, `### F-004: stale key` →
   * `stale key`, `### F-002` → `` (empty). The caller decides whether it is a verdict.
   */
  headingRest: string;
  /**
   * Key = field label lowercased, trimmed, inner whitespace collapsed (`verdict`, `basis`,
   * `fixability`, `breakage kind`, …). First occurrence wins; every occurrence is in
   * {@link VerdictBlock.occurrences}.
   */
  fields: Record<string, VerdictField>;
  /** Every occurrence of every field, in document order, by key (so a caller can name both lines of a repeated field). */
  occurrences: Record<string, VerdictField[]>;
  /** Labels (normalized like the keys) that appeared more than once in this block, in order of their first repeat. */
  duplicateFields: string[];
  /** The block's plain text (paragraphs, lists, tables, sub-headings; no code, quotes or HTML), for free-form explanations. */
  text: string;
  /** The block's Markdown source from its heading to its end, trimmed: two blocks with equal `raw` are one answer printed twice. */
  raw: string;
  /** The last line of the block (1-based, in the text read): its lines are `headingLine`..`endLine`. */
  endLine: number;
}

/**
 * The id-like token a heading's rest starts with, after a joining word or mark
 * (`and`, `or`, `&`, `/`, `+`, `,`) and wrapping punctuation: `### F-001, F-002`,
 * `### F-001 / F-002`, `### P-Opt-1 and P-Opt-2` give the second id as written.
 * The caller decides whether it is one of its ids: a heading naming two ids is
 * refused by both collectors (docs/convergence.md "Response blocks",
 * docs/plan-items.md "Verdict grammar"). Undefined when the rest starts with no such token.
 */
export function secondIdInHeading(headingRest: string): string | undefined {
  return /^(?:(?:and|or|&|\/|\+|,)\s*)?[`*_[(]*([A-Za-z0-9-]+)/i.exec(headingRest)?.[1];
}

/** Options of {@link parseVerdictBlocks}. */
export interface ParseOptions {
  /** The file the text came from, named by the nesting refusal. */
  file?: string;
  /**
   * A heading is a block only when its text starts with a match of this pattern that ends
   * at a token boundary; the match is the block id. Give the `i` flag to read ids in any
   * case (`f-002`). Default: any heading, id = its first token.
   */
  idPattern?: RegExp;
  /** Heading depths that open blocks (default `[3, 4]`). */
  depths?: number[];
  /**
   * The known field labels (any case; `Breakage kind` is matched as `breakage kind`). When
   * given, only a line starting with one of them is a field: any other `Word: …` line
   * (`In production: …`) is part of the field before it. Default: every `Label:` line of 1–5
   * words is a field.
   */
  fieldLabels?: readonly string[];
}

/** A line of plain text inside one paragraph, with its 1-based source line. */
interface PlainLine {
  text: string;
  line: number;
}

/** A field line found in a block, before its value and source are cut out. */
interface FieldLine {
  key: string;
  line: number;
  /** Index of its paragraph in the block's paragraph list, and of the line in that paragraph. */
  paragraph: number;
  index: number;
  /** Indentation of the paragraph's content (list items), removed from continuation lines of `source`. */
  indent: number;
}

/** Heading depths that open blocks: `##`, `###`, `####` (docs/convergence.md "Response blocks"). */
export const DEFAULT_DEPTHS: readonly number[] = [2, 3, 4];
/** `Label: value` at the start of a plain-text line: a label of 1–5 words starting with a letter; the colon may be fullwidth, the space after it a no-break space. */
const FIELD_LINE = /^([A-Za-z][A-Za-z0-9_()/-]*(?:[ \t]+[A-Za-z0-9_()/-]+){0,4})[ \t]*[:\uff1a](?:[ \t\u00a0\u3000]+|$)(.*)$/;
/**
 * The same with a known label (in any spelling of labels.ts): no space is needed after the colon
 * (`**Verdict**:SURVIVES`), and an equals sign or a dash stands for the colon (`Verdict = SURVIVES`,
 * `Basis — …`, `**판정**: REFUTED`).
 */
const KNOWN_FIELD_LINE = /^(\p{L}[\p{L}\p{N}_()/-]*(?:[ \t]+[\p{L}\p{N}_()/-]+){0,4})[ \t]*(?:[:\uff1a=]|[\u2014\u2013](?=[ \t]))[ \t\u00a0\u3000]*(.*)$/u;
/** Words a heading may put before the id: `### Finding F-002: title`, `#### Item P-Opt-1`. */
const ID_DECORATION = /^(?:finding|item|gap|issue|plan item)[ \t]*[#:.]?[ \t]+/i;
/** A paragraph or heading that opens a closing summary: what follows it is not the block's. */
const SUMMARY_TITLE = /^[\s*_#]*(?:summary|overall|conclusions?|tl;?dr|final verdicts?|verdicts|\u603b\u7ed3|\u7ed3\u8bba)[\s*_:\uff1a]*$/i;
/** `<think>…</think>` (also `<thinking>`): a model's drafts before its answer, never read. */
const THINK = /<(think|thinking)>[\s\S]*?<\/\1>/gi;
/** Characters that may stand around an id in a heading: `[F-003]`, `(F-003)`, `F-003:`, an emoji before it (`### 🔍 F-003`, `### ✅ F-002`). */
const LEADING_WRAP = /^[\s[(<{"'“‘#*_\p{Extended_Pictographic}\u{FE0F}\u{200D}]+/u;
/** A list-style number before the id: `### 2. F-002`, `### 3) F-003`. */
const ORDINAL = /^[0-9]{1,4}[.)][ \t]+/;
const TRAILING_PUNCT = /[\])>}"'”’:;,.!?*_]+$/;
/** What may stand between the id and the rest of the heading. */
const HEADING_SEPARATOR = /^[\s\])>}"'”’:;,.!?*_—–-]+/;
/** A character that may not directly follow an id (so `F-0031` is not `F-003`). */
const ID_CHAR = /[A-Za-z0-9_-]/;

/**
 * Parse worker-response Markdown into its verdict blocks, with a real CommonMark
 * parser (commonmark.js, src/commonmark.ts), never line regexes over the raw text.
 *
 * Rules (documented in docs/convergence.md "Response blocks"):
 * - A block opens at a top-level heading whose depth is in `depths`
 *   (default 3 and 4) and whose text (inline code, emphasis and links reduced to their
 *   text, wrapping `[`, `(`, quotes and a list-style number `2.` / `2)` dropped) yields an
 *   id: with `idPattern`, the first whitespace-separated token (wrapping
 *   punctuation removed) when the pattern matches it whole, else a match at the start
 *   of the text ending at a token boundary (`### F-003 — race in queue` → `F-003`);
 *   without `idPattern`, that first token. The rest of the heading is `headingRest`.
 * - A block extends to the next heading of depth ≤ its own, or to the next heading
 *   that opens a block (whatever its depth). Any other heading (deeper, or not matching)
 *   stays inside the block.
 * - Headings and fields inside fenced or indented code, block quotes and HTML are
 *   ignored, so a fake `### F-…` inside a code fence is not a block.
 * - A field is a paragraph line (also inside list items) whose plain text starts with
 *   `Label:` — `**Verdict**: X`, `**Verdict:** X`, `Verdict: X`, `- **Verdict**: X`,
 *   any case — and, with `fieldLabels`, only with a known label. See {@link VerdictField}
 *   for its `value` and `source`.
 * - CRLF, trailing spaces and extra blank lines make no difference to `value`; lines are
 *   1-based in the original text.
 *
 * Markdown has no syntax errors; the one refusal is nesting deeper than
 * MAX_MARKDOWN_NESTING (see {@link assertMarkdownNesting}), which keeps the parse
 * linear; give `file` (ParseOptions) so the refusal names it.
 * @throws InputError (exit 2) only for that nesting.
 */
export function parseVerdictBlocks(markdown: string, options: ParseOptions = {}): VerdictBlock[] {
  return parseAnswer(markdown, options).blocks;
}

/** A paragraph, list or heading line outside every block (a closing summary, a preamble), in plain text with its line. */
export interface OutsideLine {
  text: string;
  line: number;
  /** For a line inside a block: that block's id as written (a correction with no id speaks of it). */
  block?: string;
}

/** One parsed answer: its blocks, the plain lines outside them, and its Markdown source per top-level paragraph for tables. */
export interface ParsedAnswer {
  blocks: VerdictBlock[];
  /** Plain-text lines of paragraphs, lists and headings outside every block, in order (code, quotes and HTML excluded). */
  outside: OutsideLine[];
  /** Plain-text lines of paragraphs and lists inside blocks (Basis text, corrections), in order. */
  inside: OutsideLine[];
  /** Every top-level paragraph (inside blocks too) whose lines all start with `|`: a table, as source lines with their line numbers. */
  tables: Array<Array<{ source: string; line: number }>>;
  /** The text read: `<think>` sections blanked, a fence wrapping the whole answer opened. */
  text: string;
}

/**
 * {@link parseVerdictBlocks} and what lies around the blocks, in one parse (the
 * one reading rule, docs/convergence.md "Response blocks"): `<think>` sections are
 * blanked (line numbers kept); when no block is found and one code fence (```` ```markdown ````,
 * ```` ```md ```` or no language) holds blocks, its fence lines are blanked and the answer
 * is read from inside it; when no heading opens a block, a paragraph that is one bold
 * line starting with an id (`**F-002 — title**`) does.
 */
export function parseAnswer(markdown: string, options: ParseOptions = {}): ParsedAnswer {
  const key = memoKey(markdown, options);
  const known = memo.get(key);
  if (known) {
    // Most recently used last: the oldest entry is the one evicted.
    memo.delete(key);
    memo.set(key, known);
    return known.answer;
  }
  const parsed = parseAnswerUncached(markdown, options);
  const answer: ParsedAnswer = deepFreeze({ blocks: parsed.blocks, outside: parsed.outside, inside: parsed.inside, tables: parsed.tables, text: parsed.text });
  memo.set(key, { answer, chars: markdown.length });
  memoChars += markdown.length;
  for (const [k, entry] of memo) {
    if (memo.size <= MEMO_ENTRIES && memoChars <= MEMO_CHARS) break;
    memo.delete(k);
    memoChars -= entry.chars;
  }
  return answer;
}

/**
 * Answers already read, by text and options: {@link parseAnswer} is a pure
 * function of the two, and the same answer is read by several checks of one
 * audit. Entries are deeply frozen, so no caller can change what
 * the next one reads. At most {@link MEMO_ENTRIES} answers and
 * {@link MEMO_CHARS} characters of text are kept.
 */
const memo = new Map<string, { answer: ParsedAnswer; chars: number }>();
let memoChars = 0;
const MEMO_ENTRIES = 64;
const MEMO_CHARS = 8 * 1024 * 1024;

function memoKey(markdown: string, o: ParseOptions): string {
  const pattern = o.idPattern ? `${o.idPattern.source}/${o.idPattern.flags}` : '';
  return `${o.file ?? ''}\0${pattern}\0${o.depths?.join(',') ?? ''}\0${o.fieldLabels?.join('\u0001') ?? ''}\0${markdown}`;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function parseAnswerUncached(markdown: string, options: ParseOptions): ParsedAnswer {
  assertResponseSize(markdown, options.file);
  assertMarkdownNesting(markdown, options.file);
  const text = markdown.replace(THINK, (section) => section.replace(/[^\r\n]/g, ''));
  const first = readParsed(text, options);
  if (first.blocks.some(hasFields)) return first;
  const opened = openWrappingFence(text);
  const inner = opened === undefined ? first : readParsed(opened, options);
  if (inner.blocks.some(hasFields)) return inner;
  // No heading opens a block with fields: an item or a bold line marking an id does (docs/contracts.md "Which answers give a vote").
  const marked = options.idPattern ? markersAsHeadings(opened ?? text, options.idPattern, options.fieldLabels) : undefined;
  if (marked === undefined) return first;
  const byMarker = readParsed(marked, options);
  return byMarker.blocks.some(hasFields) ? byMarker : first;
}

/**
 * The text with every list item and bold line that starts with an id written as a
 * `###` heading (line numbers kept), and each item's continuation lines taken out
 * of the item: `1. **F-001** — REFUTED` / `   Basis — …` reads as `### **F-001** — REFUTED` /
 * `Basis — …`. Code fences are left as they are. Undefined when no line is such a marker.
 */
function markersAsHeadings(text: string, idPattern: RegExp, fieldLabels: readonly string[] | undefined): string | undefined {
  const known = new Set((fieldLabels ?? ['verdict', 'basis']).map(normalizeLabel));
  const isField = (line: string) => {
    const m = KNOWN_FIELD_LINE.exec(
      line
        .replace(/\r?\n$/, '')
        .replace(/^\s*(?:(?:[-*+]|\d{1,3}[.)])\s+)?/, '')
        .replace(/\*\*|__/g, ''),
    );
    return m !== null && known.has(normalizeLabel(m[1]));
  };
  const id = new RegExp(`^[\\s*_\`[(\\p{Extended_Pictographic}\\uFE0F]*(?:${idPattern.source})(?![A-Za-z0-9_-])`, idPattern.flags.replace(/[gyu]/g, '') + 'u');
  const lines = text.split(/(?<=\n)/);
  let fence: string | undefined;
  let indent = -1;
  let found = false;
  const markerAt = (i: number) => {
    const item = /^( {0,3}(?:[-*+]|\d{1,3}[.)])[ \t]+)(.*)$/s.exec(lines[i]);
    if (item && id.test(item[2])) return { prefix: item[1], rest: item[2] };
    const bold = /^ {0,3}((?:\*\*|__).*)$/s.exec(lines[i]);
    return bold && id.test(bold[1]) ? { prefix: '', rest: bold[1] } : undefined;
  };
  /** A marker is a block only when a field line follows it before the next marker or heading (a summary bullet is not one). */
  const opensBlock = (i: number) => {
    for (let j = i + 1; j < lines.length && j <= i + 40; j++) {
      if (markerAt(j) || /^ {0,3}#{1,6}\s/.test(lines[j])) return false;
      if (isField(lines[j])) return true;
    }
    return false;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f && (fence === undefined || (f[1][0] === fence[0] && f[1].length >= fence.length))) fence = fence === undefined ? f[1] : undefined;
    if (fence !== undefined && !f) continue;
    const marker = markerAt(i);
    if (marker && opensBlock(i)) {
      lines[i] = `### ${marker.rest}`;
      indent = marker.prefix.length;
      found = true;
      continue;
    }
    if (indent > 0 && line.trim() !== '') {
      const lead = /^[ \t]*/.exec(line)![0].length;
      if (lead >= indent) lines[i] = line.slice(indent);
      else indent = -1;
    }
  }
  return found ? lines.join('') : undefined;
}

/**
 * The text with the fence that wraps the whole answer opened (its two fence lines
 * blanked, so line numbers stay): the first fence line that opens ```` ```markdown ````
 * / ```` ```md ```` / a bare fence, and the last bare fence line of its character and at
 * least its length. A worker's own code fences inside it stay fences. Undefined when there is none.
 */
function openWrappingFence(text: string): string | undefined {
  const lines = text.split(/(?<=\n)/);
  const open = lines.findIndex((l) => /^ {0,3}(`{3,}|~{3,})[ \t]*(?:markdown|md)?[ \t]*\r?\n?$/i.test(l));
  if (open < 0) return undefined;
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(lines[open])![1];
  let close = -1;
  for (let i = lines.length - 1; i > open && close < 0; i--) {
    const m = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?\n?$/.exec(lines[i]);
    if (m && m[1][0] === fence[0] && m[1].length >= fence.length) close = i;
  }
  if (close < 0) return undefined;
  lines[open] = blank(lines[open]);
  lines[close] = blank(lines[close]);
  return lines.join('');
}

/** A block with at least one field: a title heading (`## Re-verification Results`) has none. */
function hasFields(block: VerdictBlock): boolean {
  return Object.keys(block.fields).length > 0;
}

function blank(text: string): string {
  return text.replace(/[^\r\n]/g, '');
}

function readParsed(markdown: string, options: ParseOptions): ParsedAnswer & { root: ReturnType<typeof parseMarkdownLinear> } {
  const depths = options.depths ?? DEFAULT_DEPTHS;
  const matcher = options.idPattern ? stickyPattern(options.idPattern) : undefined;
  const known = options.fieldLabels ? new Set(options.fieldLabels.map(normalizeLabel)) : undefined;
  const root = parseMarkdownLinear(markdown, relevantLine(options));
  const nodes = root.children;
  const source = new SourceText(markdown);

  type Opener = { index: number; id: string; rest: string; depth: number; line: number; end: number };
  const isFieldText = (text: string) => {
    const m = (known ? KNOWN_FIELD_LINE : FIELD_LINE).exec(text);
    return m !== null && (!known || known.has(normalizeLabel(m[1])));
  };
  /** Whether a field line follows the heading at `index` before the next heading. */
  const headingHasField = (index: number): boolean => {
    for (let i = index + 1; i < nodes.length && nodes[i].type !== 'heading' && !(nodes[i].type === 'paragraph' && isBoldLine(nodes[i] as Paragraph)); i++) {
      const ps: Paragraph[] = [];
      collectParagraphs(nodes[i], ps);
      if (ps.some((p) => plainLines(p).some((l) => isFieldText(l.text)))) return true;
    }
    return false;
  };
  const openers: Opener[] = [];
  nodes.forEach((node, index) => {
    if (node.type !== 'heading' || !depths.includes(node.depth)) return;
    const id = headingId(node, matcher);
    if (id !== undefined) openers.push({ index, ...id, depth: node.depth, line: node.position?.start.line ?? 0, end: node.position?.end.offset ?? 0 });
  });
  if (options.depths === undefined && !openers.some((o) => headingHasField(o.index))) {
    // No heading opens a block: a bold line standing alone as a paragraph is the heading (`**F-002 — title**`).
    nodes.forEach((node, index) => {
      if (node.type !== 'paragraph' || !isBoldLine(node)) return;
      const id = headingId(node, matcher);
      if (id !== undefined) openers.push({ index, ...id, depth: 7, line: node.position?.start.line ?? 0, end: node.position?.end.offset ?? 0 });
    });
    openers.sort((a, b) => a.index - b.index);
  }

  const openerAt = new Set(openers.map((o) => o.index));
  const inBlock = new Map<number, string>();
  const blocks = openers.map((opener) => {
    let end = opener.index + 1;
    while (end < nodes.length) {
      const node = nodes[end];
      if (node.type === 'heading' && (node.depth <= opener.depth || openerAt.has(end))) break;
      if (openerAt.has(end) || isSummaryTitle(node)) break;
      end += 1;
    }
    for (let i = opener.index; i < end; i++) inBlock.set(i, opener.id);
    const content = nodes.slice(opener.index + 1, end);
    const blockEnd = content.length > 0 ? (content[content.length - 1].position?.end.offset ?? opener.end) : opener.end;
    const block = buildBlock(opener, content, blockEnd, source, known);
    block.raw = markdown.slice(source.lineStart(opener.line), blockEnd).replace(/\r\n?/g, '\n').trim();
    block.endLine = Math.max(opener.line, source.lineAt(Math.max(blockEnd - 1, 0)));
    return block;
  });

  const outside: OutsideLine[] = [];
  const inside: OutsideLine[] = [];
  const tables: ParsedAnswer['tables'] = [];
  nodes.forEach((node, index) => {
    if (node.type === 'paragraph') {
      const rows = source.lines(node.position?.start.line ?? 0, node.position?.end.line ?? 0);
      if (rows.length > 0 && rows.every((r) => /^\s*\|/.test(r.source))) tables.push(rows);
    }
    const paragraphs: Paragraph[] = [];
    collectParagraphs(node, paragraphs);
    const block = inBlock.get(index);
    const into = block === undefined ? outside : inside;
    const tag = (lines: readonly PlainLine[]) => (block === undefined ? lines : lines.map((l) => ({ ...l, block })));
    if (node.type === 'heading' && !openerAt.has(index)) appendAll(into, tag(plainLines(node)));
    for (const p of paragraphs) appendAll(into, tag(plainLines(p)));
  });
  return { blocks, outside, inside, tables, text: markdown, root };
}

/** A paragraph that is one line of bold text (a bold paragraph used as a heading). */
function isBoldLine(node: Paragraph): boolean {
  const kids = node.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  return kids.length === 1 && kids[0].type === 'strong' && (node.position?.start.line ?? 0) === (node.position?.end.line ?? -1);
}

/** A heading or paragraph that titles a closing summary (`## Summary`, `**Overall:**`). */
function isSummaryTitle(node: RootContent): boolean {
  if (node.type !== 'heading' && node.type !== 'paragraph') return false;
  const lines = plainLines(node);
  return lines.length === 1 && SUMMARY_TITLE.test(lines[0].text);
}

/**
 * Lines worth parsing (linear.ts skips chunks with none): a heading or setext
 * underline, a bold or table line, a known field label, a correction, or a line naming an
 * id — never a block-quote line.
 */
export function relevantLine(options: ParseOptions): ((line: string) => boolean) | undefined {
  if (!options.fieldLabels || !options.idPattern) return undefined;
  const labels = labelSpellings(options.fieldLabels)
    .map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
    .join('|');
  const label = new RegExp(`(?:^|[\\s*_>\`-])(?:${labels})[\\s*_\`]*[:\\uff1a=\\u2014\\u2013]`, 'i');
  // An id with a digit (`F-001`, `P-Opt-1`) anywhere — a line outside the blocks naming one is a
  // summary statement wherever the id stands; `- re-read the lock` is Basis prose, not a statement.
  const ids = new RegExp(options.idPattern.source, options.idPattern.flags.replace(/[gy]/g, '') + 'g');
  const namesId = (line: string) => {
    for (const m of line.matchAll(ids)) if (/\d/.test(m[0])) return true;
    return false;
  };
  // A correction inside a block (`Correction: F-002 is REFUTED`, statements.ts) is a statement too.
  // So is a restated verdict or a summary label (`Revised verdict: SURVIVES`, `TL;DR: …`).
  const correction = new RegExp(`^[\\s>*+\\-\\d.)#|[(\`_~]*(?:${CORRECTION_WORD.source}|${STATEMENT_LABEL_WORD.source})`, 'i');
  return (whole) => {
    // A block-quote line (`>` after at most 3 spaces) is inside a quote wherever it stands (a lazy
    // continuation never starts with `>`), and quotes are never read.
    if (/^ {0,3}>/.test(whole)) return false;
    const line = whole.slice(0, 240); // its start decides: a long line costs no more than its start
    return /^\s{0,3}(?:#|=+\s*$|-+\s*$|\||[*_]{2}|<)/.test(line) || label.test(line) || correction.test(line) || SUMMARY_TITLE.test(line) || namesId(whole);
  };
}

function buildBlock(
  opener: { id: string; rest: string; depth: number; line: number },
  content: RootContent[],
  blockEnd: number,
  source: SourceText,
  known: ReadonlySet<string> | undefined,
): VerdictBlock {
  const paragraphs: Paragraph[] = [];
  const texts: string[] = [];
  for (const node of content) {
    collectParagraphs(node, paragraphs);
    const text = blockText(node);
    if (text !== '') texts.push(text);
  }
  const lines = paragraphs.map(plainLines);
  const isField = (text: string): RegExpExecArray | null => {
    const match = (known ? KNOWN_FIELD_LINE : FIELD_LINE).exec(text);
    return match && (!known || known.has(normalizeLabel(match[1]))) ? match : null;
  };

  const found: FieldLine[] = [];
  lines.forEach((paragraphLines, p) => {
    const indent = (paragraphs[p].position?.start.column ?? 1) - 1;
    paragraphLines.forEach((l, index) => {
      const match = isField(l.text);
      if (match) found.push({ key: normalizeLabel(match[1]), line: l.line, paragraph: p, index, indent });
    });
  });

  const fields: Record<string, VerdictField> = {};
  const occurrences: Record<string, VerdictField[]> = {};
  const duplicates: string[] = [];
  found.forEach((f, i) => {
    const next = found[i + 1];
    const field: VerdictField = {
      value: plainValue(f, next, lines, isField),
      source: source.fieldSource(f.line, next ? source.lineStart(next.line) : blockEnd, f.indent),
      line: f.line,
    };
    (occurrences[f.key] ??= []).push(field);
    if (f.key in fields) {
      if (!duplicates.includes(f.key)) duplicates.push(f.key);
    } else fields[f.key] = field;
  });

  return {
    id: opener.id,
    headingLine: opener.line,
    depth: opener.depth,
    headingRest: opener.rest,
    fields,
    occurrences,
    duplicateFields: duplicates,
    text: texts.join('\n\n'),
    raw: '',
    endLine: opener.line,
  };
}

/** A field's plain `value`: its line's text after the label, the paragraph's next lines up to the next field, or (label left empty) the next paragraph unless that starts with a field. */
function plainValue(
  f: FieldLine,
  next: FieldLine | undefined,
  lines: ReadonlyArray<readonly PlainLine[]>,
  isField: (text: string) => RegExpExecArray | null,
): string {
  const own = lines[f.paragraph];
  const stop = next && next.paragraph === f.paragraph ? next.index : own.length;
  const parts = [isField(own[f.index].text)![2].trim(), ...own.slice(f.index + 1, stop).map((l) => l.text)];
  const value = parts.join('\n').trim();
  if (value !== '' || stop < own.length) return value;
  const following = lines[f.paragraph + 1];
  if (!following || following.length === 0 || isField(following[0].text)) return value;
  return following
    .map((l) => l.text)
    .join('\n')
    .trim();
}

/** The original text with its line offsets, to cut fields out as Markdown source. */
class SourceText {
  private readonly starts: number[] = [0];
  constructor(private readonly text: string) {
    const re = /\r\n|\r|\n/g;
    for (let m = re.exec(text); m; m = re.exec(text)) this.starts.push(m.index + m[0].length);
  }

  /** Number of lines. */
  get lineCount(): number {
    return this.starts.length;
  }

  /** The source of lines `from`..`to` (1-based, inclusive), each with its number, line ends dropped. */
  lines(from: number, to: number): Array<{ source: string; line: number }> {
    const out: Array<{ source: string; line: number }> = [];
    for (let l = from; l <= to && l >= 1 && l <= this.starts.length; l++) {
      const end = l < this.starts.length ? this.starts[l] : this.text.length;
      out.push({ source: this.text.slice(this.starts[l - 1], end).replace(/\r?\n$|\r$/, ''), line: l });
    }
    return out;
  }

  /** The 1-based line holding an offset. */
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Offset of the first character of a 1-based line. */
  lineStart(line: number): number {
    return this.starts[Math.min(Math.max(line - 1, 0), this.starts.length - 1)];
  }

  /**
   * The Markdown source of a field whose label stands on `line`: from after the label's colon
   * (and any emphasis closing it) to `end`; CR/CRLF → LF, `indent` leading spaces dropped from
   * continuation lines, trimmed.
   */
  fieldSource(line: number, end: number, indent: number): string {
    const start = this.lineStart(line);
    const lineEnd = line < this.starts.length ? this.starts[line] : this.text.length;
    const first = this.text.slice(start, lineEnd);
    const letter = first.search(/\p{L}/u);
    const colon = first.slice(letter).search(/[:\uff1a=\u2014\u2013]/) + letter;
    // `**Verdict:** X`: the emphasis opened before the label closes after the colon; skip exactly those closers.
    const emphasis = (t: string) => (t.match(/[*_]/g) ?? []).length;
    let closers = emphasis(first.slice(0, letter)) - emphasis(first.slice(letter, colon));
    let from = start + colon + 1;
    while (closers > 0 && from < end && /[*_]/.test(this.text.charAt(from))) {
      from += 1;
      closers -= 1;
    }
    while (from < end && /[ \t\u00a0\u3000]/.test(this.text.charAt(from))) from += 1;
    if (from >= end) return '';
    // One pass per rule, no array of lines: a Basis may be megabytes long.
    const lf = this.text.slice(from, end).replace(/\r\n?/g, '\n');
    return (indent > 0 ? lf.replace(new RegExp(`\\n {0,${indent}}`, 'g'), '\n') : lf).trim();
  }
}

/** Paragraphs of a block's content where fields may stand: top level and inside lists; never in code, quotes or HTML. */
function collectParagraphs(node: Nodes, out: Paragraph[]): void {
  if (node.type === 'paragraph') {
    out.push(node);
    return;
  }
  if (node.type === 'list' || node.type === 'listItem') {
    for (const child of node.children) collectParagraphs(child, out);
  }
}

/** Plain text of one content node for {@link VerdictBlock.text}. */
function blockText(node: Nodes): string {
  switch (node.type) {
    case 'paragraph':
    case 'heading':
      return plainLines(node)
        .map((l) => l.text)
        .join('\n')
        .trim();
    case 'list':
      return node.children.map(blockText).filter(Boolean).join('\n');
    case 'listItem':
      return node.children.map(blockText).filter(Boolean).join('\n');
    case 'table':
      return node.children
        .map((row) =>
          row.children
            .map((cell) =>
              plainLines(cell)
                .map((l) => l.text)
                .join(' '),
            )
            .join(' | '),
        )
        .join('\n');
    default:
      return '';
  }
}

/** plainLines of a node, computed once: a paragraph is read for its block, its text, the statements and summary titles. */
const plainCache = new WeakMap<object, readonly PlainLine[]>();

/** Split an inline container into trimmed plain-text lines, each with its source line (the same array for the same node: do not change it). */
function plainLines(node: { children: PhrasingContent[]; position?: { start: { line: number } } }): readonly PlainLine[] {
  let known = plainCache.get(node);
  if (known === undefined) plainCache.set(node, (known = computePlainLines(node)));
  return known;
}

function computePlainLines(node: { children: PhrasingContent[]; position?: { start: { line: number } } }): PlainLine[] {
  const lines: PlainLine[] = [{ text: '', line: node.position?.start.line ?? 0 }];
  const append = (text: string, line: number) => {
    const last = lines[lines.length - 1];
    if (last.text === '') last.line = line;
    last.text += text;
  };
  const walk = (children: PhrasingContent[]) => {
    for (const child of children) {
      const start = child.position?.start.line ?? lines[lines.length - 1].line;
      switch (child.type) {
        case 'text': {
          const parts = child.value.split(/\r?\n|\r/);
          parts.forEach((part, i) => {
            if (i > 0) lines.push({ text: '', line: start + i });
            append(part, start + i);
          });
          break;
        }
        case 'inlineCode':
          append(child.value, start);
          break;
        case 'break':
          lines.push({ text: '', line: child.position?.end.line ?? start + 1 });
          break;
        case 'image':
          append(child.alt ?? '', start);
          break;
        case 'html':
        case 'imageReference':
        case 'footnoteReference':
          break;
        default:
          if ('children' in child) walk(child.children as PhrasingContent[]);
      }
    }
  };
  walk(node.children);
  return lines.map((l) => ({ text: l.text.replace(/[ \t]+/g, ' ').trim(), line: l.line })).filter((l) => l.text !== '');
}

function headingId(heading: Heading | Paragraph, matcher: RegExp | undefined): { id: string; rest: string } | undefined {
  const text = plainLines(heading)
    .map((l) => l.text)
    .join(' ')
    .replace(LEADING_WRAP, '');
  return idOfText(text, matcher) ?? (ID_DECORATION.test(text) ? idOfText(text.replace(ID_DECORATION, '').replace(LEADING_WRAP, ''), matcher) : undefined);
}

function idOfText(text: string, matcher: RegExp | undefined): { id: string; rest: string } | undefined {
  if (ORDINAL.test(text)) text = text.replace(ORDINAL, '').replace(LEADING_WRAP, '');
  const raw = text.split(/\s+/)[0];
  const token = raw.replace(TRAILING_PUNCT, '');
  const restAfter = (length: number) => text.slice(length).replace(HEADING_SEPARATOR, '').trim();
  if (!matcher) return token === '' ? undefined : { id: token, rest: restAfter(token.length) };
  // The leading token as a whole (works for anchored patterns like /^F-\d+$/) …
  const whole = new RegExp(matcher.source, matcher.flags.replace('y', ''));
  const full = whole.exec(token);
  if (full && full.index === 0 && full[0] === token && token !== '') return { id: token, rest: restAfter(token.length) };
  // … else a match at the start of the text ending at a token boundary (patterns with spaces).
  matcher.lastIndex = 0;
  const match = matcher.exec(text);
  if (!match || match[0] === '') return undefined;
  const next = text.charAt(match[0].length);
  if (next !== '' && ID_CHAR.test(next)) return undefined;
  return { id: match[0].trim(), rest: restAfter(match[0].length) };
}

/** The caller's pattern, anchored at the start of the heading text (sticky), without `g`. */
function stickyPattern(pattern: RegExp): RegExp {
  const flags = pattern.flags.replace(/[gy]/g, '') + 'y';
  return new RegExp(pattern.source, flags);
}
