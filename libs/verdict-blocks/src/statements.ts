import type { ParsedAnswer } from './parse.js';
import { appendAll } from '@okstra/core';

/**
 * Verdict statements outside the blocks (docs/convergence.md "Response blocks"):
 * a table row naming an id with a verdict cell, a summary line naming one id and
 * what follows it (`- **F-003**: REFUTED`, `F-002 → SURVIVES`), and a `Verdict:`
 * line naming no id (an overall verdict). `<think>` sections, code, quotes and
 * a block's own lines (its Basis) are not statements; the readers decide whether
 * the text is a verdict of their grammar and compare it with the blocks.
 */

/** One row of a table that names an id (`| F-003 | REFUTED | … |`). Cells are Markdown source, trimmed. */
export interface TableRow {
  id: string;
  verdict: string;
  basis: string | null;
  kind: string | null;
  fixability: string | null;
  line: number;
}

/** A line outside the blocks that names one id (or, for `Verdict:` lines, none) and then says something. */
export interface SummaryStatement {
  id: string | null;
  /** What follows the id and its separator (or the `Verdict:` label). */
  text: string;
  line: number;
  /**
   * A correction or a restated verdict inside a block (`**Update:** … so F-001 actually SURVIVES`,
   * `**Revised verdict**: SURVIVES`): its verdict word may stand anywhere in `text`, and the reader
   * compares every verdict word it names with the block.
   */
  correction?: boolean;
  /**
   * When `text` starts with a title before a separator (`F-001 (queue race): SURVIVES`,
   * `**F-001 — Queue race**: SURVIVES`): what follows the separator, for the reader to try
   * when `text` itself states no verdict.
   */
  afterTitle?: string;
}

const VERDICT_HEADER = /verdict|result|status|vote|\u7ed3\u8bba/i;
const ID_HEADER = /\b(?:id|finding|item|gap|issue)\b|^#$/i;
const BASIS_HEADER = /basis|reason|rationale|explanation|evidence|why|notes?|details?|comments?|\u7406\u7531|\u4f9d\u636e/i;
const SEPARATOR_ROW = /^\s*\|?\s*:?-{2,}/;
/** Wrapping an id or a word may carry in a cell or a line. */
const WRAP = /^[\s*_`"'\u201c\u2018[(]+|[\s*_`"'\u201d\u2019\])]+$/g;
/** What may stand between an id and its verdict on a summary line. */
const AFTER_ID = /^[\s*_`"'\u201d\u2019)\]]*(?:[:\uff1a=|\u2014\u2013-]+|->|\u2192|=>|\bis\b)?[\s*_`"'\u201c\u2018([]*/i;
const OVERALL = /^(?:overall\s+|final\s+)?verdict\s*[:\uff1a]\s*(.+)$/i;

/** Every table row of `answer` (in blocks too) whose id cell is an id of `idPattern` and that has a verdict column. */
export function tableRows(answer: ParsedAnswer, idPattern: RegExp): TableRow[] {
  const whole = new RegExp(`^(?:${idPattern.source})$`, idPattern.flags.replace(/[gy]/g, ''));
  const leading = new RegExp(`^(?:${idPattern.source})(?![A-Za-z0-9_-])`, idPattern.flags.replace(/[gy]/g, ''));
  const out: TableRow[] = [];
  for (const table of answer.tables) {
    if (table.length < 3 || !SEPARATOR_ROW.test(table[1].source)) continue;
    const header = cells(table[0].source).map(plain);
    const verdictCol = header.findIndex((h) => VERDICT_HEADER.test(h));
    if (verdictCol < 0) continue;
    const found = header.findIndex((h) => ID_HEADER.test(h));
    const idCol = found >= 0 && found !== verdictCol ? found : 0;
    const col = (re: RegExp) => header.findIndex((h, i) => i !== verdictCol && i !== idCol && re.test(h));
    const basisCol = col(BASIS_HEADER);
    const kindCol = col(/kind/i);
    const fixCol = col(/fix/i);
    for (const row of table.slice(2)) {
      const cs = cells(row.source);
      // The id the cell starts with: `F-003`, `**F-003**`, `[F-003](#f-003)`, `F-003 (queue race)`, `P-Opt-1 — deadline`.
      const cell = plain((cs[idCol] ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
      const id = leading.exec(cell)?.[0] ?? '';
      if (!whole.test(id)) continue;
      const at = (i: number) => (i >= 0 && cs[i] !== undefined && cs[i].trim() !== '' ? cs[i].trim() : null);
      out.push({ id, verdict: (cs[verdictCol] ?? '').trim(), basis: at(basisCol), kind: at(kindCol), fixability: at(fixCol), line: row.line });
    }
  }
  return out;
}

/** A line inside a block that corrects a verdict: `**Correction:** …`, `Update: …`, `更正：…`. */
export const CORRECTION_WORD =
  /(?:correction|corrected|update|updated|edit|erratum|revised|revision|amendment|\u66f4\u6b63|\u4fee\u6b63|\u8ba2\u6b63)(?![A-Za-z])/i;
const CORRECTION = new RegExp(`^[\\s*_]*${CORRECTION_WORD.source}`, 'i');
/** Words restating the verdict inside a block (`**Final verdict**: …`, `Revised verdict: …`, `Verdict (after re-check): …`) and words opening a summary (`**Summary**: …`, `TL;DR: …`). */
const RESTATED_WORD = /(?:(?:final|revised|updated|corrected|amended|new|overall)\s+verdict|verdict\s*[([][^)\]]{1,40}[)\]]|\u6700\u7ec8\u7ed3\u8bba)/;
const SUMMARY_WORD = /(?:summary|overall|conclusions?|tl;?dr|in short|recap|final answers?|\u603b\u7ed3|\u7ed3\u8bba)/;
/** A restated verdict label at the start of a line (removed from the statement's text). */
const RESTATED = new RegExp(`^[\\s*_]*${RESTATED_WORD.source}[\\s*_]*[:\\uff1a]\\s*`, 'i');
/** A summary label at the start of a line inside a block: a summary run on into the last Basis. */
const SUMMARY_LABEL = new RegExp(`^[\\s*_]*${SUMMARY_WORD.source}[\\s*_]*[:\\uff1a]`, 'i');
/** Either label, for parse.ts: a chunk holding such a line is never skipped. */
export const STATEMENT_LABEL_WORD = new RegExp(`(?:${RESTATED_WORD.source}|${SUMMARY_WORD.source})[\\s*_]*[:\\uff1a]`, 'i');
/** A short title and a separator after an id on a summary line: `(queue race): `, `— Queue race: `, `queue race → `. */
const TITLE_THEN_SEPARATOR = /^[^:\uff1a\u2192|]{1,80}?(?:[:\uff1a|]|\u2192|->|=>)\s*/;
/** The label of a correction line, removed when the line names no id and so speaks of its block. */
const CORRECTION_LABEL = /^[\s*_]*[^:\uff1a]{0,40}[:\uff1a][\s*_]*/;

/**
 * Every summary statement of `answer`: lines outside the blocks naming ids of
 * `idPattern` (one statement per id: what follows it up to the next id), an id-less
 * `Verdict:` line outside the blocks, and lines inside blocks that start with a correction
 * or restated verdict (`**Correction:** F-002: REFUTED`, `**Revised verdict**: SURVIVES` —
 * about the ids named, or the line's own block; `correction` set), a summary label
 * (`**TL;DR**: P-Opt-1 AGREE, …`) or the id itself. docs/convergence.md "Response blocks".
 */
export function summaryStatements(answer: ParsedAnswer, idPattern: RegExp): SummaryStatement[] {
  const any = new RegExp(idPattern.source, idPattern.flags.replace(/[gy]/g, '') + 'g');
  const starts = new RegExp(`^[\\s*+\\-\\d.)[(\`_]*(?:${idPattern.source})`, idPattern.flags.replace(/[gy]/g, ''));
  const idsIn = (text: string) =>
    [...text.matchAll(any)].filter((m) => !/[A-Za-z0-9_-]/.test(text.charAt(m.index + m[0].length)) && !/[A-Za-z0-9_-]/.test(text.charAt(m.index - 1)));
  /** One statement per id the line names: what follows each id up to the next (`F-001: SURVIVES, F-002: REFUTED.`). */
  const segments = (text: string, line: number, correction: boolean): SummaryStatement[] => {
    const ids = idsIn(text);
    return ids.flatMap((m, i) => {
      const end = i + 1 < ids.length ? ids[i + 1].index : text.length;
      let rest = text.slice(m.index + m[0].length, end).replace(AFTER_ID, '');
      if (i + 1 < ids.length) rest = rest.replace(/[\s,;.\u3001\uff0c\uff1b]+$/, '');
      const titled = TITLE_THEN_SEPARATOR.exec(rest);
      const afterTitle = titled ? rest.slice(titled[0].length) : undefined;
      return rest === '' ? [] : [{ id: m[0], text: rest, line, ...(correction ? { correction } : {}), ...(afterTitle ? { afterTitle } : {}) }];
    });
  };
  const out: SummaryStatement[] = [];
  for (const { text, line } of answer.outside) {
    if (/^\s*\|/.test(text)) continue; // a table row: read by tableRows
    const overall = OVERALL.exec(text);
    if (overall) out.push({ id: null, text: overall[1].trim(), line });
    else appendAll(out, segments(text, line, false));
  }
  for (const { text, line, block } of answer.inside) {
    if (/^\s*\|/.test(text)) continue;
    const restated = RESTATED.exec(text);
    if (restated || CORRECTION.test(text)) {
      // A correction speaks of the ids it names, or, naming none, of its own block (a digitless
      // id-like word — `re-check`, `follow-up` — names no finding).
      const named = segments(text, line, true).filter((st) => /\d/.test(st.id ?? ''));
      if (named.length > 0) appendAll(out, named);
      else if (block !== undefined) {
        const rest = restated ? text.slice(restated[0].length) : text.replace(CORRECTION_LABEL, '');
        if (rest.trim() !== '') out.push({ id: block, text: rest.trim(), line, correction: true });
      }
      continue;
    }
    if (SUMMARY_LABEL.test(text)) {
      // A summary run on into the last block's Basis is still a summary: it speaks of the ids it names.
      const named = segments(text, line, false);
      if (named.length > 0) appendAll(out, named);
      else out.push({ id: null, text: text.replace(SUMMARY_LABEL, '').trim(), line });
      continue;
    }
    if (!starts.test(text)) continue;
    const ids = idsIn(text);
    if (ids.length === 0 || new Set(ids.map((m) => m[0].toLowerCase())).size !== 1) continue;
    const rest = text.slice(ids[0].index + ids[0][0].length).replace(AFTER_ID, '');
    if (rest !== '') out.push({ id: ids[0][0], text: rest, line });
  }
  return out;
}

/** The cells of a table row, split at `|` outside code spans and not escaped. */
function cells(row: string): string[] {
  const out: string[] = [];
  let cell = '';
  let code = false;
  const t = row.trim().replace(/^\|/, '');
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '\\' && t[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '`') {
      code = !code;
      cell += c;
    } else if (c === '|' && !code) {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  if (cell.trim() !== '') out.push(cell);
  return out;
}

function plain(cell: string): string {
  return cell.replace(WRAP, '').trim();
}
