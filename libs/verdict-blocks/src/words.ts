/**
 * Reading a one-word field value (a verdict word) the way docs/convergence.md
 * "Verdict words" states: decorations whose meaning is beyond doubt are dropped,
 * anything that adds words is not a word.
 */

/** Wrapping a word may carry: emphasis, code, quotes, brackets. */
const WRAP_START = /^[\s*_`"'“‘[(]+/;
/** …and after it, also a final `.` or `!` — one dot: `SURVIVES...` trails off, so it is not a word (as `SURVIVES…`). */
const WRAP_END = /(?:[\s*_`"'”’!\])]|(?<!\.)\.(?!\.))+$/;

/**
 * The canonical spelling of a one-word value: wrapping emphasis, backticks, quotes
 * and brackets and a final `.`/`!` dropped, upper-cased, spaces and `_` read as `-`.
 * `**Survives with caveat.**` → `SURVIVES-WITH-CAVEAT`; `**SURVIVES**, mostly` →
 * `SURVIVES**,-MOSTLY` (not a word: the caller refuses it). Multi-line values keep
 * their line breaks as `-`, so they never equal a word either.
 */
export function normalizeWord(value: string): string {
  return value
    .replace(WRAP_START, '')
    .replace(WRAP_END, '')
    .toUpperCase()
    .replace(/[\s_]+/g, '-');
}

/**
 * The word a value *starts* with, when it is one of `words` but the value adds more
 * (`**SURVIVES**, mostly`, `REFUTED — the lock is taken first`): for a precise
 * refusal. The longest matching word wins (`SURVIVES-WITH-CAVEAT` over `SURVIVES`).
 * `undefined` when the value is exactly a word or does not start with one.
 */
export function leadingWord(value: string, words: readonly string[]): string | undefined {
  const flat = normalizeWord(value);
  if (words.includes(flat)) return undefined;
  const head = value
    .replace(WRAP_START, '')
    .toUpperCase()
    .replace(/[\s_]+/g, '-');
  const match = [...words].sort((a, b) => b.length - a.length).find((w) => head.startsWith(w) && !/[A-Z0-9]/.test(head.charAt(w.length)));
  return match;
}
