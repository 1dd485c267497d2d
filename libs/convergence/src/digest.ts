import { createHash } from 'node:crypto';
import { stableStringify } from '@okstra/core';

/**
 * The seed digest: `sha256:<hex>` of the canonical JSON (keys sorted at every
 * depth, two-space indent) of the parsed groups document. Formatting and key
 * order of the file do not change it; any value does. docs/convergence.md "Digest".
 */
export function seedDigest(groups: unknown): string {
  return 'sha256:' + createHash('sha256').update(stableStringify(groups)).digest('hex');
}

/** First 12 hex digits of the sha256 of some bytes (names of copies kept in the migration dir). */
export function shortContentHash(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}
