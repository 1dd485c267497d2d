import { createHash } from 'node:crypto';
import { stableStringify } from '@okstra/core';

/**
 * The seed digest: `sha256:<hex>` of the canonical JSON (keys sorted at every
 * depth, two-space indent) of the parsed groups document, with the roster sorted
 * by worker id and each finding's `authors` sorted: neither order means anything
 * (the roster is a set, authors are a set), so reordering them, reformatting the
 * file or reordering keys does not change the digest; any value, and the order of
 * `findings` (which plans follow), does. docs/convergence.md "Digest".
 */
export function seedDigest(groups: unknown): string {
  return (
    'sha256:' +
    createHash('sha256')
      .update(stableStringify(canonicalGroups(groups)))
      .digest('hex')
  );
}

/** Groups with their order-free lists sorted (a copy; anything that is not a groups object is returned as is). */
function canonicalGroups(groups: unknown): unknown {
  if (groups === null || typeof groups !== 'object' || Array.isArray(groups)) return groups;
  const g = groups as { roster?: unknown; findings?: unknown };
  const byWorker = (a: unknown, b: unknown) => {
    const x = String((a as { workerId?: unknown })?.workerId);
    const y = String((b as { workerId?: unknown })?.workerId);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const copy: Record<string, unknown> = { ...g };
  if (Array.isArray(g.roster)) copy.roster = [...g.roster].sort(byWorker);
  if (Array.isArray(g.findings)) {
    copy.findings = g.findings.map((f) =>
      f && typeof f === 'object' && Array.isArray((f as { authors?: unknown }).authors)
        ? { ...f, authors: [...(f as { authors: unknown[] }).authors].map(String).sort() }
        : f,
    );
  }
  return copy;
}

/** First 12 hex digits of the sha256 of some bytes (names of copies kept in the migration dir). */
export function shortContentHash(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}
