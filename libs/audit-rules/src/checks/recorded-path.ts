import { isAbsolute, sep } from 'node:path';
import { isNormalAbsolute, resolveInsideRoot } from '@okstra/paths';

/**
 * Resolve a path recorded in an artifact (project-root-relative or absolute).
 * @returns the absolute path, or null when the path escapes the project root
 *   (such a path is never read: docs/contracts.md §3).
 */
export function resolveRecorded(projectRoot: string, recorded: string): string | null {
  // Fast path for the common shapes (a plain relative path, or an absolute one under the root);
  // anything with `.`/`..` segments goes through the containment check of libs/paths.
  if (!isAbsolute(recorded)) {
    const joined = `${projectRoot}/${recorded}`;
    if (isNormalAbsolute(joined)) return joined; // what join() would return for it
  }
  if (isNormalAbsolute(recorded) && recorded.startsWith(projectRoot + sep)) return recorded;
  try {
    return resolveInsideRoot(projectRoot, recorded);
  } catch {
    return null;
  }
}
