import { parseMarkdownLinear } from './linear.js';
import type { Nodes } from 'mdast';
import { DEFAULT_DEPTHS, parseVerdictBlocks, type ParseOptions } from './parse.js';

/** A heading with a block id that {@link parseVerdictBlocks} does not read as a block, and why. */
export interface NearMiss {
  /** The id as written in the heading. */
  id: string;
  /** The heading's marker and id, as it would read: `## P-Step-3-2`. */
  heading: string;
  /** 1-based line of the heading in the original text. */
  line: number;
  /** Why it is not a block: `a level-2 heading (##) — a block heading is ### or ####`, `inside a code fence`, … */
  why: string;
}

const ALL_DEPTHS = [1, 2, 3, 4, 5, 6];

/**
 * Every place a block heading was *almost* written, for the message of an
 * unanswered item: the same heading rules as {@link parseVerdictBlocks} (same
 * `idPattern`), applied where that parser does not look — a heading of another
 * depth (`## P-Step-3-2`), or a heading inside a code fence, indented code, a block
 * quote or a list item. Only for messages: what is a block stays decided by
 * {@link parseVerdictBlocks}. In document order; never throws.
 */
export function findNearMisses(markdown: string, options: ParseOptions = {}): NearMiss[] {
  const depths = options.depths ?? DEFAULT_DEPTHS;
  const wanted = depths.map((d) => '#'.repeat(d)).join(' or ');
  const out: NearMiss[] = [];
  const other = ALL_DEPTHS.filter((d) => !depths.includes(d));
  for (const b of parseVerdictBlocks(markdown, { ...options, depths: other })) {
    out.push({
      id: b.id,
      heading: `${'#'.repeat(b.depth)} ${b.id}`,
      line: b.headingLine,
      why: `a level-${b.depth} heading (${'#'.repeat(b.depth)}) — a block heading is ${wanted}`,
    });
  }
  const lines = markdown.split(/\r\n|\r|\n/);
  const inside = (text: string, firstLine: number, why: string) => {
    for (const b of parseVerdictBlocks(text, { ...options, depths: ALL_DEPTHS }))
      out.push({ id: b.id, heading: `${'#'.repeat(b.depth)} ${b.id}`, line: b.headingLine + firstLine - 1, why });
  };
  const walk = (node: Nodes) => {
    const start = node.position?.start.line ?? 0;
    const end = node.position?.end.line ?? start;
    if (node.type === 'code') {
      const fenced = /^\s*(`{3,}|~{3,})/.test(lines[start - 1] ?? '');
      inside(node.value, fenced ? start + 1 : start, fenced ? 'inside a code fence — code is not read' : 'inside an indented code block — code is not read');
      return;
    }
    if (node.type === 'blockquote') {
      inside(
        lines
          .slice(start - 1, end)
          .map((l) => l.replace(/^\s{0,3}>\s?/, ''))
          .join('\n'),
        start,
        'inside a block quote — quotes are not read',
      );
    }
    if (node.type === 'listItem' && node.children.length > 0) {
      const indent = (node.children[0].position?.start.column ?? 1) - 1;
      const text = lines
        .slice(start - 1, end)
        .map((l, i) => (i === 0 ? l.slice(Math.min(indent, l.length)) : l.replace(new RegExp(`^ {0,${indent}}`), '')))
        .join('\n');
      inside(text, start, 'inside a list item — a block heading stands on its own line');
    }
    if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
  };
  walk(parseMarkdownLinear(markdown));
  return out.sort((a, b) => a.line - b.line);
}
