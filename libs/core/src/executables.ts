import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The one PATH lookup (docs/conventions.md "One rule, one home"): a bare
 * command name is looked for in each non-empty `PATH` entry in order (split
 * on the platform delimiter; an empty entry is skipped, never read as the
 * cwd); the first candidate that is a regular file (symlinks followed) and
 * executable by this process wins. A directory with the name — even one
 * with its execute bit — is not a command. A name containing `/` is a path,
 * not a command name: it is never looked up.
 * @returns the candidate's path (`<entry>/<name>`), or null.
 */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  if (name === '' || name.includes('/')) return null;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
