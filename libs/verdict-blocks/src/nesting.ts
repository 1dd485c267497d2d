import { InputError } from '@okstra/core';

/**
 * Deepest container nesting (block quotes and lists) a worker response may
 * have. Real responses stay under 10; a CommonMark parser re-checks every
 * open container on every line, so 64k nested `>` took 19 s (quadratic).
 * Refusing deeper text before parsing keeps parsing linear in its size.
 * Documented in docs/convergence.md "Response blocks" and docs/conventions.md.
 */
export const MAX_MARKDOWN_NESTING = 64;

/**
 * The deepest container nesting of any line, found in one linear pass: per
 * line, the `>` and list markers (`-`, `*`, `+`, `1.`, `1)`) chained at its
 * start, plus one level per two columns of indentation before a marker (a
 * nested list). An over-estimate for 4-space lists, never an under-estimate.
 * @returns the depth and its 1-based line.
 */
export function markdownNesting(text: string): { depth: number; line: number } {
  let best = { depth: 0, line: 0 };
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    let depth = 0;
    let col = 0;
    let leading = -1;
    for (;;) {
      while (i < n && (text[i] === ' ' || text[i] === '\t')) {
        col += text[i] === '\t' ? 4 - (col % 4) : 1;
        i++;
      }
      const c = text[i];
      let width = 0;
      if (c === '>') width = 1;
      else if ((c === '-' || c === '*' || c === '+') && isGap(text[i + 1])) width = 1;
      else {
        let j = i;
        while (j < n && j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
        if (j > i && (text[j] === '.' || text[j] === ')') && isGap(text[j + 1])) width = j + 1 - i;
      }
      if (width === 0) break;
      if (leading < 0) leading = col;
      depth++;
      i += width;
      col += width;
    }
    if (leading > 0) depth += Math.floor(leading / 2);
    if (depth > best.depth) best = { depth, line };
    while (i < n && text[i] !== '\n') i++;
    i++;
    line++;
  }
  return best;
}

function isGap(c: string | undefined): boolean {
  return c === undefined || c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/**
 * Refuse Markdown nested deeper than {@link MAX_MARKDOWN_NESTING} before it is parsed.
 * @throws InputError (exit 2) naming `file` and the line.
 */
export function assertMarkdownNesting(text: string, file?: string): void {
  const { depth, line } = markdownNesting(text);
  if (depth > MAX_MARKDOWN_NESTING) {
    throw new InputError(`Markdown is nested ${depth} levels deep (block quotes / lists; the limit is ${MAX_MARKDOWN_NESTING})`, {
      file,
      field: `line ${line}`,
    });
  }
}
