import { Parser, type Node as CmNode } from 'commonmark';
import type { BlockContent, ListItem, PhrasingContent, Root, RootContent } from 'mdast';
import type { Point, Position } from 'unist';

/**
 * Parse CommonMark into an mdast `Root` with commonmark.js (the CommonMark
 * reference implementation, 0.31), the tree the readers of parse.ts and
 * near-miss.ts walk. It replaced mdast-util-from-markdown (micromark), which
 * took 50–120 ms for two small plan-verify answers (7.7 KB) that commonmark.js
 * parses in 4–17 ms on the same machine (issue #24 item 6: run-audit re-reads
 * them). docs/convergence.md "Response blocks" names the engine.
 *
 * The tree has what the readers read, with mdast's meaning: block nodes
 * (`heading` with `depth`, `paragraph`, `list`, `listItem`, `blockquote`,
 * `code` with `value`, `html`, `thematicBreak`) carry `position` start and end
 * (1-based line and column, 0-based `offset`; the end is exclusive), inline
 * nodes (`text` — a soft line break is a `\n` in it, as in mdast —
 * `inlineCode`, `emphasis`, `strong`, `link`, `image` with `alt`, `html`,
 * `break`) carry their start line (and a `break` its end line). A leading BOM
 * is not content (offsets still count it, so they index the given text). Link
 * reference definitions leave no node (mdast keeps a `definition` no reader reads).
 */
export function parseCommonMark(text: string): Root {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const starts = lineStarts(text);
  const codeLines = new WeakMap<CmNode, number>();
  const parser = new Parser();
  countCodeSpanLines(parser, codeLines);
  const doc = parser.parse(bom ? text.slice(1) : text);
  const point = (line: number, column: number): Point => {
    const lineStart = starts[Math.min(line, starts.length) - 1] ?? 0;
    return { line, column, offset: lineStart + column - 1 + (line === 1 ? bom : 0) };
  };
  const span = (node: CmNode): Position => {
    const [[sl, sc], [el, ec]] = node.sourcepos;
    return { start: point(sl, sc), end: point(el, ec + 1) };
  };
  const blocks = (parent: CmNode): RootContent[] => {
    const out: RootContent[] = [];
    for (let c = parent.firstChild; c; c = c.next) {
      const b = block(c);
      if (b) out.push(b);
    }
    return out;
  };
  const block = (node: CmNode): RootContent | null => {
    const position = span(node);
    switch (node.type) {
      case 'paragraph':
        return { type: 'paragraph', children: inlines(node, position.start.line), position };
      case 'heading':
        return { type: 'heading', depth: node.level as 1 | 2 | 3 | 4 | 5 | 6, children: inlines(node, position.start.line), position };
      case 'block_quote':
        return { type: 'blockquote', children: blocks(node) as BlockContent[], position };
      case 'list': {
        const items = blocks(node) as ListItem[];
        const tight = node.listTight;
        return { type: 'list', ordered: node.listType === 'ordered', start: node.listStart ?? null, spread: !tight, children: items, position };
      }
      case 'item':
        return { type: 'listItem', spread: false, checked: null, children: blocks(node) as BlockContent[], position };
      case 'code_block':
        return { type: 'code', lang: node.info || null, meta: null, value: (node.literal ?? '').replace(/\n$/, ''), position };
      case 'html_block':
        return { type: 'html', value: (node.literal ?? '').replace(/\n$/, ''), position };
      case 'thematic_break':
        return { type: 'thematicBreak', position };
      default:
        return null;
    }
  };
  /** Inline children; `line` is the source line the container's text starts on, advanced past every line ending read. */
  const inlines = (parent: CmNode, firstLine: number): PhrasingContent[] => {
    let line = firstLine;
    const at = (): Position => ({ start: { line, column: 1 }, end: { line, column: 1 } });
    const walk = (node: CmNode): PhrasingContent[] => {
      const out: PhrasingContent[] = [];
      for (let c = node.firstChild; c; c = c.next) {
        switch (c.type) {
          case 'text':
            pushText(out, c.literal ?? '', at());
            break;
          case 'softbreak':
            pushText(out, '\n', at());
            line += 1;
            break;
          case 'linebreak': {
            const position = at();
            line += 1;
            position.end = { line, column: 1 };
            out.push({ type: 'break', position });
            break;
          }
          case 'code':
            out.push({ type: 'inlineCode', value: c.literal ?? '', position: at() });
            line += codeLines.get(c) ?? 0;
            break;
          case 'html_inline':
            out.push({ type: 'html', value: c.literal ?? '', position: at() });
            line += lineEndings(c.literal ?? '');
            break;
          case 'emph':
          case 'strong': {
            const position = at();
            out.push({ type: c.type === 'emph' ? 'emphasis' : 'strong', children: walk(c), position });
            break;
          }
          case 'link': {
            const position = at();
            out.push({ type: 'link', title: c.title || null, url: c.destination ?? '', children: walk(c), position });
            line += lineEndings(c.title ?? '');
            break;
          }
          case 'image': {
            const position = at();
            const children = walk(c);
            out.push({ type: 'image', title: c.title || null, url: c.destination ?? '', alt: plainText(children), position });
            line += lineEndings(c.title ?? '');
            break;
          }
        }
      }
      return out;
    };
    return walk(parent);
  };
  const children = withDefinitions(blocks(doc), text, starts, point);
  return { type: 'root', children, position: { start: point(1, 1), end: point(starts.length, text.length - starts[starts.length - 1] + 1) } };
}

/**
 * commonmark.js drops link reference definitions (`[ref]: https://…`) without a
 * trace, while mdast keeps a `definition` node — and where a block ends decides
 * how much of the answer its last field's source holds. The only top-level lines
 * no node covers are definitions and blank lines, so each run of non-blank
 * uncovered lines between (or after) top-level nodes becomes one `definition`.
 */
function withDefinitions(nodes: RootContent[], text: string, starts: number[], point: (line: number, column: number) => Point): RootContent[] {
  const out: RootContent[] = [];
  const blank = (line: number) =>
    /^\uFEFF?[ \t]*$/.test(text.slice(starts[line - 1], line < starts.length ? starts[line] : text.length).replace(/\r?\n$|\r$/, ''));
  const fill = (from: number, to: number) => {
    for (let line = from; line <= to; line++) {
      if (blank(line)) continue;
      let last = line;
      while (last + 1 <= to && !blank(last + 1)) last++;
      const end = (last < starts.length ? starts[last] : text.length) - starts[last - 1];
      const width = text.slice(starts[last - 1], starts[last - 1] + end).replace(/\r?\n$|\r$/, '').length;
      out.push({ type: 'definition', identifier: '', label: null, url: '', title: null, position: { start: point(line, 1), end: point(last, width + 1) } });
      line = last;
    }
  };
  let next = 1;
  for (const node of nodes) {
    fill(next, node.position!.start.line - 1);
    out.push(node);
    next = node.position!.end.line + 1;
  }
  fill(next, starts.length);
  return out;
}

/** Append text to the previous text node when there is one (mdast joins a text run and its soft breaks into one node). */
function pushText(out: PhrasingContent[], value: string, position: Position): void {
  const last = out[out.length - 1];
  if (last?.type === 'text') last.value += value;
  else out.push({ type: 'text', value, position });
}

/** What an image's alt text is in mdast: its children's text, markup dropped. */
function plainText(nodes: PhrasingContent[]): string {
  return nodes.map((n) => ('value' in n ? n.value : 'children' in n ? plainText(n.children as PhrasingContent[]) : '')).join('');
}

function lineEndings(s: string): number {
  return s.match(/\r\n|\r|\n/g)?.length ?? 0;
}

/** 0-based offset of each line's first character, for line 1, 2, …; lines end at CRLF, LF or CR. */
function lineStarts(text: string): number[] {
  const starts = [0];
  const re = /\r\n|\r|\n/g;
  for (let m = re.exec(text); m; m = re.exec(text)) starts.push(m.index + m[0].length);
  return starts;
}

/**
 * A code span's literal has its line endings turned into spaces, so the lines it
 * spans cannot be counted from the tree: the inline parser's `parseBackticks`
 * (commonmark.js 0.31, pinned) is wrapped to record them for the node it adds.
 * A later version without that method fails the differential spec, not silently.
 */
function countCodeSpanLines(parser: Parser, into: WeakMap<CmNode, number>): void {
  type Inline = { subject: string; pos: number; parseBackticks(block: CmNode): boolean };
  const inline = (parser as unknown as { inlineParser: Inline }).inlineParser;
  const parseBackticks = inline.parseBackticks;
  inline.parseBackticks = function (this: Inline, block: CmNode): boolean {
    const from = this.pos;
    const matched = parseBackticks.call(this, block);
    const node = block.lastChild;
    if (matched && node?.type === 'code') into.set(node, lineEndings(this.subject.slice(from, this.pos)));
    return matched;
  };
}
