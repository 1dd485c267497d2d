import { resolveInsideRoot } from '@okstra/paths';

/**
 * Resolve a path recorded in an artifact (project-root-relative or absolute).
 * @returns the absolute path, or null when the path escapes the project root
 *   (such a path is never read: ARCHITECTURE.md §3).
 */
export function resolveRecorded(projectRoot: string, recorded: string): string | null {
  try {
    return resolveInsideRoot(projectRoot, recorded);
  } catch {
    return null;
  }
}
