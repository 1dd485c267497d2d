/**
 * Host-name suffixes: the top-level domains and private-network suffixes a
 * dotted name is recognised as a host by. One home for two rules: the
 * error-issue `host` detector (docs/error-issue.md "The last gate") and the
 * worker-audit citation rule, where `db.internal:5432` is a host and port,
 * not a `path:line` (docs/worker-audit-check.md "Citations"). File extensions
 * that are also TLDs (`.md`, `.sh`, `.py`, `.rs`, `.ts`, …) are left out on
 * purpose: `README.md:7` is a file.
 */
export const HOST_SUFFIXES = [
  'com',
  'net',
  'org',
  'io',
  'dev',
  'app',
  'cloud',
  'ai',
  'co',
  'me',
  'info',
  'biz',
  'us',
  'uk',
  'de',
  'fr',
  'jp',
  'kr',
  'cn',
  'in',
  'eu',
  'local',
  'localdomain',
  'internal',
  'lan',
  'corp',
  'home',
  'intranet',
  'test',
  'example',
  'invalid',
  'localhost',
] as const;

const SUFFIXES = new Set<string>(HOST_SUFFIXES);
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;

/**
 * True when `name` (no scheme, no port) is a host rather than a file name:
 * `localhost`, an IPv4 address, a bracketed IPv6 address, or a dotted name
 * whose last label is one of {@link HOST_SUFFIXES} (`db.internal`, `api.example.com`).
 */
export function isHostName(name: string): boolean {
  const n = name.toLowerCase();
  if (n === 'localhost' || IPV4.test(n) || /^\[[0-9a-f:.]+\]$/.test(n)) return true;
  const labels = n.split('.');
  return labels.length >= 2 && labels.every((l) => /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(l)) && SUFFIXES.has(labels[labels.length - 1]!);
}
