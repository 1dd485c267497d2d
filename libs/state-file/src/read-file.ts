import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { InputError } from '@okstra/core';
import { assertSaneJson } from './json-guard.js';
import { assertUniqueKeys } from './json-keys.js';
import { formatJsonPath } from './json-path.js';

export { formatJsonPath };

/** A zod-compatible schema: anything with `safeParse`. Keeps zod out of this lib's start-up cost. */
export interface ParseSchema<T> {
  safeParse(
    data: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/** Options of {@link readTextFile}. */
export interface ReadTextOptions {
  /** Refuse files larger than this many bytes (default 64 MiB). */
  maxBytes?: number;
  /** Name printed instead of the path (default: the path). */
  label?: string;
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Read a UTF-8 text file for a command (through {@link readRegularFileSync}:
 * one non-blocking open, so a FIFO swapped in never blocks).
 * @throws InputError (exit 2) naming the file when it is missing, a directory
 *   or another non-regular file (a FIFO or device would block or never end),
 *   larger than `maxBytes`, or not valid UTF-8.
 */
export async function readTextFile(path: string, options: ReadTextOptions = {}): Promise<string> {
  return readTextFileSync(path, options);
}

/** The one read of {@link readTextFile} and {@link readJsonFileSync}: regular file, present, strict UTF-8. */
function readTextFileSync(path: string, options: ReadTextOptions): string {
  const file = options.label ?? path;
  const bytes = readRegularFileSync(path, { ...options, label: file });
  if (bytes === null) throw new InputError('file not found', { file });
  return decodeUtf8(bytes, file);
}

/** Strict UTF-8 decode (a BOM dropped). @throws InputError naming `file` for invalid bytes. */
export function decodeUtf8(bytes: Buffer, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new InputError('is not valid UTF-8 text', { file });
  }
}

/** Options of {@link readJsonFile}. */
export interface ReadJsonOptions<T> extends ReadTextOptions {
  /** Validate the parsed value; the first issue is reported with its JSON path. */
  schema?: ParseSchema<T>;
  /** When set, `schemaVersion` must be one of these (checked before the schema). */
  schemaVersions?: readonly string[];
}

/**
 * Read, parse and validate a JSON file.
 * @returns the schema's output (or the raw value without a schema).
 * @throws InputError (exit 2) for a missing file, a directory, an empty file,
 *   malformed or truncated JSON, nesting deeper than MAX_JSON_DEPTH, a
 *   non-finite number (`1e999`), an unsupported `schemaVersion`, or a schema
 *   violation — the message names the file and the JSON path.
 */
export async function readJsonFile<T = unknown>(path: string, options: ReadJsonOptions<T> = {}): Promise<T> {
  return readJsonFileSync(path, options);
}

/**
 * Synchronous {@link readJsonFile} for callers that read many small files in
 * a loop (run-audit): same checks, same messages.
 * @throws InputError (exit 2) as {@link readJsonFile}.
 */
export function readJsonFileSync<T = unknown>(path: string, options: ReadJsonOptions<T> = {}): T {
  return parseJsonText(readTextFileSync(path, options), { ...options, label: options.label ?? path });
}

/**
 * Read a regular file's bytes with one open: `O_NONBLOCK` so a FIFO never
 * blocks the open, then `fstat` on the descriptor (symlinks followed).
 * @returns the bytes, or null when the file does not exist.
 * @throws InputError naming the file for a directory or another non-regular
 *   file, a file over `maxBytes` (default 64 MiB), or any other read error.
 */
export function readRegularFileSync(path: string, options: ReadTextOptions = {}): Buffer | null {
  const file = options.label ?? path;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === 'ENOENT') return null;
    throw fsError(error, file);
  }
  try {
    const st = checkRegularFile(fstatSync(fd), file);
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    if (st.size > maxBytes) throw new InputError(`file is too large (${st.size} bytes, limit ${maxBytes})`, { file });
    // Read exactly the size fstat gave (readFileSync(fd) would fstat again): this runs per artifact in run-audit.
    const bytes = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, bytes, got, st.size - got, null);
      if (n === 0) break;
      got += n;
    }
    return got === st.size ? bytes : bytes.subarray(0, got);
  } catch (error) {
    throw error instanceof InputError ? error : fsError(error, file);
  } finally {
    closeSync(fd);
  }
}

/**
 * Parse JSON text and validate it as {@link validateValue} does.
 * @throws InputError naming `options.label` for empty text, malformed or
 *   truncated JSON, a key named twice in one object (path and both lines),
 *   an unsupported `schemaVersion` or a schema violation.
 */
export function parseJsonText<T = unknown>(text: string, options: Omit<ReadJsonOptions<T>, 'maxBytes'> = {}): T {
  const file = options.label;
  if (text.trim() === '') throw new InputError('file is empty, expected JSON', { file });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(`is not valid JSON (truncated or malformed): ${(error as Error).message}`, { file });
  }
  assertUniqueKeys(text, assertSaneJson(data, file), file);
  return validateValue(data, options);
}

/**
 * Validate an already-parsed value the same way {@link readJsonFile} does.
 * @throws InputError naming `options.label` and the JSON path of the first issue.
 */
export function validateValue<T>(data: unknown, options: Omit<ReadJsonOptions<T>, 'maxBytes'> = {}): T {
  const file = options.label;
  if (options.schemaVersions) {
    const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new InputError('expected a JSON object', { file });
    }
    if (!options.schemaVersions.includes(String(version))) {
      throw new InputError(`unsupported schemaVersion ${JSON.stringify(version ?? null)} (supported: ${options.schemaVersions.join(', ')})`, {
        file,
        field: 'schemaVersion',
      });
    }
  }
  if (!options.schema) return data as T;
  const result = options.schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new InputError(issue?.message ?? 'does not match its schema', {
    file,
    field: formatJsonPath(issue?.path ?? []),
  });
}

/**
 * Refuse anything but a regular file (symlinks are followed): a directory,
 * FIFO, socket or device would fail, block, or never reach EOF.
 * @returns `st` when it is a regular file.
 * @throws InputError naming `file`.
 */
export function checkRegularFile<S extends { isFile(): boolean; isDirectory(): boolean }>(st: S, file: string): S {
  if (st.isDirectory()) throw new NotRegularFileError('is a directory, expected a file', { file });
  if (!st.isFile()) throw new NotRegularFileError('is not a regular file (a FIFO, socket or device)', { file });
  return st;
}

/**
 * For a path a command records or hands on (a worker's prompt, result or
 * sidecar): absent is fine, but an existing one must be a regular file
 * (symlinks followed), so a FIFO never reaches a later reader.
 * @throws NotRegularFileError (exit 2) naming `file`.
 */
export function assertRegularIfExists(path: string, file: string = path): void {
  let st;
  try {
    st = statSync(path);
  } catch {
    return;
  }
  checkRegularFile(st, file);
}

/**
 * {@link assertRegularIfExists} as a predicate, for a caller that reports the
 * refusal in its own words (run-audit's `is not a regular file` violation):
 * false when `path` exists (symlinks followed) and is a directory, FIFO,
 * socket or device; true for a regular file and for a path that cannot be
 * stat-ed (missing, dangling link, no permission: the reader reports those).
 */
export function isRegularIfExists(path: string): boolean {
  try {
    assertRegularIfExists(path);
    return true;
  } catch (error) {
    if (error instanceof NotRegularFileError) return false;
    throw error;
  }
}

/** The refusal of a directory, FIFO, socket or device where a file is read: always exit 2, never tolerated as "unreadable". */
export class NotRegularFileError extends InputError {}

function fsError(error: unknown, file: string): InputError {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return new InputError('file not found', { file });
  if (code === 'EISDIR') return new NotRegularFileError('is a directory, expected a file', { file });
  // A socket cannot be opened at all (ENXIO): the same refusal as a FIFO.
  if (code === 'ENXIO') return new NotRegularFileError('is not a regular file (a FIFO, socket or device)', { file });
  if (code === 'EACCES' || code === 'EPERM') return new InputError('permission denied', { file });
  return new InputError(`cannot read file (${code ?? (error as Error).message})`, { file });
}
