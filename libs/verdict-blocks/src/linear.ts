import { parseCommonMark } from './commonmark.js';
import type { Nodes, Root, RootContent } from 'mdast';
import { InputError } from '@okstra/core';

/**
 * Largest worker answer either reader reads: 8 MiB (8,388,608 bytes, UTF-8).
 * Both collect-results and collect-verdicts refuse a larger one, exit 2 naming it
 * (docs/convergence.md "Response blocks", docs/plan-items.md "Verdict grammar").
 */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * Refuse an answer over {@link MAX_RESPONSE_BYTES} before it is read.
 * @throws InputError (exit 2) naming `file` and the size.
 */
export function assertResponseSize(text: string, file?: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_RESPONSE_BYTES)
    throw new InputError(`the response is ${bytes} bytes, over the ${MAX_RESPONSE_BYTES}-byte limit of a worker answer`, { file });
}

/** An answer up to this many characters is parsed whole, as one document. */
const WHOLE_CHARS = 16 * 1024;
/**
 * A longer one is cut at the first safe line after this many characters: the
 * parser's cost per character grows with the containers of its document, so small
 * chunks are faster (a 256 KiB answer dense with quotes and lists: 10.3 s with
 * 16 KiB chunks, 4.4 s with 2 KiB), and a chunk with no relevant line is skipped.
 */
const CHUNK_CHARS = 2 * 1024;

/**
 * Parse Markdown (commonmark.js through {@link parseCommonMark}) in time linear in its length.
 * micromark, the engine before it, was quadratic in the number of sibling containers of one document
 * (many block quotes, or list items holding quotes: 128 KiB took 30 s), so the
 * text (over {@link WHOLE_CHARS}) is cut into chunks of about {@link CHUNK_CHARS} at lines where every open
 * container has ended — a column-0 line after a blank line, or a column-0 bullet
 * item — never inside a fenced code block or an HTML block, and each chunk is
 * parsed alone; positions (line, column, offset) are those of the whole text.
 * What changes: a list split at a chunk line becomes two lists (tight/loose may
 * differ), a link reference defined in another chunk is not resolved — neither
 * changes a block, a field or a verdict. With `relevant`, a chunk none of whose
 * lines is relevant (can hold a heading, a field, a table row or a statement) is
 * not parsed: it stands as one empty `html` node spanning it, which no reader reads.
 */
export function parseMarkdownLinear(text: string, relevant?: (line: string) => boolean): Root {
  const cuts = chunkStarts(text, relevant);
  if (cuts.length === 1 && cuts[0].relevant) return parseCommonMark(text);
  const children: RootContent[] = [];
  cuts.forEach((cut, i) => {
    const end = i + 1 < cuts.length ? cuts[i + 1].offset : text.length;
    if (!cut.relevant) {
      // Nothing here can be read (no heading, field, table or id line): one opaque node keeps the block's extent.
      const last = text.lastIndexOf('\n', end - 2) + 1;
      const lines = countLines(text, cut.offset, end);
      children.push({
        type: 'html',
        value: '',
        position: { start: { line: cut.line, column: 1, offset: cut.offset }, end: { line: cut.line + lines, column: end - last + 1, offset: end } },
      });
      return;
    }
    for (const node of parseCommonMark(text.slice(cut.offset, end)).children) {
      shift(node, cut.line - 1, cut.offset);
      children.push(node);
    }
  });
  return { type: 'root', children };
}

function shift(node: Nodes, lines: number, offset: number): void {
  const p = node.position;
  if (p) {
    // In place: the parser gives every node its own point objects (no new pair per node of a big answer).
    p.start.line += lines;
    p.start.offset = (p.start.offset ?? 0) + offset;
    p.end.line += lines;
    p.end.offset = (p.end.offset ?? 0) + offset;
  }
  if ('children' in node) for (const child of node.children as Nodes[]) shift(child, lines, offset);
}

/** HTML blocks that may hold blank lines, and what ends them (CommonMark HTML block kinds 1–5). */
const HTML_SPANS: ReadonlyArray<[RegExp, RegExp]> = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to - 1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Where chunks start (the first at offset 0, line 1). The text is cut at every
 * safe line into segments; without `relevant`, segments are joined into chunks at
 * least CHUNK_CHARS long. With it, a run of segments none of whose lines is
 * relevant is one (skipped) chunk, and relevant segments are joined up to
 * CHUNK_CHARS — so a relevant line parses only its own neighbourhood. Lines of a
 * fenced code block opened at column 0 are never offered to `relevant`: such a
 * fence is a top-level code block (it cannot continue a list item or a quote),
 * and code is never read.
 */
function chunkStarts(text: string, relevant: ((line: string) => boolean) | undefined): Array<{ offset: number; line: number; relevant: boolean }> {
  if (text.length <= WHOLE_CHARS) return [{ offset: 0, line: 1, relevant: true }];
  const segments = [{ offset: 0, line: 1, relevant: relevant === undefined }];
  let fence: { char: string; length: number; top: boolean } | undefined;
  let span: RegExp | undefined;
  let html = false;
  let blankBefore = false;
  let lineNo = 1;
  for (let i = 0; i < text.length; lineNo++) {
    let end = text.indexOf('\n', i);
    if (end < 0) end = text.length;
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(i, end - 1) : text.slice(i, end);
    const blank = /^[ \t]*$/.test(line);
    let code = fence?.top === true;
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length) fence = undefined;
    } else if (span) {
      if (span.test(line)) span = undefined;
    } else {
      const safe = !html && /^\S/.test(line) && (blankBefore || /^[-*+][ \t]+\S/.test(line));
      if (safe) segments.push({ offset: i, line: lineNo, relevant: relevant === undefined });
      const open = /^ {0,3}[`~]/.test(line) ? /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line) : null;
      const kind = /^ {0,3}</.test(line) ? HTML_SPANS.find(([opens]) => opens.test(line)) : undefined;
      if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
        fence = { char: open[1][0], length: open[1].length, top: line[0] === open[1][0] };
        code = fence.top;
      } else if (kind && !kind[1].test(line.slice(4))) span = kind[1];
      else if (/^ {0,3}<[A-Za-z/]/.test(line)) html = true;
      if (blank) html = false;
    }
    const segment = segments[segments.length - 1];
    if (!segment.relevant && !code && relevant!(line)) segment.relevant = true;
    blankBefore = blank;
    i = end + 1;
  }
  // Join: a chunk grows while it is shorter than CHUNK_CHARS and the next segment is as relevant as it is.
  const cuts = [segments[0]];
  for (const seg of segments.slice(1)) {
    const last = cuts[cuts.length - 1];
    const join = relevant === undefined || seg.relevant === last.relevant ? seg.offset - last.offset < CHUNK_CHARS || !seg.relevant : false;
    if (join) last.relevant ||= seg.relevant;
    else cuts.push(seg);
  }
  return cuts;
}
