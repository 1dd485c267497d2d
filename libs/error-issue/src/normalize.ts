import { createHash } from 'node:crypto';
import { redactIdentities } from './blocklist.js';
import type { IdentitySet } from './identities.js';
import { applyDetector, DETECTORS, OVERLONG_RUN, VOLATILE } from './patterns.js';
import { reduceToVocabulary } from './reduce.js';

/** Anonymized text, and the class of every replacement made (the last gate's refusal reasons). */
export interface Anonymized {
  text: string;
  hits: string[];
}

/** Times and hashes become placeholders before the vocabulary step, which would take them for ids. */
const EARLY_VOLATILE = VOLATILE.filter((d) => d.name !== 'number');

/**
 * Fail-closed anonymization (docs/error-issue.md "Fail closed"), in order:
 * Unicode NFC; a non-blank run longer than `MAX_RUN` becomes `<secret>`
 * (linear cost); every detector — secrets by shape, URLs, emails,
 * `user@host`, paths in every spelling, UUIDs, images, IPs, hosts — becomes
 * its placeholder; times and hashes; harvested identities (the blocklist,
 * {@link redactIdentities}); then every token left that is not provably
 * harmless becomes a typed placeholder ({@link reduceToVocabulary}).
 * Idempotent: anonymizing its own output changes nothing and hits nothing.
 */
export function anonymizeDetailed(text: string, identities: IdentitySet): Anonymized {
  const hits = new Set<string>();
  let out = text.normalize('NFC');
  if (out !== text) hits.add('unnormalized-unicode');
  out = out.replace(OVERLONG_RUN, () => (hits.add('long-token'), '<secret>'));
  for (const d of DETECTORS) out = applyDetector(out, d, hits);
  for (const d of EARLY_VOLATILE) out = applyDetector(out, d);
  out = redactIdentities(out, identities, hits);
  const reduced = reduceToVocabulary(out);
  for (const h of reduced.hits) hits.add(h);
  return { text: reduced.text, hits: [...hits] };
}

/** {@link anonymizeDetailed}'s text. */
export function anonymize(text: string, identities: IdentitySet): string {
  return anonymizeDetailed(text, identities).text;
}

/**
 * The clustering form of a message: anonymized, then numbers replaced,
 * whitespace collapsed (docs/error-issue.md "Normalization").
 * Same error on two machines → same string.
 */
export function normalizeMessage(text: string, identities: IdentitySet): string {
  let out = anonymize(text, identities);
  for (const d of VOLATILE) out = applyDetector(out, d);
  return out.replace(/\s+/g, ' ').trim();
}

/** The stable fingerprint of a cluster signature: the first 12 hex digits of its SHA-256. */
export function fingerprint(signature: string): string {
  return createHash('sha256').update(signature).digest('hex').slice(0, 12);
}
