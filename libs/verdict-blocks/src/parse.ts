import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Heading, Nodes, Paragraph, PhrasingContent, RootContent } from 'mdast';

/** One field of a block: its value and the 1-based line of its label in the original text. */
export interface VerdictField {
  value: string;
  line: number;
}

/** One `### <id>` block of a worker response. Lines are 1-based in the original text. */
export interface VerdictBlock {
  /** Heading text with backticks/emphasis stripped, trimmed; the leading token (see {@link parseVerdictBlocks}), e.g. `F-003` or `P-Step-2-3`. */
  id: string;
  headingLine: number;
  /** 3 or 4 (`###` or `####`) by default; other depths are not blocks. */
  depth: number;
  /**
   * Key = field label lowercased, trimmed, inner whitespace collapsed (`verdict`, `basis`,
   * `fixability`, `breakage kind`, …); value = text after the label's colon, Markdown
   * stripped, trimmed. First occurrence wins.
   */
  fields: Record<string, VerdictField>;
  /** Labels (normalized like the keys) that appeared more than once in this block, in order of their first repeat. */
  duplicateFields: string[];
  /** The block's plain text (paragraphs, lists, tables, sub-headings; no code, quotes or HTML), for free-form explanations. */
  text: string;
}

/** Options of {@link parseVerdictBlocks}. */
export interface ParseOptions {
  /**
   * A heading is a block only when its text starts with a match of this pattern that ends
   * at a token boundary; the match is the block id. Default: any heading, id = its first token.
   */
  idPattern?: RegExp;
  /** Heading depths that open blocks (default `[3, 4]`). */
  depths?: number[];
}

/** A line of plain text inside one paragraph, with its 1-based source line. */
interface PlainLine {
  text: string;
  line: number;
}

const DEFAULT_DEPTHS = [3, 4];
/** `Label: value` at the start of a plain-text line: a label of 1–5 words starting with a letter. */
const FIELD_LINE = /^([A-Za-z][A-Za-z0-9_()/-]*(?:[ \t]+[A-Za-z0-9_()/-]+){0,4})[ \t]*:(?:[ \t]+|$)(.*)$/;
/** Characters that may stand around an id in a heading: `[F-003]`, `(F-003)`, `F-003:`. */
const LEADING_WRAP = /^[\s[(<{"'“‘#*_]+/;
const TRAILING_PUNCT = /[\])>}"'”’:;,.!?*_]+$/;
/** A character that may not directly follow an id (so `F-0031` is not `F-003`). */
const ID_CHAR = /[A-Za-z0-9_-]/;

/**
 * Parse worker-response Markdown into its verdict blocks, with a real CommonMark
 * parser (mdast-util-from-markdown), never line regexes over the raw text.
 *
 * Rules (documented in docs/convergence.md "Response blocks"):
 * - A block opens at a top-level heading whose depth is in `depths`
 *   (default 3 and 4) and whose text (inline code, emphasis and links reduced to their
 *   text, wrapping `[`, `(`, quotes dropped) yields an id: with `idPattern`, the first whitespace-separated token (wrapping
 *   punctuation removed) when the pattern matches it whole, else a match at the start
 *   of the text ending at a token boundary (`### F-003 — race in queue` → `F-003`);
 *   without `idPattern`, that first token.
 * - A block extends to the next heading of depth ≤ its own, or to the next heading
 *   that opens a block (whatever its depth). Any other heading (deeper, or not matching)
 *   stays inside the block.
 * - Headings and fields inside fenced or indented code, block quotes and HTML are
 *   ignored, so a fake `### F-…` inside a code fence is not a block.
 * - A field is a paragraph line (also inside list items) whose plain text starts with
 *   `Label:` — `**Verdict**: X`, `**Verdict:** X`, `Verdict: X`, `- **Verdict**: X`,
 *   any case. Its value is the rest of the line plus the following lines of the same
 *   paragraph up to the next field line; an empty value takes the next paragraph.
 *   Lines are trimmed; multi-line values keep `\n` between lines.
 * - CRLF, trailing spaces and extra blank lines make no difference; lines are 1-based
 *   in the original text.
 *
 * Never throws on any string input: Markdown has no syntax errors.
 */
export function parseVerdictBlocks(markdown: string, options: ParseOptions = {}): VerdictBlock[] {
  const depths = options.depths ?? DEFAULT_DEPTHS;
  const matcher = options.idPattern ? stickyPattern(options.idPattern) : undefined;
  const root = fromMarkdown(markdown);
  const nodes = root.children;

  const openers: Array<{ index: number; id: string; depth: number; line: number }> = [];
  nodes.forEach((node, index) => {
    if (node.type !== 'heading' || !depths.includes(node.depth)) return;
    const id = headingId(node, matcher);
    if (id !== undefined) openers.push({ index, id, depth: node.depth, line: node.position?.start.line ?? 0 });
  });

  const openerAt = new Set(openers.map((o) => o.index));
  return openers.map((opener) => {
    let end = opener.index + 1;
    while (end < nodes.length) {
      const node = nodes[end];
      if (node.type === 'heading' && (node.depth <= opener.depth || openerAt.has(end))) break;
      end += 1;
    }
    return buildBlock(opener, nodes.slice(opener.index + 1, end));
  });
}

function buildBlock(opener: { id: string; depth: number; line: number }, content: RootContent[]): VerdictBlock {
  const fields: Record<string, VerdictField> = {};
  const duplicates: string[] = [];
  const paragraphs: Paragraph[] = [];
  const texts: string[] = [];
  for (const node of content) {
    collectParagraphs(node, paragraphs);
    const text = blockText(node);
    if (text !== '') texts.push(text);
  }

  let pendingEmpty: string | undefined;
  for (const paragraph of paragraphs) {
    const lines = plainLines(paragraph);
    let current: { key: string; line: number; parts: string[] } | undefined;
    const flush = () => {
      if (!current) return;
      const value = current.parts.join('\n').trim();
      if (current.key in fields) {
        if (!duplicates.includes(current.key)) duplicates.push(current.key);
      } else {
        fields[current.key] = { value, line: current.line };
        pendingEmpty = value === '' ? current.key : undefined;
      }
      current = undefined;
    };
    const firstIsField = lines.length > 0 && FIELD_LINE.test(lines[0].text);
    if (pendingEmpty !== undefined && !firstIsField && lines.length > 0) {
      // `**Basis**:` alone, explanation in the next paragraph.
      fields[pendingEmpty] = {
        value: lines
          .map((l) => l.text)
          .join('\n')
          .trim(),
        line: fields[pendingEmpty].line,
      };
      pendingEmpty = undefined;
      continue;
    }
    pendingEmpty = undefined;
    for (const line of lines) {
      const match = FIELD_LINE.exec(line.text);
      if (match) {
        flush();
        current = { key: normalizeLabel(match[1]), line: line.line, parts: [match[2].trim()] };
      } else if (current) {
        current.parts.push(line.text);
      }
    }
    flush();
  }

  return {
    id: opener.id,
    headingLine: opener.line,
    depth: opener.depth,
    fields,
    duplicateFields: duplicates,
    text: texts.join('\n\n'),
  };
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

/** Split an inline container into trimmed plain-text lines, each with its source line. */
function plainLines(node: { children: PhrasingContent[]; position?: { start: { line: number } } }): PlainLine[] {
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

function headingId(heading: Heading, matcher: RegExp | undefined): string | undefined {
  const text = plainLines(heading)
    .map((l) => l.text)
    .join(' ')
    .replace(LEADING_WRAP, '');
  const token = text.split(/\s+/)[0].replace(TRAILING_PUNCT, '');
  if (!matcher) return token === '' ? undefined : token;
  // The leading token as a whole (works for anchored patterns like /^F-\d+$/) …
  const whole = new RegExp(matcher.source, matcher.flags.replace('y', ''));
  const full = whole.exec(token);
  if (full && full.index === 0 && full[0] === token && token !== '') return token;
  // … else a match at the start of the text ending at a token boundary (patterns with spaces).
  matcher.lastIndex = 0;
  const match = matcher.exec(text);
  if (!match || match[0] === '') return undefined;
  const next = text.charAt(match[0].length);
  if (next !== '' && ID_CHAR.test(next)) return undefined;
  return match[0].trim();
}

/** The caller's pattern, anchored at the start of the heading text (sticky), without `g`. */
function stickyPattern(pattern: RegExp): RegExp {
  const flags = pattern.flags.replace(/[gy]/g, '') + 'y';
  return new RegExp(pattern.source, flags);
}

function normalizeLabel(label: string): string {
  return label.replace(/\s+/g, ' ').trim().toLowerCase();
}
