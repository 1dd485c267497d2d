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
 * `Agreed` read as `AGREE`. Both readers apply it before reading the word.
 */
export function cleanVerdictText(value: string): string {
  return value
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
