/**
 * What a worker's Markdown cites, and the code it attaches to each citation
 * (docs/worker-audit-check.md "Citations checked").
 */
import { isCitation, proseLineIndexes } from './grammar.js';

/** One citation as written, its parts, and the code the worker attached to it. */
export interface Cited {
  /** The citation as written (`./src/a.ts:9-12`). */
  citation: string;
  /** Its path as written (`./src/a.ts`). */
  path: string;
  /** First and last cited line (equal for `path:line`). */
  start: number;
  end: number;
  /** Code attached to it: an adjacent code span, or the fenced block right after its line. */
  quotes: string[];
}

const PARTS = /^(.+?):([1-9][0-9]*)(?::[1-9][0-9]*)?(?:-([1-9][0-9]*)(?::[1-9][0-9]*)?)?$/;

/** The path and line range of one citation's text (as {@link isCitation} accepts it), else null. */
export function parseCitation(text: string): { path: string; start: number; end: number } | null {
  if (!isCitation(text)) return null;
  const m = PARTS.exec(text);
  if (!m) return null;
  const start = Number(m[2]);
  const end = m[3] === undefined ? start : Number(m[3]);
  return { path: m[1]!, start: Math.min(start, end), end: Math.max(start, end) };
}

/** A code span: a run of backticks, text, the same run (CommonMark). Index 1 is the run, 2 the text. */
const SPAN = /(?<!`)(`+)(?!`)([^\n]*?[^`\n])\1(?!`)/g;
/** What may stand between a citation's span and the code span it attaches: blanks and one of `: — – - → = ,`, or `is`/`reads`/`says`/`shows`. */
const JOINER = /^\s*(?:[:=→—–-]|is|reads|says|shows|has)?\s*$/;

/**
 * A line introducing code that is proposed, not quoted (`Fix `a.ts:9`:`, `should become`, `replace with`): the
 * block after it is not a quote. A word list, the last resort (docs/worker-audit-check.md "Limits").
 */
const PROPOSAL = /\b(?:fix|fixed|change|changed|replace|replaced|should|instead|propos\w*|suggest\w*|patch|becomes?|rewrite|rewritten|after)\b/i;

/**
 * Every citation of `markdown` (outside fenced code; distinct by text, in order of first
 * appearance) with the code attached to it:
 * - a code span that follows the citation's span on the same line with only a joiner between
 *   (`` `src/a.ts:9`: `return x;` ``, `` `src/a.ts:9` is `return x;` ``), or precedes it the same way
 *   (`` `return x;` (`src/a.ts:9`) `` is not attached: the parenthesis is not a joiner);
 * - the fenced block whose opening fence is the next non-blank line after a line that holds
 *   exactly one citation, at its end (`` … in `src/a.ts:9-12`: `` then ```` ``` ````), unless that line
 *   introduces a proposal ({@link PROPOSAL}) or the block is a `diff`/`patch`.
 * A citation cited twice collects the quotes of every place.
 */
export function citedIn(markdown: string): Cited[] {
  const byText = new Map<string, Cited>();
  const lines = markdown.split(/\r?\n/);
  const prose = new Set(proseLineIndexes(lines));
  for (let i = 0; i < lines.length; i++) {
    if (!prose.has(i)) continue;
    const line = lines[i]!;
    const spans = [...line.matchAll(SPAN)].map((m) => ({ text: m[2]!.trim(), from: m.index!, to: m.index! + m[0].length }));
    const onLine: Cited[] = [];
    spans.forEach((span, k) => {
      const parsed = parseCitation(span.text);
      if (!parsed) return;
      let cited = byText.get(span.text);
      if (!cited) byText.set(span.text, (cited = { citation: span.text, ...parsed, quotes: [] }));
      onLine.push(cited);
      const next = spans[k + 1];
      if (next && !parseCitation(next.text) && JOINER.test(line.slice(span.to, next.from))) cited.quotes.push(next.text);
    });
    // A fenced snippet right after a line that ends in its one citation.
    if (onLine.length === 1 && /`[\s:.)]*$/.test(line) && !PROPOSAL.test(line)) {
      const fence = fencedBlockAfter(lines, i + 1);
      if (fence !== null) onLine[0]!.quotes.push(fence);
    }
  }
  return [...byText.values()];
}

/** The body of the fenced block opening at the first non-blank line from `from` (up to 3 spaces of indentation), else null. */
function fencedBlockAfter(lines: string[], from: number): string | null {
  let i = from;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  const open = /^ {0,3}(`{3,}|~{3,})([^`]*)$/.exec(lines[i] ?? '');
  if (!open || /^\s*(?:diff|patch)\b/i.test(open[2]!)) return null;
  const body: string[] = [];
  for (let j = i + 1; j < lines.length; j++) {
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[j]!)?.[1];
    if (close && close[0] === open[1]![0] && close.length >= open[1]!.length) return body.join('\n');
    body.push(lines[j]!);
  }
  return null;
}
