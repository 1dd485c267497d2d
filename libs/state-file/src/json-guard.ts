import { InputError } from '@okstra/core';
import { formatJsonPath } from './json-path.js';

/**
 * Deepest nesting (objects + arrays) any okstra JSON input may have. Real
 * artifacts stay under 20; a deeper document is refused (exit 2) before any
 * recursive code (zod, stringify) could overflow the stack and exit 70.
 * Rule documented in docs/conventions.md "Input files".
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Check a parsed JSON value iteratively (linear in its size): nesting at most
 * {@link MAX_JSON_DEPTH}, and every number finite (`1e999` parses to
 * Infinity, which JSON.stringify would rewrite as `null`).
 * @returns the number of own keys of all objects in `value` (what
 *   `assertUniqueKeys` compares with the keys the text spells).
 * @throws InputError naming `file` and the JSON path of the first offence.
 */
export function assertSaneJson(value: unknown, file: string | undefined): number {
  let keys = 0;
  interface Frame {
    v: unknown;
    depth: number;
    key: PropertyKey | null;
    parent: Frame | null;
  }
  const stack: Frame[] = [{ v: value, depth: 0, key: null, parent: null }];
  while (stack.length > 0) {
    const f = stack.pop() as Frame;
    const v = f.v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new InputError('holds a number too large for a double (e.g. 1e999); refusing to round it', { file, field: pathOf(f) });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (f.depth >= MAX_JSON_DEPTH) {
      throw new InputError(`is nested deeper than ${MAX_JSON_DEPTH} levels`, { file, field: pathOf(f) });
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: f.depth + 1, key: i, parent: f });
    } else {
      const own = Object.keys(v);
      keys += own.length;
      for (const k of own) stack.push({ v: (v as Record<string, unknown>)[k], depth: f.depth + 1, key: k, parent: f });
    }
  }
  return keys;

  function pathOf(f: Frame): string {
    const parts: PropertyKey[] = [];
    for (let at: Frame | null = f; at && at.key !== null; at = at.parent) parts.push(at.key);
    // A 256-deep path is unreadable: keep its first levels.
    const path = formatJsonPath(parts.reverse().slice(0, 8));
    return parts.length > 8 ? `${path}…` : path;
  }
}
