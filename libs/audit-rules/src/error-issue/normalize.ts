import { createHash } from 'node:crypto';
import { applyDetector, DETECTORS, OVERLONG_RUN, VOLATILE } from './patterns.js';
import type { IdentitySet } from './identities.js';

/**
 * Replace every detector hit (tokens, URLs, emails, paths in every spelling,
 * UUIDs, IPs, host names) with its placeholder, then every known identity
 * left (whole-word, case-insensitive) with `<name>` (docs/error-issue.md "Anonymization").
 * A non-blank run longer than `MAX_RUN` characters becomes `<token>` first, so
 * the cost stays linear in the text length.
 */
export function anonymize(text: string, identities: IdentitySet): string {
  let out = text.replace(OVERLONG_RUN, '<token>');
  for (const d of DETECTORS) out = applyDetector(out, d);
  for (const id of identities.list()) out = out.replace(wordPattern(id), '<name>');
  return out;
}

/**
 * The clustering form of a message: anonymized, then times, hashes and
 * numbers replaced, whitespace collapsed (docs/error-issue.md "Normalization").
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

/** A case-insensitive regex matching `value` not inside a longer word. */
export function wordPattern(value: string): RegExp {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9<])${escaped}(?![A-Za-z0-9>])`, 'gi');
}
