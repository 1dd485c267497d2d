import { resolve } from 'node:path';
import { InputError, type Io } from '@okstra/cli-kit';
import { assertDocumentKind, seedDigest, type DocumentKind } from '@okstra/convergence';
import { WorkingState } from '@okstra/schemas/convergence';
import { readJsonFile, validateValue, type ParseSchema } from '@okstra/state-file';

/** Largest worker response collect-results reads (bytes). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** Largest JSON document any sub-command reads (bytes). */
export const MAX_JSON_BYTES = 256 * 1024 * 1024;

/** A path argument resolved against the caller's cwd. */
export function pathArg(io: Io, path: string): string {
  return resolve(io.cwd, path);
}

/**
 * Read one JSON document for `flag`: file checks (missing, directory, empty,
 * non-UTF-8, truncated JSON), then its kind (a document of another kind is named
 * as such), then its `schemaVersion` and schema.
 * @throws InputError (exit 2) naming the file and the JSON path.
 */
export async function readDocument<T>(
  path: string,
  spec: { kind: DocumentKind; flag: string; schema: ParseSchema<T>; versions: readonly string[]; hints?: Partial<Record<string, string>> },
): Promise<T> {
  const raw = await readJsonFile(path, { maxBytes: MAX_JSON_BYTES });
  assertDocumentKind(raw, spec.kind, path, spec.flag, spec.hints);
  return validateValue(raw, { schema: spec.schema, schemaVersions: spec.versions, label: path });
}

/**
 * Read a v1.1 working state and check that its digest is the digest of its seed.
 * A v1.0 state is refused with a pointer to `seed`, which migrates it.
 */
export async function readWorkingState(path: string, flag = '--work-state'): Promise<WorkingState> {
  const raw = await readJsonFile(path, { maxBytes: MAX_JSON_BYTES });
  assertDocumentKind(raw, 'convergence-working-state', path, flag);
  if ((raw as { schemaVersion?: unknown } | null)?.schemaVersion === '1.0') {
    throw new InputError('working state has schema 1.0; run seed once to migrate it to 1.1', { file: path, field: 'schemaVersion' });
  }
  const state = validateValue(raw, { schema: WorkingState, schemaVersions: ['1.1'], label: path });
  if (seedDigest(state.seed) !== state.seedDigest) {
    throw new InputError('seedDigest is not the digest of the stored seed (the state was edited)', { file: path, field: 'seedDigest' });
  }
  return state;
}

/** Print a one-line note for people on stderr. */
export function note(io: Io, text: string): void {
  io.stderr.write(`okstra-convergence: ${text}\n`);
}
