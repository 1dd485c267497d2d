import { HOST_SUFFIXES } from '@okstra/audit-rules';
import { REGISTRY_IMAGE, SECRET_SHAPES, USER_AT_HOST } from './shapes.js';
/**
 * The identity detectors shared by normalization and the last gate
 * (docs/error-issue.md "Anonymization" and "Last gate"): one list, so what
 * normalization removes and what the gate refuses cannot drift apart.
 * Each entry: a name, a global regex, and the placeholder that replaces a hit.
 * Order matters: earlier patterns consume text before later ones see it.
 */
export interface Detector {
  name: string;
  pattern: RegExp;
  placeholder: string;
  /**
   * Keep a regex hit only when this says so. Lets a pattern match simple
   * candidate runs (linear) and test character classes in code, instead of
   * lookaheads that rescan the run from every position (quadratic in its length).
   */
  accept?: (match: string) => boolean;
}

/**
 * Non-blank runs longer than this many characters are replaced whole by
 * `<secret>` before any detector runs (anonymization) and refused by the last
 * gate as `long-token`: no detector then scans a run longer than this, so a
 * pattern that backtracks over a run costs at most this squared per run —
 * linear in the text (docs/error-issue.md "Anonymization").
 */
export const MAX_RUN = 256;

/** A maximal non-blank run longer than {@link MAX_RUN}. Linear: it starts only where a run starts. */
export const OVERLONG_RUN = new RegExp(`(?<!\\S)\\S{${MAX_RUN + 1},}`, 'g');

/** `text` with every run longer than {@link MAX_RUN} blanked to one space (for scans that need no identity from it). */
export function blankOverlongRuns(text: string): string {
  return text.replace(OVERLONG_RUN, ' ');
}

/**
 * Pieces of `MAX_RUN` characters, overlapping by half, of every run longer
 * than {@link MAX_RUN}: a scan of each piece is bounded, and any hit up to
 * `MAX_RUN / 2` characters long lies whole inside some piece. Hits cut at a
 * piece edge only add more (shorter) identities: fail-closed.
 */
export function overlongRunPieces(text: string): string[] {
  const pieces: string[] = [];
  const step = MAX_RUN / 2;
  for (const m of text.matchAll(new RegExp(OVERLONG_RUN.source, OVERLONG_RUN.flags))) {
    const run = m[0];
    for (let i = 0; i < run.length; i += step) {
      pieces.push(run.slice(i, i + MAX_RUN));
      if (i + MAX_RUN >= run.length) break;
    }
  }
  return pieces;
}

const hasDigit = (s: string) => /[0-9]/.test(s);
const hasLetter = (s: string) => /[A-Za-z]/.test(s);
const hasHexLetter = (s: string) => /[a-f]/.test(s);

/**
 * `text` with every accepted hit of `d` replaced by its placeholder (`$1`…
 * name the pattern's groups: a secret's key stays, its value goes). When
 * `hits` is given, `d.name` is added to it if a hit changed the text — a
 * placeholder already in place is no hit, so a reduced text has none.
 */
export function applyDetector(text: string, d: Detector, hits?: Set<string>): string {
  return text.replace(d.pattern, (...args: unknown[]) => {
    const m = args[0] as string;
    if (d.accept && !d.accept(m)) return m;
    const groups = args.slice(1, -2) as Array<string | undefined>;
    const out = d.placeholder.replace(/\$(\d)/g, (_, n: string) => groups[Number(n) - 1] ?? '');
    if (out !== m) hits?.add(d.name);
    return out;
  });
}

/** True when `text` has an accepted hit of `d` that would change it. */
export function detects(text: string, d: Detector): boolean {
  const hits = new Set<string>();
  applyDetector(text, d, hits);
  return hits.size > 0;
}

/** Host suffixes a host name is recognised by (one home: ../hosts.ts). */
const TLDS = HOST_SUFFIXES.join('|');

/** The identity detectors, in the order they are applied (docs/error-issue.md "The last gate"): secrets by shape first. */
export const DETECTORS: readonly Detector[] = [
  ...SECRET_SHAPES,
  { name: 'file-url', pattern: /\bfile:\/\/[^\s'"`<>():,;]*/gi, placeholder: '<path>' },
  { name: 'url', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>)]+/gi, placeholder: '<url>' },
  {
    name: 'email',
    pattern: /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu,
    placeholder: '<email>',
    // `vitest@1.6.0` is a package at a version, not a mailbox.
    accept: (m) => /\p{L}/u.test(m.slice(m.indexOf('@'))),
  },
  ...USER_AT_HOST,
  { name: 'percent-encoded-path', pattern: /(?<![^\s'"`<>():,;])[^\s'"`<>():,;]*%(?:2[Ff]|5[Cc])[^\s'"`<>():,;]*/g, placeholder: '<path>' },
  { name: 'windows-path', pattern: /\b[A-Za-z]:(?:\\|\\\\|\/)[^\s'"`<>():,;]*/g, placeholder: '<path>' },
  // `~/…`, `~user` and `~user/…`: a home directory in the shell's spelling.
  { name: 'home-path', pattern: /(?<![\w~])~(?:[\p{L}_][\p{L}\p{M}\p{N}_.-]*(?:\/[^\s'"`<>():,;]*)?|\/[^\s'"`<>():,;]*)/gu, placeholder: '<path>' },
  { name: 'uuid', pattern: /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g, placeholder: '<uuid>' },
  ...REGISTRY_IMAGE,
  { name: 'posix-path', pattern: /(?<![\w<>.-])\/(?:[^\s/'"`<>:,;()]+\/)*[^\s/'"`<>:,;()]+\/?/g, placeholder: '<path>' },
  { name: 'relative-path', pattern: /(?<![\p{L}\p{N}_<>/-])[\p{L}\p{M}\p{N}_.@+-]+(?:\/[\p{L}\p{M}\p{N}_.@+-]+)+\/?/gu, placeholder: '<path>' },
  { name: 'ipv4', pattern: /\b(?:\d{1,3}\.){3}\d{1,3}\b/g, placeholder: '<ip>' },
  {
    name: 'ipv6',
    pattern: /(?<![\w:])(?:(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}:){1,6}:(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*)?)(?![\w:])/g,
    placeholder: '<ip>',
  },
  { name: 'host', pattern: new RegExp(`\\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+(?:${TLDS})\\b`, 'gi'), placeholder: '<host>' },
  // A maximal run of 24+ token characters with a digit and a letter (tested in code: linear).
  { name: 'long-token', pattern: /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{24,}/g, placeholder: '<secret>', accept: (m) => hasDigit(m) && hasLetter(m) },
];

/** Generic (non-identity) volatile parts normalized for clustering: times, hashes, numbers. */
export const VOLATILE: readonly Detector[] = [
  {
    name: 'time',
    pattern: /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b|\b\d{2}:\d{2}:\d{2}(?:\.\d+)?\b/g,
    placeholder: '<time>',
  },
  // 7–64 hex digits as a whole word with a digit and a letter (tested in code: linear).
  { name: 'hash', pattern: /\b[0-9a-f]{7,64}\b/g, placeholder: '<hash>', accept: (m) => hasDigit(m) && hasHexLetter(m) },
  { name: 'number', pattern: /(?<![\w<])\d+(?:\.\d+)?(?![\w>])/g, placeholder: '<n>' },
];

/** The placeholders anonymization may leave in text (the gate's allowlist of `<…>` tokens). */
export const PLACEHOLDERS = [
  '<secret>',
  '<path>',
  '<url>',
  '<email>',
  '<uuid>',
  '<ip>',
  '<host>',
  '<image>',
  '<time>',
  '<hash>',
  '<n>',
  '<name>',
  '<id>',
] as const;
