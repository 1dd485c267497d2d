import { existsSync, readdirSync } from 'node:fs';
import { isRegularIfExists, NotRegularFileError, readRegularFileSync } from '@okstra/state-file';
import { resolve, sep } from 'node:path';
import { resolvePath, joinPath as join } from '@okstra/paths';
import { InputError } from '@okstra/core';

/**
 * Existence and text reads of run artifacts. Existence is answered from one
 * `readdir` per indexed directory (a run directory's `manifests/`, `prompts/`,
 * `worker-results/`, `reports/`, `state/`), so an audit of thousands of runs
 * does not `stat` every expected file; paths outside the indexed directories
 * fall back to `existsSync`. Reads are synchronous on purpose: an audit reads
 * thousands of small files one after another, and a thread-pool round trip
 * per open/stat/read/close costs more than the read itself (bench/run-audit.bench.mjs).
 */
export interface FileIndex {
  /** True when the absolute path exists (a file or a directory). */
  exists(abs: string): boolean;
  /** The names in an indexed directory, sorted; [] when it does not exist. */
  list(dir: string): readonly string[];
  /**
   * The UTF-8 text of a file, or null when it does not exist or cannot be read. A leading BOM is the
   * file's encoding mark, not its text, and is dropped (docs/conventions.md "Input files": "strict UTF-8,
   * a BOM dropped"), so every JSON artifact parses with or without one.
   * @throws InputError `is not a regular file` (file: `abs`) when the path is a
   *   directory, FIFO, socket or device (symlinks followed) — reading one could block forever.
   */
  readText(abs: string): Promise<string | null>;
}

/** Build a {@link FileIndex} over `dirs` (absolute; missing directories count as empty). */
export async function indexDirs(dirs: readonly string[]): Promise<FileIndex> {
  const listings = new Map<string, string[]>();
  for (const dir of dirs) {
    const abs = resolve(dir);
    listings.set(abs, listDirSync(abs));
  }
  const sets = new Map([...listings].map(([dir, names]) => [dir, new Set(names)]));
  // Texts read through this index: the heartbeat check and the worker-audit rules read the same sidecar.
  const texts = new Map<string, string | null>();
  let cachedChars = 0;
  return {
    exists(abs) {
      // An indexed directory's key is resolved already, so `<key>/<plain name>` needs no resolve.
      const at = abs.lastIndexOf('/');
      const listed = sets.get(abs.slice(0, at));
      const name = abs.slice(at + 1);
      if (listed && name !== '' && name !== '.' && name !== '..') return listed.has(name);
      const full = resolvePath(abs);
      const cut = full.lastIndexOf(sep);
      const names = sets.get(full.slice(0, cut) || sep);
      if (names) return names.has(full.slice(cut + 1));
      return existsSync(full);
    },
    list(dir) {
      return listings.get(resolvePath(dir)) ?? [];
    },
    async readText(abs) {
      const cached = texts.get(abs);
      if (cached !== undefined) return cached;
      let text: string | null;
      try {
        text = readRegularFileSync(abs)?.toString('utf8') ?? null;
        if (text?.charCodeAt(0) === 0xfeff) text = text.slice(1);
      } catch (error) {
        // run-audit words the refusal its own way (docs/run-audit.md); the rule is state-file's.
        if (error instanceof NotRegularFileError) throw new InputError('is not a regular file', { file: abs });
        text = null;
      }
      // Keep only about one run's texts (TEXT_CACHE_SIZE, TEXT_CACHE_CHARS): texts that
      // outlive a run get promoted to the old generation and swell peak RSS.
      if (texts.size >= TEXT_CACHE_SIZE || cachedChars > TEXT_CACHE_CHARS) {
        texts.clear();
        cachedChars = 0;
      }
      texts.set(abs, text);
      cachedChars += text?.length ?? 0;
      return text;
    },
  };
}

/** Sorted entry names of `dir`; [] when it is missing or not a directory. */
export async function listDir(dir: string): Promise<string[]> {
  return listDirSync(dir);
}

/** Synchronous {@link listDir}. */
export function listDirSync(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

// A run's worker texts (three workers: result, prompt, sidecar each) and its report fit; 8 did not, so later checks re-read them.
const TEXT_CACHE_SIZE = 32;
/** …and at most this many characters, so a few large results are not all kept alive together. */
const TEXT_CACHE_CHARS = 4 * 1024 * 1024;

/** The sub-directories of a run directory that hold its artifacts (docs/contracts.md §4). */
export const RUN_ARTIFACT_DIRS = ['manifests', 'prompts', 'worker-results', 'reports', 'state'] as const;

/** Absolute artifact directories of one run directory. */
export function runArtifactDirs(runDir: string): string[] {
  return RUN_ARTIFACT_DIRS.map((d) => join(runDir, d));
}

/**
 * Throw unless `abs` is a regular file or cannot be stat-ed — the rule is
 * `isRegularIfExists` of libs/state-file; the words are run-audit's.
 * @throws InputError `is not a regular file` with `file: label`.
 */
export function assertRegularOrMissing(abs: string, label: string = abs): void {
  if (!isRegularIfExists(abs)) throw new InputError('is not a regular file', { file: label });
}
