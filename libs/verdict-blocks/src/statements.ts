import type { ParsedAnswer } from './parse.js';

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
      const id = plain(cs[idCol] ?? '');
      if (!whole.test(id)) continue;
      const at = (i: number) => (i >= 0 && cs[i] !== undefined && cs[i].trim() !== '' ? cs[i].trim() : null);
      out.push({ id, verdict: (cs[verdictCol] ?? '').trim(), basis: at(basisCol), kind: at(kindCol), fixability: at(fixCol), line: row.line });
    }
  }
  return out;
}

/** A line inside a block that corrects a verdict: `**Correction:** …`, `Update: …`, `更正：…`. */
export const CORRECTION_WORD = /(?:correction|corrected|update|updated|edit|erratum|revised|revision|amendment|\u66f4\u6b63|\u4fee\u6b63|\u8ba2\u6b63)\b/i;
const CORRECTION = new RegExp(`^[\\s*_]*${CORRECTION_WORD.source}`, 'i');

/**
 * Every summary statement of `answer`: lines outside the blocks naming exactly one
 * id of `idPattern` (or an id-less `Verdict:` line), and lines inside blocks that
 * start with a correction (`**Correction:** F-002: REFUTED`) or with the id itself.
 */
export function summaryStatements(answer: ParsedAnswer, idPattern: RegExp): SummaryStatement[] {
  const any = new RegExp(idPattern.source, idPattern.flags.replace(/[gy]/g, '') + 'g');
  const starts = new RegExp(`^[\\s*+\\-\\d.)[(\`_]*(?:${idPattern.source})`, idPattern.flags.replace(/[gy]/g, ''));
  const inside = answer.inside.filter((l) => CORRECTION.test(l.text) || starts.test(l.text));
  const out: SummaryStatement[] = [];
  for (const { text, line } of [...answer.outside, ...inside]) {
    if (/^\s*\|/.test(text)) continue; // a table row: read by tableRows
    const overall = OVERALL.exec(text);
    if (overall) {
      out.push({ id: null, text: overall[1].trim(), line });
      continue;
    }
    const ids = [...text.matchAll(any)].filter(
      (m) => !/[A-Za-z0-9_-]/.test(text.charAt(m.index + m[0].length)) && !/[A-Za-z0-9_-]/.test(text.charAt(m.index - 1)),
    );
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
