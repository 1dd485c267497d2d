import { lstatSync, mkdirSync, readdirSync, rmdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { randomHex } from './random-hex.js';
import { dirname, join } from 'node:path';
import { InputError, OkstraError, resourceCause } from '@okstra/core';
import { heldLocks, lockLost, stillHeld, type HeldLock } from './lock-registry.js';
import { canonicalPath } from '@okstra/paths';
import { isAlive } from './write-file.js';

/**
 * The name of a file's lock directory is its real path + this suffix
 * (docs/conventions.md "Locks"); run-audit's `write-leftover` check finds
 * a killed holder's lock by it.
 */
export const LOCK_SUFFIX = '.lock';
/** A held lock not refreshed for this long is stale (its holder is stopped or hung), ms. */
export const LOCK_STALE_MS = 10_000;
/** How often a holder refreshes its lock's mtime, ms. */
const REFRESH_MS = 2_000;
/** How long a caller waits for a live holder before giving up, ms. */
const WAIT_MS = 30_000;
/** An empty lock directory older than this is a holder killed between mkdir and its owner entry, ms. */
const EMPTY_GRACE_MS = 1_000;
const OWNER = /^owner-(\d+)-[0-9a-f]+$/;

/**
 * Run `fn` while holding the lock of `path`: the directory `<real path>.lock`
 * (so a symlink and its target, or any two names of one file, share one lock),
 * holding one entry `owner-<pid>-<hex>`. Concurrent read-modify-write of one
 * state file from several processes serializes here.
 *
 * Reclaimed at once: a lock whose owner pid is dead, an empty lock directory
 * older than 1 s, and lock paths that are a file, a symlink (dangling or not)
 * or another non-directory — no okstra holder makes those. Reclaimed after
 * {@link LOCK_STALE_MS}: a lock whose live holder stopped refreshing it, or
 * whose mtime lies in the future. Reported at once (exit 2, with the `rm`
 * that fixes it): a lock directory holding anything but one owner entry.
 * A holder whose lock was taken over finds out before its write lands
 * (`writeBytesAtomic` checks) and fails with exit 2 and one line.
 * Rules: docs/conventions.md "Locks".
 * @throws OkstraError `OKSTRA_LOCK_TIMEOUT` (exit 2) when a live holder keeps
 *   it for 30 s; InputError for a foreign lock directory, a taken-over lock,
 *   or a directory that cannot be created.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const real = canonicalPath(path);
  const lockDir = `${real}${LOCK_SUFFIX}`;
  try {
    mkdirSync(dirname(real), { recursive: true });
  } catch (error) {
    throw new InputError(`cannot create its directory (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file: path });
  }
  const lock = await acquire(real, lockDir, path);
  heldLocks.set(real, lock);
  const timer = setInterval(() => refresh(lock), REFRESH_MS);
  timer.unref();
  try {
    const result = await fn();
    if (lock.compromised || !stillHeld(lock)) throw lockLost(lock, path);
    return result;
  } finally {
    clearInterval(timer);
    heldLocks.delete(real);
    if (!lock.compromised && stillHeld(lock)) {
      try {
        unlinkSync(join(lockDir, lock.owner));
        rmdirSync(lockDir);
      } catch {
        // taken over meanwhile: nothing of ours is left to remove
      }
    }
  }
}

async function acquire(real: string, lockDir: string, file: string): Promise<HeldLock> {
  const owner = `owner-${process.pid}-${randomHex(6)}`;
  const deadline = Date.now() + WAIT_MS;
  let delay = 5;
  let holder = '';
  let missing = 0;
  for (;;) {
    try {
      mkdirSync(lockDir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOENT: no directory to make the lock in. Once may be a concurrent remove-and-recreate of the
      // parent; twice in a row it is the place itself (a vanished parent, /proc): never wait on it.
      if (code === 'ENOENT' && ++missing > 1) throw lockError(lockDir, file, error);
      if (code !== 'EEXIST' && code !== 'ENOENT') throw lockError(lockDir, file, error);
      if (code === 'EEXIST') missing = 0;
      holder = reclaimIfStale(lockDir, file);
      if (holder === '' && Date.now() <= deadline) continue;
      if (holder === '') throw lockError(lockDir, file, error);
      if (Date.now() > deadline) {
        throw new OkstraError('OKSTRA_LOCK_TIMEOUT', `could not lock it within ${WAIT_MS / 1000} s: ${holder} holds ${lockDir}`, { file });
      }
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      delay = Math.min(delay * 1.5, 100);
      continue;
    }
    try {
      writeFileSync(join(lockDir, owner), '');
      return { file: real, lockDir, owner, ino: lstatSync(lockDir).ino, compromised: false };
    } catch (error) {
      // ENOENT: another caller removed the directory between our mkdir and this write — look again.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      // The directory is ours (mkdir succeeded) but holds no owner entry: never leave it behind
      // (a full disk or inode table, EMFILE) — the next caller would wait out the empty-lock grace.
      try {
        unlinkSync(join(lockDir, owner));
      } catch {
        // never created
      }
      try {
        rmdirSync(lockDir);
      } catch {
        // reclaimed by another caller already
      }
      throw lockError(lockDir, file, error);
    }
  }
}

/** The one line of a lock that could not be taken for a reason other than a holder. */
function lockError(lockDir: string, file: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException).code;
  const cause = resourceCause(code) ?? code ?? 'error';
  return new InputError(`cannot create its lock ${lockDir} (${cause}); nothing was changed`, { file });
}

/**
 * Look at an existing lock path; remove it when no live holder can own it.
 * @returns '' when it was removed (or vanished) — try again; else who holds it.
 * @throws InputError for a lock directory okstra did not make.
 */
function reclaimIfStale(lockDir: string, file: string): string {
  let st;
  try {
    st = lstatSync(lockDir);
  } catch {
    return '';
  }
  if (!st.isDirectory()) {
    // A file, a symlink (dangling or not), a FIFO: never a holder's lock directory.
    return removeQuietly(() => unlinkSync(lockDir));
  }
  let names: string[];
  try {
    names = readdirSync(lockDir);
  } catch {
    return '';
  }
  const now = Date.now();
  const age = now - st.mtimeMs;
  if (names.length === 0) {
    return age > EMPTY_GRACE_MS || age < -LOCK_STALE_MS ? removeQuietly(() => rmdirSync(lockDir)) : 'a holder starting up';
  }
  const m = names.length === 1 ? OWNER.exec(names[0] as string) : null;
  if (!m) {
    throw new InputError(`its lock ${lockDir} is a directory okstra did not make (it holds ${names.length} entries)`, {
      file,
      hint: `if no okstra command is running on this file, remove it: rm -r '${lockDir}'`,
    });
  }
  const pid = Number(m[1]);
  if (!isAlive(pid) || age > LOCK_STALE_MS || age < -LOCK_STALE_MS) {
    // Unlinking the owner entry is the one step only one reclaimer can win.
    return removeQuietly(() => {
      unlinkSync(join(lockDir, names[0] as string));
      rmdirSync(lockDir);
    });
  }
  return `process ${pid}`;
}

function removeQuietly(remove: () => void): string {
  try {
    remove();
  } catch {
    // another process reclaimed it first, or a new holder took it: look again
  }
  return '';
}

function refresh(lock: HeldLock): void {
  if (lock.compromised) return;
  if (!stillHeld(lock)) {
    lock.compromised = true;
    return;
  }
  try {
    const now = new Date();
    utimesSync(lock.lockDir, now, now);
  } catch {
    lock.compromised = true;
  }
}
