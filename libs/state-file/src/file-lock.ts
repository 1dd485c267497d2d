import lockfile from 'proper-lockfile';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputError, OkstraError } from '@okstra/core';

/**
 * Run `fn` while holding the per-file lock of `path` (a `<path>.lock`
 * directory, proper-lockfile). Concurrent read-modify-write of one state file
 * from several processes serializes here; a lock left by a killed process is
 * taken over once stale (10 s without refresh).
 * @throws OkstraError `OKSTRA_LOCK_TIMEOUT` (exit 2) when the lock cannot be had within ~30 s;
 *   InputError when the file's directory cannot be created.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    throw new InputError(`cannot create its directory (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { file: path });
  }
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      stale: 10_000,
      update: 2_000,
      retries: { retries: 300, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true },
    });
  } catch (error) {
    throw new OkstraError('OKSTRA_LOCK_TIMEOUT', `could not lock file: ${(error as Error).message}`, { file: path });
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined);
  }
}
