import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InputError } from '@okstra/core';

/**
 * Resolve `path` (absolute, or relative to `projectRoot`) and refuse it when
 * it escapes the project root (ARCHITECTURE.md §3 "No shell").
 * @returns the absolute path.
 * @throws InputError naming `label` (the file or field the path came from).
 */
export function resolveInsideRoot(projectRoot: string, path: string, label = 'path'): string {
  const root = resolve(projectRoot);
  const abs = isAbsolute(path) ? resolve(path) : resolve(root, path);
  if (!isInside(root, abs)) {
    throw new InputError(`'${path}' escapes the project root ${root}`, { field: label });
  }
  return abs;
}

/** True when `candidate` is `root` or below it (lexically, after resolution). */
export function isInside(root: string, candidate: string): boolean {
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
