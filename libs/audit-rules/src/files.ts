import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * Existence and text reads of run artifacts. Existence is answered from one
 * `readdir` per indexed directory (a run directory's `manifests/`, `prompts/`,
 * `worker-results/`, `reports/`, `state/`), so an audit of thousands of runs
 * does not `stat` every expected file; paths outside the indexed directories
 * fall back to `existsSync`.
 */
export interface FileIndex {
  /** True when the absolute path exists (a file or a directory). */
  exists(abs: string): boolean;
  /** The names in an indexed directory, sorted; [] when it does not exist. */
  list(dir: string): readonly string[];
  /** The UTF-8 text of a file, or null when it does not exist or cannot be read. */
  readText(abs: string): Promise<string | null>;
}

/** Build a {@link FileIndex} over `dirs` (absolute; missing directories count as empty). */
export async function indexDirs(dirs: readonly string[]): Promise<FileIndex> {
  const listings = new Map<string, string[]>();
  await Promise.all(
    dirs.map(async (dir) => {
      const abs = resolve(dir);
      listings.set(abs, await listDir(abs));
    }),
  );
  const sets = new Map([...listings].map(([dir, names]) => [dir, new Set(names)]));
  return {
    exists(abs) {
      const full = resolve(abs);
      const names = sets.get(dirname(full));
      if (names) return names.has(full.slice(dirname(full).length + 1));
      return existsSync(full);
    },
    list(dir) {
      return listings.get(resolve(dir)) ?? [];
    },
    async readText(abs) {
      try {
        return await readFile(abs, 'utf8');
      } catch {
        return null;
      }
    },
  };
}

/** Sorted entry names of `dir`; [] when it is missing or not a directory. */
export async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

/** The sub-directories of a run directory that hold its artifacts (ARCHITECTURE.md §4). */
export const RUN_ARTIFACT_DIRS = ['manifests', 'prompts', 'worker-results', 'reports', 'state'] as const;

/** Absolute artifact directories of one run directory. */
export function runArtifactDirs(runDir: string): string[] {
  return RUN_ARTIFACT_DIRS.map((d) => join(runDir, d));
}
