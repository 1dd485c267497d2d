import { identityDigest, IdentitySet } from './identities.js';
import { anonymizeDetailed } from './normalize.js';
import { fingerprintMarker, evidenceMarker, OKSTRA_TEXTS } from './render.js';
import { appendAll } from '@okstra/core';

/** One thing the last gate refused: which class of leak (a detector, `identity`, or a vocabulary class), and where — never the matched text itself. */
export interface GateProblem {
  field: 'title' | 'body' | 'commentBody' | 'argv' | 'stdin';
  detector: string;
}

/**
 * The last gate before anything is sent (docs/error-issue.md "The last
 * gate"): the same rule as anonymization, as a check. okstra's own fixed
 * texts (run-audit catalogue summaries, the rendering template, the
 * fingerprint and evidence markers; {@link OKSTRA_TEXTS}) are blanked first;
 * then a text is refused for every class of replacement anonymizing it would
 * make — a secret or identity shape, a harvested identity (also one known
 * only by its salted digest in `identityDigests`: word n-grams of up to 4
 * words are compared, and a hit is checked where it stands, as plan does), a
 * token no vocabulary knows, text not in Unicode NFC, a run longer than
 * `MAX_RUN`. What `plan` rendered is anonymized already, so it passes;
 * anything planted later does not.
 * @returns the problems; empty means the text may be sent.
 */
export function lastGate(
  texts: Partial<Record<GateProblem['field'], string>>,
  identities: IdentitySet,
  identityDigests: readonly string[] = [],
): GateProblem[] {
  const digests = new Set(identityDigests);
  const problems: GateProblem[] = [];
  for (const field of ['title', 'body', 'commentBody', 'argv', 'stdin'] as const) {
    const raw = texts[field];
    if (raw === undefined) continue;
    const text = blankOkstraTexts(raw);
    const known = identities.copy();
    if (digests.size > 0) for (const g of ngrams(text)) if (digests.has(identityDigest(g))) known.add(g);
    for (const detector of anonymizeDetailed(text, known).hits) problems.push({ field, detector });
  }
  return problems;
}

const MARKERS = new RegExp(`${escape(fingerprintMarker('@'))}|${escape(evidenceMarker('@'))}`.replaceAll('@', '[0-9a-f]{12}'), 'g');

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `text` with okstra's own fixed texts ({@link OKSTRA_TEXTS}) and its fingerprint/evidence markers replaced by a blank. */
export function blankOkstraTexts(text: string): string {
  let out = text.replace(MARKERS, ' ');
  for (const fixed of OKSTRA_TEXTS) if (out.includes(fixed)) out = out.split(fixed).join(' ');
  return out;
}

/** Word n-grams (1–4 words) of a text, plus each word's `.`/`_`/`-` parts, lower-cased (NFC). */
function ngrams(text: string): string[] {
  const words = text
    .normalize('NFC')
    .split(/[^\p{L}\p{M}\p{N}._@/+-]+/u)
    .filter(Boolean);
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

/** The argv words okstra writes itself into a `gh issue create|comment` (sub-commands and flags). */
const GH_SEND_WORDS = new Set(['issue', 'create', 'comment', '--repo', '--title', '--body-file', '-']);

/**
 * The last gate over the exact bytes of one `gh` send (docs/error-issue.md
 * "The last gate"): every argv word okstra did not write itself — the
 * `--title` value and anything unexpected; the `--repo` value is the target
 * repository, public by definition, and the issue number is a number — and
 * the whole stdin (the body). The app's gh runner calls it right before it
 * starts `gh`, so no byte reaches the subprocess unchecked.
 * @returns the problems (field `title`, `argv` or `stdin`); empty means send.
 */
export function ghSendProblems(argv: readonly string[], stdin: string, identities: IdentitySet): GateProblem[] {
  const problems: GateProblem[] = [];
  argv.forEach((word, i) => {
    if (GH_SEND_WORDS.has(word) || argv[i - 1] === '--repo' || (argv[i - 1] === 'comment' && /^\d+$/.test(word))) return;
    appendAll(problems, lastGate(argv[i - 1] === '--title' ? { title: word } : { argv: word }, identities));
  });
  return [...problems, ...lastGate({ stdin }, identities)];
}
