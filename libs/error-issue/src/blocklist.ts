import type { IdentityKind, IdentitySet } from './identities.js';
import { harmlessPart, HOST_CONTEXT_WORDS, NAME_CONTEXT_WORDS } from './reduce.js';

/**
 * The second line of anonymization (docs/error-issue.md "Names"): every
 * identity harvested from the machine, the projects and the records is
 * replaced as a whole word (letters, marks and digits of any script bound it;
 * case-insensitive; NFC) by its kind's placeholder. An identity that is also a
 * harmless word (`dev`, `git`, `test`, `Smith`) is replaced only where it is
 * used as a name: after `~` or `@`, before `@` or `'s`, after a word that
 * introduces a person (`for`, `by`, `user`, …) or — for a host — a machine
 * (`on`, `host`, …), and a person's name part where it is capitalized. Elsewhere
 * the word stays: `dev server failed to start in dev mode` is not about `dev`.
 * @param hits receives `identity` when anything was replaced.
 */
export function redactIdentities(text: string, identities: IdentitySet, hits?: Set<string>): string {
  let out = text;
  for (const { value, kinds } of identities.entries()) {
    // A person's name part that is also a host label (`alice@smith.example.org`) is the person's.
    const placeholder = kinds.has('person') ? '<name>' : kinds.has('host') ? '<host>' : kinds.has('secret') && kinds.size === 1 ? '<secret>' : '<name>';
    // Only a single vocabulary word is read by its context; a compound of words (`secret-payments`) is distinctive whole.
    const common = harmlessPart(value);
    if (common && kinds.size === 1 && kinds.has('secret')) continue; // its `KEY=value` place is already redacted
    out = out.replace(wordPattern(value), (m: string, offset: number, whole: string) => {
      if (common && !usedAsName(whole, offset, offset + m.length, m, kinds)) return m;
      hits?.add('identity');
      return placeholder;
    });
  }
  return out;
}

/** True when the common word `m` at `[start, end)` of `text` stands where a name does (see {@link redactIdentities}). */
function usedAsName(text: string, start: number, end: number, m: string, kinds: ReadonlySet<IdentityKind>): boolean {
  const before = text.slice(Math.max(0, start - 32), start);
  const after = text.slice(end, end + 3);
  if (/[~@]$/.test(before) || after.startsWith('@') || /^['’]s(?![\p{L}\p{N}])/u.test(after)) return true;
  const prevWord = /(\p{L}+)[ \t]+$/u.exec(before)?.[1]?.toLowerCase();
  if (prevWord && NAME_CONTEXT_WORDS.has(prevWord)) return true;
  if (prevWord && kinds.has('host') && HOST_CONTEXT_WORDS.has(prevWord)) return true;
  // A person's name part used as a name: capitalized (`Smith`), or next to another name.
  if (kinds.has('person') && (/^\p{Lu}/u.test(m) || /<name>[ \t]+$/.test(before) || /^[ \t]+<name>/.test(text.slice(end, end + 8)))) return true;
  return false;
}

/** A case-insensitive regex matching `value` not inside a longer word (letters, marks, digits of any script). */
export function wordPattern(value: string): RegExp {
  const escaped = value.normalize('NFC').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}<])${escaped}(?![\\p{L}\\p{M}\\p{N}>])`, 'giu');
}
