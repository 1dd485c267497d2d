import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The real path a path names: `realpath` of its longest existing prefix (every
 * symlink there resolved, the root's own too) joined with the components that
 * do not exist yet. Two names of one file — a symlink and its target, `a/../b`
 * and `b` — give the same string; locks and containment compare these.
 */
export function canonicalPath(path: string): string {
  const abs = resolve(path);
  const rest: string[] = [];
  let at = abs;
  for (;;) {
    try {
      const real = realpathSync(at);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch {
      const up = dirname(at);
      if (up === at) return abs;
      rest.push(basename(at));
      at = up;
    }
  }
}
