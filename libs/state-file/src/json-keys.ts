import { InputError } from '@okstra/core';
import { formatJsonPath } from './json-path.js';

/**
 * How many object keys the JSON text spells: string tokens followed (after
 * whitespace) by `:`. Only for text `JSON.parse` accepted, where every `"`
 * outside a string opens one and only keys precede a colon. Native
 * `indexOf` jumps from quote to quote, so this costs far less than the parse.
 */
export function countKeyTokens(text: string): number {
  let keys = 0;
  let open = text.indexOf('"');
  while (open !== -1) {
    const close = closingQuote(text, open);
    let at = close + 1;
    let c = text.charCodeAt(at);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++at);
    if (c === 0x3a) keys++;
    open = text.indexOf('"', at);
  }
  return keys;
}

/**
 * Refuse an object that names one key twice (docs/conventions.md "Input
 * files"): `JSON.parse` silently keeps the last, so `{"schemaVersion":"9.9",
 * …, "schemaVersion":"2.0"}` would be read as 2.0 while another reader (jq,
 * Python, a human) may take the first. Keys are compared decoded, so `"a"`
 * and `"\u0061"` are the same key; the same key in sibling objects is fine.
 * @param parsedKeys the number of own keys of every object in `JSON.parse(text)`
 *   ({@link assertSaneJson}'s count): when it equals {@link countKeyTokens}
 *   there is no duplicate and the text is not scanned again.
 * @throws InputError (exit 2) naming `file`, the duplicate's JSON path and the
 *   lines of both occurrences.
 */
export function assertUniqueKeys(text: string, parsedKeys: number, file: string | undefined): void {
  if (countKeyTokens(text) === parsedKeys) return;
  const dup = findDuplicateKey(text);
  if (!dup) return;
  const [a, b] = [lineAt(text, dup.first), lineAt(text, dup.second)];
  const where = a === b ? `both on line ${a}` : `lines ${a} and ${b}`;
  throw new InputError(`holds the key ${JSON.stringify(dup.key)} twice in one object (${where}); refusing to guess which one counts`, {
    file,
    field: formatJsonPath(dup.path),
  });
}

interface Frame {
  /** Keys seen in this object (null for an array), with the offset of each. */
  keys: Map<string, number> | null;
  /** The current key or index: the next path segment. */
  at: string | number;
  /** An object whose next string token is a key. */
  wantKey: boolean;
}

/**
 * The first key an object of `text` names twice, or null. A scan of text
 * `JSON.parse` accepted (so nesting is already ≤ MAX_JSON_DEPTH); slow next
 * to the parse, so it runs only when {@link countKeyTokens} says a key went missing.
 */
export function findDuplicateKey(text: string): { key: string; path: Array<string | number>; first: number; second: number } | null {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x7b) stack.push({ keys: new Map(), at: '', wantKey: true });
    else if (c === 0x5b) stack.push({ keys: null, at: 0, wantKey: false });
    else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c && top) {
      if (top.keys) top.wantKey = true;
      else top.at = (top.at as number) + 1;
    } else if (c === 0x22) {
      const close = closingQuote(text, i);
      if (top?.keys && top.wantKey) {
        const key = JSON.parse(text.slice(i, close + 1)) as string;
        const first = top.keys.get(key);
        if (first !== undefined) return { key, path: [...stack.slice(0, -1).map((f) => f.at), key], first, second: i };
        top.keys.set(key, i);
        top.at = key;
        top.wantKey = false;
      }
      i = close;
    }
  }
  return null;
}

/** The offset of the `"` closing the string opened at `open` (a quote after an odd run of backslashes is escaped). */
function closingQuote(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  for (;;) {
    if (close === -1) return text.length; // unterminated: not text JSON.parse accepted
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
