import { englishWords, okstraWords, TECH_WORDS } from './vocabulary.js';

/**
 * The fail-closed step of anonymization (docs/error-issue.md "Fail closed"):
 * after every shape detector and the identity blocklist have run, each token
 * left in free log text is kept only when it is provably harmless — a number,
 * a common English word, a word of the trade ({@link TECH_WORDS}), one of
 * okstra's own identifiers, one or two ASCII letters/digits, or a compound
 * (`E_LOCK`, `collectResults`, `worker-not-terminal`) made only of those.
 * Every other token becomes a typed placeholder: `<name>` (a word no list
 * knows, or any token in a script other than Latin letters), `<host>` (a
 * token with digits where a host is named: `on buildbox07`), `<id>` (the rest).
 * A capitalized word next to a `<name>` (`<name> Smith`) or after a word that
 * introduces a person (`by`, `for`, `author`) is a name too, as used.
 */

/** A placeholder left by an earlier step, or a word-like token (letters of any script, marks, digits, joined by `_ . ' -`). */
const TOKEN = /<[a-z]+>|[\p{L}\p{M}\p{N}_]+(?:['’.-][\p{L}\p{M}\p{N}_]+)*/gu;

/** Words after which a capitalized word or a harvested common-word name is used as a person's name. */
export const NAME_CONTEXT_WORDS: ReadonlySet<string> = new Set([
  'by',
  'for',
  'user',
  'owner',
  'author',
  'login',
  'account',
  'committer',
  'assignee',
  'reviewer',
  'as',
  'dear',
  'hi',
  'hello',
  'mr',
  'mrs',
  'ms',
  'dr',
]);

/** Words after which a token with digits is taken as a host name (`on buildbox07`). */
export const HOST_CONTEXT_WORDS: ReadonlySet<string> = new Set(['on', 'host', 'hostname', 'machine', 'server', 'node', 'box']);

const NUMBERISH = /^(?:\d+(?:[.,]\d+)*(?:ms|s|m|h|d|k|x|kb|mb|gb|kib|mib|gib|px|th|st|nd|rd)?|0x[0-9a-f]+|v\d+(?:\.\d+)*)$/i;

/** True when `part` is harmless whole, with no splitting: a number, one or two ASCII letters/digits, or a word of a vocabulary. */
export function harmlessPart(part: string): boolean {
  if (part === '') return true;
  if (NUMBERISH.test(part) || /^[A-Za-z0-9]{1,2}$/.test(part)) return true;
  const lower = part.toLowerCase();
  return englishWords().has(lower) || TECH_WORDS.has(lower) || okstraWords().has(lower);
}

/** `piece` split at camelCase and letter/digit boundaries (ASCII only; anything else is one part). */
function camelParts(piece: string): string[] {
  if (!/^[A-Za-z0-9]+$/.test(piece)) return [piece];
  return piece.match(/[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g) ?? [piece];
}

/** True when a token may stay in text that leaves the machine: harmless whole, or every part of it is. */
export function isHarmlessToken(token: string): boolean {
  if (harmlessPart(token)) return true;
  const pieces = token.split(/['’._-]+/);
  const parts = (pieces.length > 1 ? pieces.flatMap(camelParts) : camelParts(token)).filter(Boolean);
  if (parts.length < 2 || !parts.every(harmlessPart)) return false;
  // Short letter parts pass only beside real words (`E_LOCK`, `isTTY`): a random `bZuHqRt` splits into nothing but them.
  const letters = parts.filter((x) => !/^\d+$/.test(x));
  const short = letters.filter((x) => x.length <= 2).length;
  return letters.length - short >= Math.max(1, short);
}

/** True when `token` is a word of the trade or okstra's (such a capitalized word is not taken as a name). */
function isTechWord(token: string): boolean {
  const lower = token.toLowerCase();
  return TECH_WORDS.has(lower) || okstraWords().has(lower);
}

const isCapitalized = (t: string) => /^\p{Lu}\p{Ll}/u.test(t);

/** The result of a reduction: the text, and the class of every replacement made (for the last gate). */
export interface Reduced {
  text: string;
  hits: string[];
}

interface Tok {
  start: number;
  end: number;
  text: string;
  out: string;
}

/**
 * Reduce free text to harmless tokens and typed placeholders (see the module
 * comment). Idempotent: a reduced text reduces to itself with no hits — the
 * last gate relies on that to re-check with the same rule.
 */
export function reduceToVocabulary(text: string): Reduced {
  const hits = new Set<string>();
  const toks: Tok[] = [];
  for (const m of text.matchAll(TOKEN)) toks.push({ start: m.index, end: m.index + m[0].length, text: m[0], out: m[0] });
  const gap = (a: Tok, b: Tok) => text.slice(a.end, b.start);
  for (const [i, t] of toks.entries()) {
    if (t.text.startsWith('<')) continue;
    const prev = i > 0 && /^\s+$/.test(gap(toks[i - 1]!, t)) ? toks[i - 1]!.text.toLowerCase() : '';
    // A token with digits where a host is named is a host even when its parts are words (`on web-01`).
    const hostNamed = HOST_CONTEXT_WORDS.has(prev) && t.text.length > 2 && /\d/.test(t.text) && /\p{L}/u.test(t.text) && !NUMBERISH.test(t.text);
    // `@bob` (a handle, a mention): the word after `@` is used as a name, unless it is okstra's or the trade's.
    const handle = t.start > 0 && text[t.start - 1] === '@' && !/^\d/.test(t.text) && !isTechWord(t.text);
    if (handle) {
      t.out = '<name>';
      hits.add('name-as-used');
      continue;
    }
    if (!hostNamed && isHarmlessToken(t.text)) continue;
    if (hostNamed) {
      t.out = '<host>';
      hits.add('unknown-host');
    } else if (/[^\p{ASCII}]/u.test(t.text)) {
      t.out = '<name>';
      hits.add('name-any-script');
    } else if (/^[A-Za-z]+$/.test(t.text)) {
      t.out = '<name>';
      hits.add('unknown-word');
    } else {
      t.out = '<id>';
      hits.add('unknown-id');
    }
  }
  // A capitalized word used as a name: next to a name (`<name> Smith`, `Smith <name>`) or after `by`/`for`/….
  for (let changed = true; changed;) {
    changed = false;
    for (const [i, t] of toks.entries()) {
      if (t.out !== t.text || !isCapitalized(t.text) || isTechWord(t.text)) continue;
      const before = i > 0 && gap(toks[i - 1]!, t) === ' ' ? toks[i - 1]! : null;
      const after = i + 1 < toks.length && gap(t, toks[i + 1]!) === ' ' ? toks[i + 1]! : null;
      // Next to a name (`<name> Smith`): a placeholder already there, or a word that looked like a name — capitalized or in
      // another script — not a lower-case word no list has (`Cannot destructure` is no name).
      const nameLike = (x: Tok | null) => x !== null && x.out === '<name>' && (x.text === '<name>' || isCapitalized(x.text) || /[^\p{ASCII}]/u.test(x.text));
      const nextToName = nameLike(before) || nameLike(after);
      // `by Rose`, `Signed-off-by: Rose`, `author: Rose`: the word before (or its last `-` part) introduces a person.
      const prev = i > 0 && /^:?[ \t]+$/.test(gap(toks[i - 1]!, t)) ? toks[i - 1]! : null;
      const introduced = prev !== null && prev.out === prev.text && NAME_CONTEXT_WORDS.has(prev.text.toLowerCase().split('-').pop()!);
      if (nextToName || introduced) {
        t.out = '<name>';
        hits.add('name-as-used');
        changed = true;
      }
    }
  }
  if (hits.size === 0) return { text, hits: [] };
  let out = '';
  let at = 0;
  for (const t of toks) {
    out += text.slice(at, t.start) + t.out;
    at = t.end;
  }
  return { text: out + text.slice(at), hits: [...hits] };
}
