// Collections of any size (docs/conventions.md "Sizes"): a spread into a call (`push(...xs)`,
// `Math.max(...xs)`) puts every element on the stack and throws "Maximum call stack size exceeded"
// past ~1e5 elements — a team-state of 90k rows did. These loop instead; a lint rule forbids the spread.

/** Append every element of `items` to `into` (in place, in order). @returns `into`. */
export function appendAll<T>(into: T[], items: Iterable<T>): T[] {
  for (const item of items) into.push(item);
  return into;
}

/** The largest of `values`, or `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty = -Infinity): number {
  let out = empty;
  let any = false;
  for (const v of values) {
    out = any ? Math.max(out, v) : v;
    any = true;
  }
  return out;
}

/** The smallest of `values`, or `empty` when there is none. */
export function minOf(values: Iterable<number>, empty = Infinity): number {
  let out = empty;
  let any = false;
  for (const v of values) {
    out = any ? Math.min(out, v) : v;
    any = true;
  }
  return out;
}
