import { join as nodeJoin, resolve as nodeResolve, sep } from 'node:path';

/**
 * A name that `path.join` keeps as it is: not empty, no `/`, not `.` or `..`.
 * (`\` is an ordinary character in a POSIX name.)
 */
function isPlainName(name: string): boolean {
  return name.length > 0 && name.indexOf('/') === -1 && name !== '.' && name !== '..';
}
/** An absolute POSIX path with no `.`/`..` segment, no empty segment and no trailing `/` (what `path.resolve` returns). */
const NOT_NORMAL = /\/\.{1,2}(?:\/|$)|\/\/|.\/$/;

/**
 * True for an absolute path already in the form `path.resolve` returns: no
 * `.`/`..` segment, no empty segment, no trailing `/` (`/` itself is normal).
 * Always false on Windows, where callers take `path.resolve`.
 */
export function isNormalAbsolute(p: string): boolean {
  return sep === '/' && p.charCodeAt(0) === 47 && !NOT_NORMAL.test(p);
}

// Directories found normal: a run's paths are built from a few directories dozens of times each.
const NORMAL_DIRS = new Set<string>();

/**
 * `path.join(dir, ...names)`, the same string, without `path.join`'s full
 * normalization when `dir` is a normal absolute path ({@link isNormalAbsolute})
 * and every name a plain name (no `/`, not `.`, `..` or empty): then the result
 * is `dir/name/…` as it stands. Anything else goes through `path.join`. The
 * layout builds thousands of paths per audit of a large project, and
 * `path.join` was the largest single cost of run-audit over 5,000 runs
 * (docs/release.md "Bundled bins", issue #24 item 6).
 */
export function joinPath(dir: string, ...names: string[]): string {
  if (!NORMAL_DIRS.has(dir)) {
    if (!isNormalAbsolute(dir)) return nodeJoin(dir, ...names);
    if (NORMAL_DIRS.size >= 256) NORMAL_DIRS.clear();
    NORMAL_DIRS.add(dir);
  }
  let out = dir.length === 1 ? '' : dir;
  for (const name of names) {
    if (!isPlainName(name)) return nodeJoin(dir, ...names);
    out += '/' + name;
  }
  return out.length === 0 ? '/' : out;
}

/** `path.resolve(p)`, returning `p` itself when it is already {@link isNormalAbsolute}. */
export function resolvePath(p: string): string {
  return isNormalAbsolute(p) ? p : nodeResolve(p);
}
