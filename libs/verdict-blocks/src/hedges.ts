/**
 * A vote that is asked or hedged is not a vote (docs/plan-items.md "Verdict
 * grammar", docs/convergence.md "Verdict words"): `AGREE? Not really`,
 * `AGREE (probably)`, `AGREE — not really`, `AGREE: no`, `AGREE...`. The plan
 * grammar accepts "a verdict word, then anything"; these are the "anything"s
 * that take the word back, so reading the word would be a guess.
 */

/** A question mark in any script: `?`, `‽`, Arabic `؟`, full-width `？`, `⸮`. */
const QUESTION = /[?\u203d\u061f\uff1f\u2e2e\u2753\u2754\u2049]/;
/** What may stand between the word and a hedge: separators, brackets, a final stop. */
const LEAD = String.raw`^[\s,;:.!\u2013\u2014([-]*`;
/** Words that make the verdict a maybe when they come first after it. */
const HEDGE = new RegExp(
  LEAD +
    String.raw`(maybe|perhaps|probably|possibly|presumably|likely|arguably|tentative(?:ly)?|unsure|uncertain|partly|partially|mostly|somewhat|kinda|sorta|ish|in part|more or less|sort of|kind of|not (?:really|sure|quite|entirely|fully|certain|exactly)|i (?:think|guess|suppose|believe)|with (?:some )?reservations?)(?![A-Za-z0-9])`,
  'i',
);
/** A bare negation as all that follows: `AGREE: no`, `AGREE (not)`, `AGREE. Nope.` */
const NEGATION = new RegExp(LEAD + String.raw`(no|not|nope|nah)[\s.!)\]]*$`, 'i');
/** Trailing off right after the word: `AGREE...`, `AGREE…`. */
const ELLIPSIS = /^[\s*_`"'”’)\]]*(?:\.\s*\.|\u2026)/;

/**
 * Why `after` — the text that follows a verdict word (or a value) — takes it
 * back, or null when it does not. A `?` anywhere in `whole` counts.
 * @param whole the field's whole text (for the `?` rule and the message).
 * @param after the part after the word, its kind bracket, or a description bracket's content.
 */
export function hedgeIn(whole: string, ...after: string[]): string | null {
  if (QUESTION.test(whole)) return `is a question ('${QUESTION.exec(whole)![0]}'), not a vote`;
  for (const part of after) {
    if (ELLIPSIS.test(part)) return 'trails off (an ellipsis after the word), not a vote';
    const hedge = HEDGE.exec(part);
    if (hedge) return `hedges the word ('${hedge[1]}'), not a vote`;
    const no = NEGATION.exec(part);
    if (no) return `takes the word back ('${no[1]}'), not a vote`;
  }
  return null;
}
