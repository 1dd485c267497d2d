import { stableStringify } from '@okstra/core';
import type { Io } from './io.js';

/** Print one JSON document (stable key order, `stableStringify` of `@okstra/core`) on stdout. */
export function writeJson(io: Pick<Io, 'stdout'>, value: unknown): void {
  io.stdout.write(stableStringify(value));
}
