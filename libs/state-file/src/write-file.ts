import writeFileAtomic from 'write-file-atomic';
import { realpathSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError, stableStringify } from '@okstra/core';

/**
 * Write text so readers only ever see the old or the new content: a temp
 * file in the same directory, fsync, rename (write-file-atomic). A process
 * killed at any point leaves the target intact. Creates the parent directory.
 * @throws InputError (exit 2) naming the path when it is a directory or
 *   another non-regular file (never replaced), when a parent is a file, or
 *   when it cannot be written (permission, read-only file system).
 */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  try {
    const st = await stat(path);
    if (st.isDirectory()) throw new InputError('is a directory, expected a file to write', { file: path });
    if (!st.isFile()) throw new InputError('is not a regular file; refusing to replace it', { file: path });
  } catch (error) {
    if (error instanceof InputError) throw error;
    // ENOENT: a new file. Other stat errors surface from the write below.
  }
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, text, { encoding: 'utf8', fsync: true });
  } catch (error) {
    throw writeError(error, path);
  }
}

function writeError(error: unknown, file: string): InputError {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'EEXIST' || code === 'ENOTDIR') return new InputError('cannot create it: a parent path is a file, not a directory', { file });
  if (code === 'EISDIR') return new InputError('is a directory, expected a file to write', { file });
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new InputError(`cannot write it (${code})`, { file });
  if (code === 'ENOSPC' || code === 'EDQUOT') return new InputError(`cannot write it: no space left (${code})`, { file });
  if (code) return new InputError(`cannot write it (${code})`, { file });
  return error instanceof InputError ? error : new InputError(`cannot write it (${(error as Error)?.message ?? String(error)})`, { file });
}

/**
 * Refuse an output path that is one of the command's inputs (after following
 * symlinks), so a typo can never overwrite what the command reads.
 * @param output the output path and the flag it came from.
 * @param inputs the input paths and their flags.
 * @throws InputError (exit 2) naming both flags.
 */
export function assertOutputNotInput(output: { path: string; flag: string }, inputs: ReadonlyArray<{ path: string; flag: string }>): void {
  const out = canonical(output.path);
  for (const input of inputs) {
    if (canonical(input.path) === out) {
      throw new InputError(`${output.flag} is the same file as ${input.flag}; refusing to overwrite an input`, { file: output.path });
    }
  }
}

function canonical(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    // Not there yet: its parent may still be a symlink.
    try {
      return resolve(realpathSync(dirname(abs)), abs.slice(dirname(abs).length + 1));
    } catch {
      return abs;
    }
  }
}

/** Options of {@link writeJsonAtomic}. */
export interface WriteJsonOptions {
  /**
   * `stable` (default): keys sorted at every depth — for okstra-owned state.
   * `preserve`: insertion order kept — for files another program authored
   * (e.g. a report data.json) where only some values change.
   */
  keyOrder?: 'stable' | 'preserve';
}

/** Serialize `value` as two-space JSON with a trailing newline and write it atomically. */
export async function writeJsonAtomic(path: string, value: unknown, options: WriteJsonOptions = {}): Promise<void> {
  await writeTextAtomic(path, serializeJson(value, options));
}

/** The bytes {@link writeJsonAtomic} writes for `value`. */
export function serializeJson(value: unknown, options: WriteJsonOptions = {}): string {
  return options.keyOrder === 'preserve' ? JSON.stringify(value, null, 2) + '\n' : stableStringify(value);
}
