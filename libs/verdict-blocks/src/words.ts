/**
 * Reading a one-word field value (a verdict word) the way docs/convergence.md
 * "Verdict words" states: decorations whose meaning is beyond doubt are dropped,
 * anything that adds words is not a word.
 */

/** Wrapping a word may carry: emphasis, code, quotes, brackets. */
const WRAP_START = /^[\s*_`"'“‘[(]+/;
/** …and after it, also a final `.` or `!` (or the fullwidth `。` `！`) — one dot: `SURVIVES...` trails off, so it is not a word (as `SURVIVES…`). */
const WRAP_END = /(?:[\s*_`"'”’!\uff01\])]|(?<![.\u3002])[.\u3002](?![.\u3002]))+$/;

/**
 * The canonical spelling of a one-word value: wrapping emphasis, backticks, quotes
 * and brackets and a final `.`/`!` dropped, upper-cased, spaces and `_` read as `-`.
 * `**Survives with caveat.**` → `SURVIVES-WITH-CAVEAT`; `**SURVIVES**, mostly` →
 * `SURVIVES**,-MOSTLY` (not a word: the caller refuses it). Multi-line values keep
 * their line breaks as `-`, so they never equal a word either.
 */
export function normalizeWord(value: string): string {
  const word = cleanVerdictText(value)
    .replace(WRAP_START, '')
    .replace(WRAP_END, '')
    .toUpperCase()
    .replace(/[\s_]+/g, '-');
  return WORD_SYNONYMS[word] ?? word;
}

/** Spellings of a verdict word that mean it beyond doubt (docs/convergence.md "Verdict words"). */
const WORD_SYNONYMS: Readonly<Record<string, string>> = { 'SURVIVES-WITH-CAVEATS': 'SURVIVES-WITH-CAVEAT', AGREED: 'AGREE' };

/** Emoji and check marks a model puts after a verdict (`SURVIVES ✅`); question marks (`❓`) are not among them: a question is no vote. */
const EMOJI = /[\u2705\u2713\u2714\u2716\u2717\u2718\u274c\u274e\u26a0\u{1F7E2}\u{1F534}\u{1F7E1}\u{1F44D}\u{1F44E}\u{1F6AB}\u2b55]/gu;
/** Emoji joiners and variation selectors left by {@link EMOJI}. */
const JOINERS = /\ufe0f|\u200d/g;
/** A confidence note in brackets after the word: `(high confidence)`, `[confidence: 0.9]`. */
const CONFIDENCE =
  /\s*[([]\s*(?:(?:very\s+)?(?:high|medium|moderate|low)\s+confidence|confidence\s*[:=\uff1a]?\s*(?:very\s+)?(?:high|medium|moderate|low|\d{1,3}(?:\.\d+)?\s*%?))\s*[)\]]/gi;

/**
 * A verdict text with what is kept out of the verdict removed: emoji and check
 * marks (`SURVIVES ✅`) and a bracketed confidence note (`SURVIVES (high confidence)`);
 * fullwidth brackets read as brackets (`DISAGREE（b）`);
 * `Agreed` read as `AGREE`. Both readers apply it before reading the word.
 */
export function cleanVerdictText(value: string): string {
  return value
    .replace(/\uff08/g, '(')
    .replace(/\uff09/g, ')')
    .replace(EMOJI, '')
    .replace(JOINERS, '')
    .replace(CONFIDENCE, '')
    .replace(/^(\s*[*_`"'\u201c\u2018[(]*)agreed(?![A-Za-z0-9])/i, '$1AGREE')
    .replace(/[ \t]+$/g, '');
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
  const head = cleanVerdictText(value)
    .replace(WRAP_START, '')
    .toUpperCase()
    .replace(/[\s_]+/g, '-');
  const match = [...words].sort((a, b) => b.length - a.length).find((w) => head.startsWith(w) && !/[A-Z0-9]/.test(head.charAt(w.length)));
  return match;
}

/**
 * The verdict words of `words` a correction names anywhere in its text (`**Update:** … so
 * F-001 actually SURVIVES` → `['SURVIVES']`), each once, in canonical spelling; `negated` when
 * it also says `not`/`n't`/`no longer` (a correction that takes a word back is no vote).
 * The longest word wins where words overlap (`SURVIVES-WITH-CAVEAT` is not also `SURVIVES`);
 * a word inside another (`agree` in `disagree`) is not found. Both readers compare what it
 * finds with the block (docs/convergence.md "Response blocks").
 */
export function verdictWordsIn(text: string, words: readonly string[]): { words: string[]; negated: boolean } {
  let rest = cleanVerdictText(text).replace(/`/g, '');
  const found: string[] = [];
  for (const word of [...words].sort((a, b) => b.length - a.length)) {
    const spelled = word
      .split('-')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[-_\\s]+');
    const re = new RegExp(`(?<![A-Za-z-])${spelled}(?:S|D)?(?![A-Za-z-])`, 'gi');
    if (re.test(rest)) found.push(word);
    rest = rest.replace(re, ' ');
  }
  return { words: found, negated: /\b(?:not|no\s+longer|never)\b|n['\u2019]t\b|\u4e0d/i.test(text) };
}
