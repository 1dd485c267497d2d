/**
 * Deterministic JSON: object keys sorted by code point at every depth, arrays
 * kept in order, two-space indent, trailing newline. Same value → same bytes
 * (docs/conventions.md "Same inputs → byte-identical outputs"). `undefined`
 * members are dropped as JSON.stringify does.
 */
export function stableStringify(value: unknown, indent = 2): string {
  return JSON.stringify(sortKeysDeep(value), null, indent) + '\n';
}

/** A deep copy of `value` whose plain objects have their keys sorted. */
function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}
