import type { BreakageKind, Fixability, PlanVerdictWord } from '@okstra/schemas/implementation-planning';
import { BREAKAGE_KINDS, PLAN_VERDICT_WORDS } from '@okstra/schemas/vocabulary';

/** A `**Verdict**` value read by {@link parseVerdictValue}. */
export interface ParsedVerdictValue {
  verdict: PlanVerdictWord;
  /** Kind written with the verdict (`DISAGREE (b)`), lowercased; null when none. */
  kind: string | null;
  /** Text after the kind inside the brackets (`in-place` of `DISAGREE (b, in-place)`); null when none. Used as the fixability only when it reads as one. */
  fixability: string | null;
}

/**
 * `AGREE`, `SUPPLEMENT`, `DISAGREE`, `DISAGREE (b)`, `DISAGREE(b)`, `DISAGREE [b]`,
 * `DISAGREE (kind b)`, optionally followed inside the brackets by a separator and
 * more text (`DISAGREE (b, in-place)`, `DISAGREE (b — path)`), any case, then anything.
 * ARCHITECTURE.md §7 "Plan verdicts"; docs/plan-items.md "Verdict grammar".
 */
const VERDICT = new RegExp(
  String.raw`^\s*(${PLAN_VERDICT_WORDS.join('|')})(?![A-Za-z0-9_-])\s*(?:[([]\s*(?:kind\s+)?([A-Za-z])\s*(?:[,;/:\u2013\u2014-]\s*([^)\]]*?))?\s*[)\]])?`,
  'i',
);

/**
 * Read a `**Verdict**` field value. Returns null when it does not start with one of
 * the three verdict words (the caller reports an unknown verdict).
 */
export function parseVerdictValue(value: string): ParsedVerdictValue | null {
  const m = VERDICT.exec(value);
  if (!m) return null;
  return { verdict: m[1].toUpperCase() as PlanVerdictWord, kind: m[2] ? m[2].toLowerCase() : null, fixability: m[3] ? m[3].trim() : null };
}

/** A single letter is a breakage kind when it is one of a–e (case-insensitive). */
export function toBreakageKind(letter: string): BreakageKind | null {
  const k = letter.toLowerCase();
  return (BREAKAGE_KINDS as readonly string[]).includes(k) ? (k as BreakageKind) : null;
}

/**
 * Read a `**Breakage kind**` field value: a leading letter, optionally in
 * parentheses or brackets, or `kind b` (`b`, `(b)`, `[B] path…`, `kind b`).
 * Returns the letter lowercased (not yet checked against a–e), or null when the
 * value does not start with a single letter.
 */
export function parseKindField(value: string): string | null {
  const m = /^\s*(?:kind\s+)?[([]?\s*([A-Za-z])(?![A-Za-z0-9])/i.exec(value);
  return m ? m[1].toLowerCase() : null;
}

/**
 * Read a fixability value: `in-place`, `replan`, `needs-clarification`, any case,
 * with `-`, `_` or spaces between the words, followed by anything (`in place — fix the path`).
 * Returns null when the value starts with none of them.
 */
export function parseFixability(value: string): Fixability | null {
  const m = /^\s*[`*_]*\s*(in[\s_-]*place|re[\s_-]*plan|needs[\s_-]*clarification)(?![A-Za-z0-9])/i.exec(value);
  if (!m) return null;
  const word = m[1].toLowerCase().replace(/[\s_-]+/g, '');
  return word === 'inplace' ? 'in-place' : word === 'replan' ? 'replan' : 'needs-clarification';
}
