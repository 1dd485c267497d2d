import type * as z from '@okstra/schemas/zod';
import type { Artifact } from '@okstra/schemas/artifact';
import { InputError } from '@okstra/core';
import { decodeUtf8, NotRegularFileError, parseJsonText, readRegularFileSync, validateValue, type ParseSchema, type ReadTextOptions } from './read-file.js';
import { assertWritableTarget, serializeJson, writeTextAtomic, type WriteJsonOptions } from './write-file.js';

/** What {@link readArtifact} returns for an artifact: its schema's output type. */
export type ArtifactOf<A extends Artifact> = z.output<A['schema']>;
/** What {@link writeArtifact} accepts for an artifact: anything its reader's schema parses. */
export type ArtifactInput<A extends Artifact> = z.input<A['schema']>;

/** Options of {@link readArtifact}. */
export interface ReadArtifactOptions extends ReadTextOptions {
  /**
   * Runs on the parsed JSON before the version and schema checks — e.g. to
   * name a document of another kind (`assertDocumentKind`) or add a hint.
   */
  precheck?: (raw: unknown, file: string) => void;
}

/**
 * Read one artifact file: one non-blocking open of a regular file (FIFO,
 * socket, device, directory → exit 2 at once), strict UTF-8, JSON with
 * nesting ≤ MAX_JSON_DEPTH and finite numbers, `schemaVersion` ∈
 * `artifact.versions`, then `artifact.schema`. The artifact object is the
 * only place the versions are written (docs/conventions.md "Reading and
 * writing artifacts").
 * @returns the schema's output.
 * @throws InputError (exit 2) naming the file (`opts.label`) and the JSON path.
 */
export async function readArtifact<A extends Artifact>(path: string, artifact: A, opts: ReadArtifactOptions = {}): Promise<ArtifactOf<A>> {
  return readArtifactSync(path, artifact, opts);
}

/** Synchronous {@link readArtifact} (run-audit reads many small files in a loop). Same checks, same errors. */
export function readArtifactSync<A extends Artifact>(path: string, artifact: A, opts: ReadArtifactOptions = {}): ArtifactOf<A> {
  const value = readArtifactIfExists(path, artifact, opts);
  if (value === undefined) {
    // `-` is stdin only where a command reads a document (@okstra/core documentArg); a state file has to be named.
    const dash = /(^|[\\/])-$/.test(path) ? " ('-' means stdin only for a document input; a state file is read and rewritten in place: give its path)" : '';
    throw new InputError(`file not found${dash}`, { file: opts.label ?? path });
  }
  return value;
}

/**
 * {@link readArtifactSync}, but a missing file is `undefined` instead of an
 * error (a state file a command creates on first use).
 */
export function readArtifactIfExists<A extends Artifact>(path: string, artifact: A, opts: ReadArtifactOptions = {}): ArtifactOf<A> | undefined {
  const file = opts.label ?? path;
  const bytes = readRegularFileSync(path, { ...opts, label: file });
  if (bytes === null) return undefined;
  return parseArtifact(decodeUtf8(bytes, file), artifact, { ...opts, label: file });
}

/**
 * Best-effort read for evidence a command may do without (a status sidecar,
 * a job file another process wrote): the artifact, or null when it is
 * missing, unreadable or invalid. A directory, FIFO, socket or device is still
 * refused (exit 2 at once): a special file is never silently skipped or hung on.
 * @throws NotRegularFileError (an InputError) for a non-regular file only.
 */
export function tryReadArtifact<A extends Artifact>(path: string, artifact: A, opts: ReadArtifactOptions = {}): ArtifactOf<A> | null {
  try {
    return readArtifactIfExists(path, artifact, opts) ?? null;
  } catch (error) {
    if (error instanceof NotRegularFileError) throw error;
    return null;
  }
}

/**
 * Parse and validate text already read (e.g. bytes a command also copies) as
 * `artifact`, with the checks of {@link readArtifact}.
 * @throws InputError naming `opts.label`.
 */
export function parseArtifact<A extends Artifact>(text: string, artifact: A, opts: Pick<ReadArtifactOptions, 'label' | 'precheck'> = {}): ArtifactOf<A> {
  const raw = parseJsonText(text, { label: opts.label });
  return validateArtifact(raw, artifact, opts);
}

/**
 * Validate a parsed value as `artifact` (precheck, `schemaVersion`, schema).
 * @throws InputError naming `opts.label` and the JSON path of the first issue.
 */
export function validateArtifact<A extends Artifact>(raw: unknown, artifact: A, opts: Pick<ReadArtifactOptions, 'label' | 'precheck'> = {}): ArtifactOf<A> {
  opts.precheck?.(raw, opts.label ?? '');
  try {
    return validateValue(raw, { schema: artifact.schema as ParseSchema<ArtifactOf<A>>, schemaVersions: artifact.versions, label: opts.label });
  } catch (error) {
    // A convergence working state passed as --run-manifest: say what the document is, not which field failed.
    const kind = error instanceof InputError ? foreignKind(raw, artifact) : undefined;
    if (kind !== undefined) throw new InputError(`is a '${kind}' document (its "kind"); expected: ${artifact.description}`, { file: opts.label });
    throw error;
  }
}

/**
 * The `kind` a document names when it is another artifact's: `raw.kind` is a
 * string and `artifact`'s schema has no `kind` field, or one whose literal
 * values do not include it. Undefined otherwise (then the field error stands).
 */
function foreignKind(raw: unknown, artifact: Artifact): string | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const kind = (raw as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || kind === '') return undefined;
  type Def = { _zod?: { def?: { shape?: Record<string, { _zod?: { def?: { values?: unknown[] } } }> } } };
  const own = (artifact.schema as Def)._zod?.def?.shape?.kind;
  if (own === undefined) return kind;
  const values = own._zod?.def?.values;
  return Array.isArray(values) && !values.includes(kind) ? kind : undefined;
}

/** Options of {@link writeArtifact}. */
export interface WriteArtifactOptions extends WriteJsonOptions {
  /**
   * What an existing file at `path` may hold before it is replaced:
   * `same-kind` (default) — a valid file of this artifact, so an output aimed
   * at the groups file, a run manifest or the team-state is exit 2 and
   * untouched; `any` — anything regular (the caller has read and judged it,
   * e.g. a migration that kept a copy, or `--restart-from-round0`).
   */
  replace?: 'same-kind' | 'any';
  /** Name printed instead of the path. */
  label?: string;
}

/**
 * Write `value` as `artifact` atomically ({@link writeTextAtomic}: temp file,
 * fsync, rename, fsync of the directory; never through a symlink at the
 * final component). `value` is type-checked against the schema the reader
 * uses, and checked at run time too: a value its own schema refuses is a bug
 * (plain Error → exit 70), never a file a reader later trips on.
 * @throws InputError (exit 2) for an existing file of another kind (see
 *   `replace`), a symlink, a non-regular file, or an unwritable path.
 */
export async function writeArtifact<A extends Artifact>(path: string, artifact: A, value: ArtifactInput<A>, opts: WriteArtifactOptions = {}): Promise<void> {
  const text = renderArtifact(artifact, value, opts, path);
  // A symlink or special file is named as such before its content is judged.
  assertWritableTarget(path, opts.label ?? path);
  if ((opts.replace ?? 'same-kind') === 'same-kind') assertReplaceable(path, artifact, opts.label ?? path);
  await writeTextAtomic(path, text);
}

/**
 * The exact bytes {@link writeArtifact} writes, after the same run-time
 * schema check — for an output document sent to stdout (`--output -`).
 * @throws Error (a bug, exit 70) for a value its own schema refuses.
 */
export function renderArtifact<A extends Artifact>(artifact: A, value: ArtifactInput<A>, opts: WriteJsonOptions = {}, target = 'stdout'): string {
  const checked = artifact.schema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new Error(`refusing to write an invalid ${artifact.name} to ${target}: ${issue?.path.join('.') || '$'}: ${issue?.message ?? 'invalid'}`);
  }
  return serializeJson(value, opts);
}

/** Refuse to replace an existing file that is not a valid `artifact`. */
function assertReplaceable(path: string, artifact: Artifact, file: string): void {
  let bytes: Buffer | null;
  try {
    bytes = readRegularFileSync(path, { label: file });
  } catch {
    return; // unreadable (a symlink or special file was refused by assertWritableTarget first): writeTextAtomic names it precisely.
  }
  if (bytes === null) return;
  try {
    parseArtifact(decodeUtf8(bytes, file), artifact, { label: file });
  } catch (error) {
    const why = error instanceof InputError ? error.toLine() : String(error);
    throw new InputError(`holds something other than a ${artifact.name} (${why}); refusing to replace it`, {
      file,
      hint: 'name a new file, or remove this one if it is really yours to replace',
    });
  }
}
