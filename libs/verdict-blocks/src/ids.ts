/**
 * The dispatched ids an id as written names (docs/contracts.md "Which answers
 * give a vote"): itself; else every dispatched id equal to it in another case;
 * else every one that differs from it only by zero-padding (`F-1`, `F-0001` for
 * `F-001`; `P-Step-02-3` for `P-Step-2-3`). The caller takes exactly one match as
 * that id and refuses several; none is an id that was not dispatched.
 */
export function dispatchedIds(written: string, wanted: readonly string[]): string[] {
  if (wanted.includes(written)) return [written];
  const lower = written.toLowerCase();
  const inCase = wanted.filter((w) => w.toLowerCase() === lower);
  if (inCase.length > 0) return inCase;
  const unpadded = unpad(written);
  return wanted.filter((w) => unpad(w) === unpadded);
}

/** An id lowercased with the leading zeros of each number dropped. */
function unpad(id: string): string {
  return id.toLowerCase().replace(/\d+/g, (n) => n.replace(/^0+(?=\d)/, ''));
}
