/**
 * The `## 1. Clarification Items` section of a final report (seed 000
 * okstra-user-response: rows `{id, kind, blocks, status, statement}`; seed
 * 002: a blocking plan verification "becomes a row in `## 1. Clarification
 * Items`"; docs/run-audit.md invariants 9 and 16).
 */

/** One clarification row. `text` is the whole row (every cell), for matching item ids in it. */
export interface ClarificationItem {
  id: string;
  /** Lower-cased `Blocks` value (`approval`, `next-phase`, `none`, …); '' when absent. */
  blocks: string;
  /** Lower-cased `Status` value; '' when absent. */
  status: string;
  text: string;
}

/** `## 1. Clarification Items`; also emphasised (`## **1. Clarification Items**`), `1)`, or with a translation before the name. */
const SECTION = /^\s{0,3}(#{1,6})\s+[*_]*(?:§\s*)?1[.)]?\s+(?:[^\n]*?[\s(])?[*_]*Clarification Items\b/i;
const HEADING = /^\s{0,3}(#{1,6})\s+/;
const ID = /^`?(C-[0-9]+)`?$/;
const CLOSED =
  /^(?:resolved|answered|closed|done|withdrawn|n\/a|not-applicable)\b|^(?:해결됨|해결 ?완료|답변됨|답변 ?완료|완료|종료|철회|解決済み?|回答済み?|完了|取り下げ|已解决|已解決|已回答|已关闭|已完成|已撤回)/;

/**
 * The rows of the report's `## 1. Clarification Items` section (any heading
 * level; it runs to the next heading of the same or a higher level). Rows are
 * table rows whose `ID` cell (the column headed `id`, else the first) is a
 * `C-<n>` id, with `Blocks` and `Status` read by their header names; or
 * `### C-<n> …` sub-headings with `- Blocks: …` / `- Status: …` lines.
 * Text inside fenced code blocks is ignored. No section → [].
 */
export function clarificationItems(markdown: string): ClarificationItem[] {
  const items: ClarificationItem[] = [];
  let level = 0;
  let header: string[] | null = null;
  let block: ClarificationItem | null = null;
  let fence = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const h = HEADING.exec(line);
    if (h) {
      if (level > 0 && h[1]!.length <= level) level = 0;
      if (level === 0) {
        const s = SECTION.exec(line);
        if (s) level = s[1]!.length;
        header = null;
        block = null;
        continue;
      }
      const id = /^\s{0,3}#{1,6}\s+`?(C-[0-9]+)`?\b/.exec(line);
      block = id ? { id: id[1]!, blocks: '', status: '', text: line } : null;
      if (block) items.push(block);
      continue;
    }
    if (level === 0) continue;
    const t = line.trim();
    if (t.startsWith('|')) {
      const cells = t
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split('|')
        .map((c) => c.trim());
      if (cells.every((c) => /^:?-{3,}:?$/.test(c))) continue;
      if (!header && !cells.some((c) => ID.test(c))) {
        header = cells.map((c) => c.toLowerCase().replace(/[`*]/g, ''));
        continue;
      }
      const col = (name: string) => (header ? header.indexOf(name) : -1);
      const id = ID.exec(cells[col('id') >= 0 ? col('id') : 0] ?? '');
      if (!id) continue;
      const cell = (name: string) => (col(name) >= 0 ? cellValue(cells[col(name)] ?? '') : '');
      items.push({ id: id[1]!, blocks: cell('blocks'), status: cell('status'), text: t });
      continue;
    }
    if (block) {
      const kv = /^\s*[-*]\s+\**(Blocks|Status)\**\s*:\s*(.*)$/i.exec(line);
      if (kv) block[kv[1]!.toLowerCase() as 'blocks' | 'status'] = cellValue(kv[2]!);
      block.text += `\n${line}`;
    }
  }
  return items;
}

/**
 * A `Blocks` or `Status` value as its words: lower-cased, struck-through text (`~~open~~ resolved`: the old value)
 * dropped, a link reduced to its text, code and emphasis marks and leading symbols (`✅ resolved`) removed.
 */
function cellValue(raw: string): string {
  return raw
    .replace(/~~[^~]*~~/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '')
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .trim()
    .toLowerCase();
}

/** True while a row is open: its status is not resolved/answered/closed/done/withdrawn/n/a, nor the same in Korean, Japanese or Chinese (blank = open). */
export function isOpen(item: ClarificationItem): boolean {
  return !CLOSED.test(item.status);
}

/** True for a row whose `Blocks` names the approval gate (`approval`, `approval gate`). */
export function blocksApproval(item: ClarificationItem): boolean {
  return /\bapproval\b/.test(item.blocks);
}
