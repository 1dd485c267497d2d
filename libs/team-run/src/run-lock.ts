import { readFileSync, unlinkSync } from 'node:fs';
import { InputError } from '@okstra/core';
import { canonicalPath } from '@okstra/paths';
import { withFileLock, writeTextAtomic } from '@okstra/state-file';
import { isWrapperAlive, processStartTime } from './backends/subprocess.js';

/** What a run lock file holds: who dispatches for the run, since when (ISO-8601 UTC). */
interface RunLockBody {
  pid: number;
  /** The holder's `/proc` start time (`processStartTime`): a recycled pid is not the holder. */
  pidStartTime: string | null;
  startedAt: string;
  /** The holder's command, for the refusal (`okstra convergence run`, `okstra-team dispatch`). */
  command: string;
}

/** Run locks this process holds (canonical path → how many nested takers), so `run`'s in-process dispatch re-enters its own lock. */
const held = new Map<string, number>();

/**
 * Take the run lock at `path` (libs/paths `runLockPath`; docs/team.md "One dispatcher per run"):
 * the one dispatcher of a run at a time — `okstra convergence run` for its whole run,
 * `okstra-team dispatch` around its decide-and-launch. The file holds the holder's pid, its
 * start time, `startedAt` and `command`. A live holder (pid and start time match) is refused at
 * once; a holder that is gone (killed, crashed) is taken over. Every read and change of the file
 * happens under its state-file lock (`withFileLock`), so two takers never both win, whatever
 * the interleaving. The process holding it may take it again (run's own dispatches).
 * @returns the release (removes the file while it is still ours; a nested take releases nothing).
 * @throws InputError (exit 2) naming the lock file and its live holder, or the cause it cannot be
 *   written (a read-only or full file system).
 */
export async function takeRunLock(path: string, now: Date, command: string): Promise<() => Promise<void>> {
  const key = canonicalPath(path);
  const depth = held.get(key) ?? 0;
  if (depth > 0) {
    held.set(key, depth + 1);
    return async () => void held.set(key, (held.get(key) ?? 1) - 1);
  }
  const mine: RunLockBody = { pid: process.pid, pidStartTime: processStartTime(process.pid), startedAt: now.toISOString(), command };
  await withFileLock(path, async () => {
    const holder = readLock(path);
    if (holder && isWrapperAlive(holder.pid, holder.pidStartTime)) {
      throw new InputError(`another ${holder.command || 'okstra command'} (pid ${holder.pid}, since ${holder.startedAt}) is dispatching for this run`, {
        file: path,
        hint: 'wait for it to end; a holder that was killed leaves this file, and the next command takes it over',
      });
    }
    // No holder, or one that is gone (or a torn file): ours now.
    await writeTextAtomic(path, JSON.stringify(mine) + '\n');
  });
  held.set(key, 1);
  return async () => {
    held.delete(key);
    await withFileLock(path, async () => {
      const body = readLock(path);
      if (body?.pid === mine.pid && body.startedAt === mine.startedAt) unlinkSync(path);
    }).catch(() => undefined); // the next taker finds us gone and takes the file over
  };
}

/**
 * Run `fn` holding the run lock at `path` ({@link takeRunLock}); released however `fn` ends.
 * @throws InputError as takeRunLock, or whatever `fn` throws.
 */
export async function withRunLock<T>(path: string, now: Date, command: string, fn: () => Promise<T>): Promise<T> {
  const release = await takeRunLock(path, now, command);
  try {
    return await fn();
  } finally {
    await release();
  }
}

function readLock(path: string): RunLockBody | null {
  try {
    const body = JSON.parse(readFileSync(path, 'utf8')) as RunLockBody;
    return typeof body?.pid === 'number' ? body : null;
  } catch {
    return null;
  }
}
