import writeFileAtomic from 'write-file-atomic';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stableStringify } from '@okstra/cli-kit';

/**
 * Write text so readers only ever see the old or the new content: a temp
 * file in the same directory, fsync, rename (write-file-atomic). A process
 * killed at any point leaves the target intact. Creates the parent directory.
 */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, text, { encoding: 'utf8', fsync: true });
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
