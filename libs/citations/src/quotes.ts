/**
 * Whether code a worker attached to a citation is what the cited lines say
 * (docs/worker-audit-check.md "Quotes"): whitespace and indentation are
 * ignored, and the quote may sit up to {@link QUOTE_WINDOW} lines before or
 * after the cited range.
 */

/** How many lines before the first and after the last cited line a quote may come from. */
export const QUOTE_WINDOW = 3;

/** A line that stands for omitted code (`...`, `…`, `// ...`, `# ...`, `/* ... *\/`). */
const ELISION = /^(?:\/\/|#|--|\/\*)?\s*(?:\.\.\.|…)\s*(?:\*\/)?$/;
/** A line-number prefix as `nl`, `cat -n`, `grep -n` or an editor prints it (`12:`, `12 |`, `12⇥`). */
const NUMBERED = /^\s*[0-9]+(?:\s*[:|]|\t)\s?/;

const squash = (s: string): string => s.replace(/\s+/g, '');

/** The lines of a quote that must be found: blank and elision lines dropped, a line-number prefix on every line removed. */
export function quoteLines(quote: string): string[] {
  let lines = quote.split(/\r?\n/).filter((l) => l.trim() !== '' && !ELISION.test(l.trim()));
  if (lines.length > 0 && lines.every((l) => NUMBERED.test(l))) lines = lines.map((l) => l.replace(NUMBERED, ''));
  return lines.map(squash).filter((l) => l !== '');
}

/**
 * True when `quote` matches lines `start`–`end` (1-based) of `file`, within the window:
 * the window is the cited lines widened by {@link QUOTE_WINDOW} plus the quote's own line count less one
 * on each side (a pasted function may start at the cited line); a one-line quote is found anywhere in the window's text (so it may span a line break);
 * a longer quote's lines are each found in a window line, in order (lines the worker
 * elided may be skipped). A quote with nothing left to compare matches.
 */
export function quoteMatches(quote: string, file: readonly string[], start: number, end: number): boolean {
  const want = quoteLines(quote);
  if (want.length === 0) return true;
  // A quote of n lines may start or end at the cited lines: the window widens by n - 1 on each side.
  const reach = QUOTE_WINDOW + want.length - 1;
  const window = file.slice(Math.max(0, start - 1 - reach), Math.min(file.length, end + reach)).map(squash);
  if (want.length === 1) return window.join('').includes(want[0]!);
  let at = 0;
  for (const line of want) {
    while (at < window.length && !window[at]!.includes(line)) at++;
    if (at === window.length) return false;
    at++;
  }
  return true;
}
