import { createHash } from 'node:crypto';
import { blankOverlongRuns, overlongRunPieces } from './patterns.js';

/**
 * Identities of the machine, the user and the target projects that must never
 * leave the machine (docs/error-issue.md "Identities"): user names, home
 * directories, host names, project ids and names, task groups and ids,
 * repository owners and names, and whatever the records themselves reveal
 * (home-path user segments, emails, URL hosts). Strings shorter than
 * {@link MIN_IDENTITY_LENGTH} are not kept: they cannot be told apart from ordinary words.
 */
export const MIN_IDENTITY_LENGTH = 3;

/**
 * What an identity names, which decides its placeholder and where a common
 * word is redacted (docs/error-issue.md "Names"): a `person`'s name (a
 * capitalized `Smith` is that person), a `host` (`<host>`), a `secret`
 * (`<secret>`), anything else (`<name>`).
 */
export type IdentityKind = 'person' | 'host' | 'secret' | 'other';

/** One identity and every kind it was harvested as. */
export interface IdentityEntry {
  value: string;
  kinds: ReadonlySet<IdentityKind>;
}

/** A set of identity strings, compared case-insensitively after Unicode NFC normalization (so NFD input matches). */
export class IdentitySet {
  private readonly values = new Map<string, { value: string; kinds: Set<IdentityKind> }>();

  /** Add identities (trimmed, NFC; short or empty ones ignored) of kind `other`. */
  add(...values: Array<string | null | undefined>): this {
    return this.addAs('other', ...values);
  }

  /** Add identities of one kind (see {@link IdentityKind}). */
  addAs(kind: IdentityKind, ...values: Array<string | null | undefined>): this {
    for (const raw of values) {
      const v = raw?.normalize('NFC').trim();
      if (!v || [...v].length < MIN_IDENTITY_LENGTH) continue;
      const key = v.toLowerCase();
      const entry = this.values.get(key) ?? { value: v, kinds: new Set<IdentityKind>() };
      entry.kinds.add(kind);
      this.values.set(key, entry);
    }
    return this;
  }

  /** An independent copy (the last gate adds what it learns from digests to a copy). */
  copy(): IdentitySet {
    const out = new IdentitySet();
    for (const e of this.entries()) for (const k of e.kinds) out.addAs(k, e.value);
    return out;
  }

  /** Forget values that are public by definition (the target repository's owner and name, `okstra`). */
  remove(...values: string[]): this {
    for (const v of values) this.values.delete(v.normalize('NFC').trim().toLowerCase());
    return this;
  }

  /** Every identity, longest first (so `alice-corp` is replaced before `alice`). */
  list(): string[] {
    return this.entries().map((e) => e.value);
  }

  /** Every identity with its kinds, longest first. */
  entries(): IdentityEntry[] {
    return [...this.values.values()].sort((a, b) => b.value.length - a.value.length || a.value.localeCompare(b.value));
  }

  /** Salted SHA-256 digests (sorted) for the plan file's last-gate re-check. */
  digests(): string[] {
    return [...new Set([...this.values.keys()].map(identityDigest))].sort();
  }
}

const SALT = 'okstra-error-issue-identity-v1:';

/** The digest of one identity (lower-cased), as stored in a plan's `identityDigests`. */
export function identityDigest(value: string): string {
  return createHash('sha256')
    .update(SALT + value.normalize('NFC').trim().toLowerCase())
    .digest('hex')
    .slice(0, 32);
}

const HOME_SEGMENT = [
  /(?<![\w~])~([A-Za-z_][\w.-]*)/g,
  /\/home\/([^\s/'"`<>\\%]+)/g,
  /\/Users\/([^\s/'"`<>\\%]+)/g,
  /[A-Za-z]:(?:\\\\|\\|\/)Users(?:\\\\|\\|\/)([^\s/'"`<>\\%]+)/gi,
  /%2[Ff](?:home|Users)%2[Ff]([^\s/'"`<>\\%]+)/g,
];
const EMAIL = /([\p{L}\p{M}\p{N}._%+-]+)@([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)/gu;
// `alice@host-3` (an ssh key comment, a shell prompt): the user and the bare host.
const USER_AT_BARE_HOST = /(?<![\p{L}\p{N}._%+@-])([\p{L}\p{M}\p{N}._%+-]+)@(\p{L}[\p{L}\p{M}\p{N}-]*)(?![\p{L}\p{N}.@-])/gu;
/** The value of a key naming a person/account, a machine, or a secret (`USER=dev`, `HOSTNAME=buildbox07`, `PGPASSWORD=…`). */
const KV_VALUE = String.raw`(?:\s*=\s*|"?\s*:\s*"|:\s+)("[^"\r\n]*"|'[^'\r\n]*'|[^\s,;&"'<>]+)`;
const NAME_VALUE = new RegExp(
  String.raw`(?<![\p{L}\p{N}_])(?:user(?:name)?|logname|login|author|owner|committer|full[_-]?name|git_author_name|git_committer_name)${KV_VALUE}`,
  'giu',
);
const HOST_VALUE = new RegExp(String.raw`(?<![\p{L}\p{N}_])(?:host(?:name)?|computername|machine(?:[_-]?name)?|node[_-]?name)${KV_VALUE}`, 'giu');
const SECRET_VALUE = new RegExp(
  String.raw`(?<![\p{L}\p{N}_])[\p{L}\p{N}_.-]*?(?:pass(?:word|wd|phrase)?|pwd|secret|token|credentials?|api[_-]?key|private[_-]?key|access[_-]?key)[\p{L}\p{N}_.-]*${KV_VALUE}`,
  'giu',
);
const unquote = (v: string) => v.replace(/^(["'])(.*)\1$/, '$2');
const URL_HOST = /\b[a-z][a-z0-9+.-]*:\/\/(?:[^@\s/]+@)?([^/\s:'"`<>)]+)/gi;
// The name ends where the remote does (end, blank, quote, bracket, comma): a lazy name stopped
// at the first word boundary, so `secret-payments` was harvested as `secret`.
const SCP_REMOTE = /\b[\w.-]+@([\w.-]+):([\w.-]+)\/([\w.-]+?)(?:\.git)?(?=$|[\s'"`<>(),;])/g;
const REPO_PATH = /(?:github\.com|gitlab\.com|bitbucket\.org)[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?(?=$|[\s/'"`<>)#?])/gi;

/**
 * Harvest identities a text reveals by its shape: the user segment of home
 * paths in every spelling (`/home/x`, `/Users/x`, `C:\Users\x`,
 * `file:///home/x`, `%2Fhome%2Fx`), email addresses and their local parts and
 * domains, URL hosts (and their labels), and repository owners/names of git remotes.
 * Linear in the text: runs longer than `MAX_RUN` are scanned in overlapping pieces.
 */
export function harvestIdentities(text: string, into: IdentitySet): IdentitySet {
  const decoded = safeDecode(text);
  // Runs longer than MAX_RUN are scanned in bounded overlapping pieces: the patterns below
  // backtrack over a run, so scanning a long run whole would cost its length squared.
  const texts = decoded === text ? [text] : [text, decoded];
  for (const t of texts.flatMap((x) => [blankOverlongRuns(x), ...overlongRunPieces(x)])) {
    for (const re of HOME_SEGMENT) for (const m of t.matchAll(re)) into.add(m[1]);
    for (const m of t.matchAll(USER_AT_BARE_HOST)) {
      if (!GENERIC_ACCOUNTS.has(m[1]!.toLowerCase())) into.add(m[1]);
      if (!GENERIC_LABELS.has(m[2]!.toLowerCase())) into.addAs('host', m[2]);
    }
    for (const m of t.matchAll(NAME_VALUE)) into.add(unquote(m[1]!));
    for (const m of t.matchAll(HOST_VALUE)) into.addAs('host', unquote(m[1]!));
    for (const m of t.matchAll(SECRET_VALUE)) into.addAs('secret', unquote(m[1]!));
    for (const m of t.matchAll(EMAIL)) {
      // `git@github.com:owner/name` is a remote, not a mailbox: its `git` names no one.
      if (t[m.index + m[0].length] === ':') continue;
      into.add(m[0], ...(GENERIC_ACCOUNTS.has(m[1]!.toLowerCase()) ? [] : [m[1]])).addAs('host', m[2], ...hostLabels(m[2]!));
    }
    for (const m of t.matchAll(URL_HOST)) into.addAs('host', m[1], ...hostLabels(m[1]!));
    for (const m of t.matchAll(SCP_REMOTE)) into.addAs('host', m[1]).add(m[2], m[3], `${m[2]}/${m[3]}`);
    for (const m of t.matchAll(REPO_PATH)) into.add(m[1], m[2], `${m[1]}/${m[2]}`);
  }
  return into;
}

/**
 * Account names that name no one (service and default accounts): a machine
 * user, an email local part or a remote user of these is not an identity, so
 * ordinary words (`git push`, `project root`) are not redacted.
 */
export const GENERIC_ACCOUNTS: ReadonlySet<string> = new Set([
  'root',
  'git',
  'nobody',
  'noreply',
  'no-reply',
  'admin',
  'administrator',
  'user',
  'runner',
  'node',
  'daemon',
  'www-data',
  'ci',
  'build',
]);

/**
 * Add a person's full name (`Alice Smith`): the whole name, and each of its
 * words — a surname alone still names the person, so privacy wins over the
 * word. Only person names are split this way; a project, host or repository
 * name is one identity as a whole (`secret-payments`, never `secret`).
 */
export function addPersonName(name: string | null | undefined, into: IdentitySet): IdentitySet {
  const whole = name?.trim().replace(/\s+/g, ' ');
  if (!whole) return into;
  into.addAs('person', whole);
  for (const word of whole.split(/[\s,]+/)) if (!GENERIC_ACCOUNTS.has(word.toLowerCase())) into.addAs('person', word.replace(/^[("'.]+|[)"'.]+$/g, ''));
  return into;
}

/** Identities of a git remote URL (`https://host/owner/name.git`, `git@host:owner/name.git`). */
export function remoteIdentities(url: string, into: IdentitySet): IdentitySet {
  const m = /[:/]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url.trim());
  if (m) into.add(m[1], m[2], `${m[1]}/${m[2]}`);
  return harvestIdentities(url, into);
}

/** Labels of a host name that can identify it (not the public suffix, not `www`). */
export function hostLabels(host: string): string[] {
  const labels = host.toLowerCase().split('.');
  return labels.slice(0, -1).filter((l) => !GENERIC_LABELS.has(l));
}

/** Host labels that name no one (and would make the gate refuse ordinary words). */
const GENERIC_LABELS = new Set([
  'www',
  'mail',
  'smtp',
  'api',
  'example',
  'github',
  'gitlab',
  'bitbucket',
  'noreply',
  'users',
  'localhost',
  'com',
  'co',
  'org',
  'net',
]);

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%2[Ff]/g, '/').replace(/%5[Cc]/g, '\\');
  }
}
