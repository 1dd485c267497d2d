import { detects, DETECTORS, OVERLONG_RUN } from './patterns.js';
import { identityDigest, type IdentitySet } from './identities.js';
import { wordPattern } from './normalize.js';
import { OKSTRA_TEXTS } from './render.js';

/** One thing the last gate refused: which detector, and where (never the matched text itself). */
export interface GateProblem {
  field: 'title' | 'body' | 'commentBody';
  detector: string;
}

/**
 * The last gate before anything is sent (docs/error-issue.md "Last gate").
 * okstra's own fixed texts (run-audit catalogue summaries, the rendering
 * template; {@link OKSTRA_TEXTS}) are blanked first: they are constants of
 * okstra and carry nothing of the target. Everything else fails closed: refuses a text with any detector hit (secret-looking tokens,
 * URLs, emails, home and other paths in every spelling incl. `file:///` and
 * percent-encoded, IPs, host names), any known identity (plain, or whose
 * salted digest is in `identityDigests` — word n-grams of up to 4 words are
 * compared), and any non-blank run longer than `MAX_RUN` characters (`long-token`).
 * @returns the problems; empty means the text may be sent.
 */
export function lastGate(
  texts: Partial<Record<GateProblem['field'], string>>,
  identities: IdentitySet,
  identityDigests: readonly string[] = [],
): GateProblem[] {
  const digests = new Set(identityDigests);
  const problems: GateProblem[] = [];
  for (const field of ['title', 'body', 'commentBody'] as const) {
    const raw = texts[field];
    if (raw === undefined) continue;
    // okstra's own fixed text (catalogue summaries, the body template) is no one's identity and
    // names no target path: `pending/in-progress` in a summary must not make its class unfileable.
    const text = blankOkstraTexts(raw);
    const seen = new Set<string>();
    const flag = (detector: string) => !seen.has(detector) && (seen.add(detector), problems.push({ field, detector }));
    // A run longer than MAX_RUN is refused outright, and the detectors then see it blanked (linear cost).
    if (new RegExp(OVERLONG_RUN.source, OVERLONG_RUN.flags).test(text)) flag('long-token');
    const scanned = text.replace(OVERLONG_RUN, ' ');
    for (const d of DETECTORS) if (detects(scanned, d)) flag(d.name);
    for (const id of identities.list()) if (wordPattern(id).test(text)) flag('identity');
    if (digests.size > 0 && ngrams(text).some((g) => digests.has(identityDigest(g)))) flag('identity');
  }
  return problems;
}

/** `text` with every occurrence of okstra's own fixed texts ({@link OKSTRA_TEXTS}) replaced by a blank. */
export function blankOkstraTexts(text: string): string {
  let out = text;
  for (const fixed of OKSTRA_TEXTS) if (out.includes(fixed)) out = out.split(fixed).join(' ');
  return out;
}

/** Word n-grams (1–4 words) of a text, plus each word's `.`/`_`/`-` parts, lower-cased. */
function ngrams(text: string): string[] {
  const words = text.split(/[^A-Za-z0-9._@/+-]+/).filter(Boolean);
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 4 && i + n <= words.length; n++)
      out.add(
        words
          .slice(i, i + n)
          .join(' ')
          .toLowerCase(),
      );
    for (const part of words[i]!.split(/[._/@+-]+/)) if (part) out.add(part.toLowerCase());
    out.add(words[i]!.replace(/^[._-]+|[._-]+$/g, '').toLowerCase());
  }
  return [...out];
}
