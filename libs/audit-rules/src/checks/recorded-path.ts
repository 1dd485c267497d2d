import { isAbsolute, join, sep } from 'node:path';
import { resolveInsideRoot } from '@okstra/paths';
import { isNormalAbsolute } from '../files.js';

/**
 * Resolve a path recorded in an artifact (project-root-relative or absolute).
 * @returns the absolute path, or null when the path escapes the project root
 *   (such a path is never read: docs/contracts.md §3).
 */
export function resolveRecorded(projectRoot: string, recorded: string): string | null {
  // Fast path for the common shapes (a plain relative path, or an absolute one under the root);
  // anything with `.`/`..` segments goes through the containment check of libs/paths.
  if (!isAbsolute(recorded) && isNormalAbsolute(`${projectRoot}/${recorded}`)) return join(projectRoot, recorded);
  if (isNormalAbsolute(recorded) && recorded.startsWith(projectRoot + sep)) return recorded;
  try {
    return resolveInsideRoot(projectRoot, recorded);
  } catch {
    return null;
  }
}
