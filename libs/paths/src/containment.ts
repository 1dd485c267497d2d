import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InputError } from '@okstra/core';
import { canonicalPath } from './real-path.js';
import { isNormalAbsolute } from './fast-join.js';

/**
 * Resolve `path` (absolute, or relative to `projectRoot`) and refuse it when
 * it escapes the project root — the one containment rule (docs/conventions.md
 * "Containment"): lexically, and then by real path (every symlink of every
 * existing component resolved, the root's own real path too), so a symlink
 * inside the project that points out is refused like `../`.
 * @returns the absolute (lexical) path.
 * @throws InputError naming `label` (the file or field the path came from).
 */
export function resolveInsideRoot(projectRoot: string, path: string, label = 'path'): string {
  const root = resolve(projectRoot);
  const abs = isAbsolute(path) ? resolve(path) : resolve(root, path);
  if (!isInside(root, abs)) {
    throw new InputError(`'${path}' escapes the project root ${root}`, { field: label });
  }
  assertReallyInside(root, abs, label, path);
  return abs;
}

/**
 * The real-path half of {@link resolveInsideRoot}: `canonicalPath(abs)` must
 * lie inside `canonicalPath(projectRoot)`.
 * @throws InputError naming `label` and both real paths.
 */
export function assertReallyInside(projectRoot: string, abs: string, label = 'path', shown = abs): void {
  const realRoot = canonicalPath(projectRoot);
  const real = canonicalPath(abs);
  if (!isInside(realRoot, real)) {
    throw new InputError(`'${shown}' leads outside the project root ${realRoot} through a symlink (real path ${real})`, { field: label });
  }
}

/** True when `candidate` is `root` or below it (lexically, after resolution). */
export function isInside(root: string, candidate: string): boolean {
  // Two paths already in resolved form need no relative(): a prefix test at a segment boundary is the same answer.
  if (isNormalAbsolute(root) && isNormalAbsolute(candidate)) return candidate === root || candidate.startsWith(root.length === 1 ? root : root + '/');
  const rel = relative(resolve(root), resolve(candidate));
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** `abs` relative to `projectRoot`, with `/` separators (for portable records). */
export function toProjectRelative(projectRoot: string, abs: string): string {
  return relative(resolve(projectRoot), resolve(abs)).split(sep).join('/');
}

/**
 * The project root a path inside `.okstra` belongs to: the directory that
 * holds the nearest `.okstra` ancestor segment.
 * @returns null when `path` has no `.okstra` segment.
 */
export function projectRootOf(path: string): string | null {
  const parts = resolve(path).split(sep);
  const at = parts.lastIndexOf('.okstra');
  if (at <= 0) return at === 0 ? sep : null;
  return parts.slice(0, at).join(sep) || sep;
}
