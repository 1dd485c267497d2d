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
}

/** Top-level domains a host name is recognised by (file extensions such as .md, .sh, .py, .rs are left out on purpose). */
const TLDS = 'com|net|org|io|dev|app|cloud|ai|co|me|info|biz|us|uk|de|fr|jp|kr|cn|in|eu|local|localdomain|internal|lan|corp|home|intranet|test|example|invalid|localhost';

/** The identity detectors, in the order they are applied (docs/error-issue.md "The last gate"). */
export const DETECTORS: readonly Detector[] = [
  { name: 'secret-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|sk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,})/g, placeholder: '<token>' },
  { name: 'file-url', pattern: /\bfile:\/\/[^\s'"`<>():,;]*/gi, placeholder: '<path>' },
  { name: 'url', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>)]+/gi, placeholder: '<url>' },
  { name: 'email', pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g, placeholder: '<email>' },
  { name: 'percent-encoded-path', pattern: /[^\s'"`<>():,;]*%(?:2[Ff]|5[Cc])[^\s'"`<>():,;]*/g, placeholder: '<path>' },
  { name: 'windows-path', pattern: /\b[A-Za-z]:(?:\\|\\\\|\/)[^\s'"`<>():,;]*/g, placeholder: '<path>' },
  { name: 'home-path', pattern: /~\/[^\s'"`<>():,;]*/g, placeholder: '<path>' },
  { name: 'uuid', pattern: /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g, placeholder: '<uuid>' },
  { name: 'posix-path', pattern: /(?<![\w<>.-])\/(?:[^\s/'"`<>:,;()]+\/)*[^\s/'"`<>:,;()]+\/?/g, placeholder: '<path>' },
  { name: 'relative-path', pattern: /(?<![\w<>/-])[\w.@+-]+(?:\/[\w.@+-]+)+\/?/g, placeholder: '<path>' },
  { name: 'ipv4', pattern: /\b(?:\d{1,3}\.){3}\d{1,3}\b/g, placeholder: '<ip>' },
  { name: 'ipv6', pattern: /(?<![\w:])(?:(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|(?:[0-9a-fA-F]{1,4}:){1,6}:(?:[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{1,4})*)?)(?![\w:])/g, placeholder: '<ip>' },
  { name: 'host', pattern: new RegExp(`\\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+(?:${TLDS})\\b`, 'gi'), placeholder: '<host>' },
  { name: 'long-token', pattern: /\b(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{24,}\b/g, placeholder: '<token>' },
];

/** Generic (non-identity) volatile parts normalized for clustering: times, hashes, numbers. */
export const VOLATILE: readonly Detector[] = [
  { name: 'time', pattern: /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b|\b\d{2}:\d{2}:\d{2}(?:\.\d+)?\b/g, placeholder: '<time>' },
  { name: 'hash', pattern: /\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/g, placeholder: '<hash>' },
  { name: 'number', pattern: /(?<![\w<])\d+(?:\.\d+)?(?![\w>])/g, placeholder: '<n>' },
];

/** The placeholders anonymization may leave in text (the gate's allowlist of `<…>` tokens). */
export const PLACEHOLDERS = ['<token>', '<path>', '<url>', '<email>', '<uuid>', '<ip>', '<host>', '<time>', '<hash>', '<n>', '<user>', '<name>'] as const;
