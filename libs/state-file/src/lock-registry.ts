import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '@okstra/core';

/** A lock this process holds: its directory, the owner entry in it, the directory's inode when taken. */
export interface HeldLock {
  /** The real path of the locked file. */
  file: string;
  lockDir: string;
  owner: string;
  ino: number;
  compromised: boolean;
}

/** Locks held by this process, by the real path of the locked file. */
export const heldLocks = new Map<string, HeldLock>();

/** True while `lock` is still ours: same directory inode, our owner entry still in it. */
export function stillHeld(lock: HeldLock): boolean {
  try {
    return lstatSync(lock.lockDir).ino === lock.ino && lstatSync(join(lock.lockDir, lock.owner)).isFile();
  } catch {
    return false;
  }
}

/**
 * Called by every atomic write just before its rename: when any lock this
 * process holds was taken over (the holder was paused past the stale limit),
 * the write must not land — the other process's update would be lost.
 * @throws InputError (exit 2) naming `file`.
 */
export function assertLocksHeld(_real: string, file: string): void {
  for (const lock of heldLocks.values()) {
    if (lock.compromised || !stillHeld(lock)) {
      lock.compromised = true;
      throw lockLost(lock, file);
    }
  }
}

/** The one-line error of a holder whose lock was taken over. */
export function lockLost(lock: HeldLock, file: string): InputError {
  return new InputError(`its lock ${lock.lockDir} was taken over while this command held it (paused or stalled past the stale limit); nothing was written`, {
    file,
    hint: 'run the command again',
  });
}
