import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { randomHex } from './random-hex.js';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError, resourceCause, stableStringify } from '@okstra/core';
import { assertLocksHeld } from './lock-registry.js';
import { canonicalPath } from '@okstra/paths';

/** The infix of every temp file a write makes: `.<name>.okstra-tmp-<pid>-<hex>` beside the target. */
export const TEMP_MARK = '.okstra-tmp-';

/**
 * Write text so readers only ever see the old or the new content
 * ({@link writeBytesAtomic}).
 * @throws InputError as {@link writeBytesAtomic}.
 */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  writeBytesAtomic(path, Buffer.from(text, 'utf8'));
}

/**
 * Atomic, durable replace of one file: a temp file in the same directory
 * (`O_EXCL | O_NOFOLLOW`), write, fsync, rename over the target, fsync of the
 * directory so the rename survives a power cut. A process killed at any point
 * leaves the old or the new content, never a mix; the temp file it may leave
 * is removed by the next writer of that file (its pid is dead) and reported
 * by run-audit. The target's final component is never followed: an existing
 * symlink there is exit 2 (write to the real file by its own name), as is a
 * directory, FIFO, socket or device. Creates missing parent directories.
 * When this process holds the file's lock ({@link withFileLock}) and that
 * lock was compromised (taken over as stale), the write does not land.
 * (write-file-atomic is not used here: it follows a symlinked target and
 * does not fsync the directory.) Rules: docs/conventions.md "Writing files".
 * @throws InputError (exit 2) naming the path.
 */
export function writeBytesAtomic(path: string, bytes: Uint8Array): void {
  prepareAtomicWrite(path, bytes).commit();
}

/**
 * A write {@link prepareAtomicWrite} has made durable beside its target but
 * not yet put in place. `commit()` renames it over the target (and fsyncs the
 * directory). `discard()` undoes it: before the commit it removes the temp
 * file; after the commit of a file that did not exist before, it removes that
 * file; either way then the directories the write created. (Discarding a
 * committed replacement of an existing file is a bug: its old bytes are gone.)
 */
export interface PreparedWrite {
  commit(): void;
  discard(): void;
}

/**
 * The first half of {@link writeBytesAtomic}: every step that needs space
 * (missing parent directories, the temp file, its bytes, fsync) without the
 * rename. A command with several writes and one destructive step (seed
 * `--restart-from-round0`) prepares them all first, so a full disk stops it
 * before anything changed. On failure nothing is left behind: the temp file
 * is removed, as are the directories this call created.
 * @throws InputError (exit 2) naming the path and the cause (ENOSPC, EDQUOT,
 *   EFBIG, EMFILE, …).
 */
export function prepareAtomicWrite(path: string, bytes: Uint8Array): PreparedWrite {
  const abs = resolve(path);
  const existing = checkTarget(abs, path);
  const dir = dirname(abs);
  let created: string | undefined;
  try {
    created = mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw writeError(error, path);
  }
  removeDeadTemps(abs);
  const temp = join(dir, `.${basename(abs)}${TEMP_MARK}${process.pid}-${randomHex(4)}`);
  let committed = false;
  const discard = () => {
    if (committed && existing) throw new Error(`cannot undo the replacement of ${path}: its old bytes are gone`);
    try {
      unlinkSync(committed ? abs : temp);
    } catch {
      // never created
    }
    removeCreatedDirs(dir, created);
  };
  let fd: number | undefined;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, existing ? existing.mode & 0o777 : 0o666);
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    discard();
    throw writeError(error, path);
  }
  return {
    discard,
    commit: () => {
      try {
        assertLocksHeld(canonicalPath(abs), path);
        renameSync(temp, abs);
      } catch (error) {
        discard();
        throw writeError(error, path);
      }
      committed = true;
      fsyncDirectory(dir);
    },
  };
}

/** Remove the (empty) directories from `dir` up to `first`, the first one `mkdir -p` created; a directory someone filled meanwhile stays. */
function removeCreatedDirs(dir: string, first: string | undefined): void {
  if (first === undefined) return;
  for (let d = dir; d.length >= first.length; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === first) return;
  }
}

/**
 * Check, before a command changes anything, that `path` could be written by
 * {@link writeBytesAtomic}: absent, or a regular file that is not a symlink.
 * @throws InputError (exit 2) naming `file`, as writeBytesAtomic would.
 */
export function assertWritableTarget(path: string, file: string = path): void {
  checkTarget(resolve(path), file);
}

/** lstat the target: a new file, or an existing regular file (its stats). Never a symlink. */
function checkTarget(abs: string, file: string): Stats | undefined {
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch {
    return undefined; // ENOENT: a new file; ENOTDIR and the like surface from mkdir/open below.
  }
  if (st.isSymbolicLink()) {
    throw new InputError('is a symlink; refusing to write through it (name the real file, or remove the link)', { file });
  }
  if (st.isDirectory()) throw new InputError('is a directory, expected a file to write', { file });
  if (!st.isFile()) throw new InputError('is not a regular file; refusing to replace it', { file });
  return st;
}

/** fsync a directory so a rename in it is durable; file systems that cannot are skipped. */
export function fsyncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // EINVAL on some file systems: nothing more can be done.
  } finally {
    closeSync(fd);
  }
}

/** Remove the temp files of `abs` whose writer is gone (killed mid-write). */
function removeDeadTemps(abs: string): void {
  removeDeadTempsIn(dirname(abs), `.${basename(abs)}${TEMP_MARK}`);
}

/**
 * Remove every temp file in `dir` (names holding {@link TEMP_MARK}, or only
 * those starting with `prefix`) whose writer pid is dead — a writer killed
 * mid-write. The next writer of a file cleans its own temps; a command whose
 * targets change name from run to run (seed's kept copies, named by content)
 * sweeps their directory with this. A missing directory is nothing to do.
 * @returns how many were removed.
 */
export function removeDeadTempsIn(dir: string, prefix?: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const at = name.lastIndexOf(TEMP_MARK);
    if (at < 0 || (prefix !== undefined && !name.startsWith(prefix))) continue;
    const pid = Number(name.slice(at + TEMP_MARK.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) continue;
    try {
      unlinkSync(join(dir, name));
      removed++;
    } catch {
      // another writer removed it first
    }
  }
  return removed;
}

/** True while process `pid` exists (EPERM: it exists under another user). */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function writeError(error: unknown, file: string): InputError {
  if (error instanceof InputError) return error;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'EEXIST' || code === 'ENOTDIR') return new InputError('cannot create it: a parent path is a file, not a directory', { file });
  if (code === 'EISDIR') return new InputError('is a directory, expected a file to write', { file });
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new InputError(`cannot write it (${code})`, { file });
  const resource = resourceCause(code);
  if (resource) return new InputError(`cannot write it: ${resource}; nothing was changed`, { file });
  if (code) return new InputError(`cannot write it (${code})`, { file });
  return new InputError(`cannot write it (${(error as Error)?.message ?? String(error)})`, { file });
}

/**
 * Refuse an output path that is one of the command's inputs (after following
 * symlinks), so a typo can never overwrite what the command reads.
 * @param output the output path and the flag it came from.
 * @param inputs the input paths and their flags.
 * @throws InputError (exit 2) naming both flags.
 */
export function assertOutputNotInput(output: { path: string; flag: string }, inputs: ReadonlyArray<{ path: string; flag: string }>): void {
  const out = canonicalPath(output.path);
  for (const input of inputs) {
    if (canonicalPath(input.path) === out) {
      throw new InputError(`${output.flag} is the same file as ${input.flag}; refusing to overwrite an input`, { file: output.path });
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
