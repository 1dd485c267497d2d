import { InputError, isStdio, readStdinText, type CliContext, type Io } from '@okstra/cli-kit';
import { assertDocumentKind, assertReplays, REPLAY_RECOVERY, seedDigest, type DocumentKind } from '@okstra/convergence';
import type { Artifact } from '@okstra/schemas/artifact';
import { workingStateArtifact, type WorkingState } from '@okstra/schemas/convergence';
import { parseArtifact, readArtifact, type ArtifactOf } from '@okstra/state-file';

/** Largest worker response collect-results reads (bytes): the readers' one cap, `@okstra/verdict-blocks`. */
export { MAX_RESPONSE_BYTES } from '@okstra/verdict-blocks';
/** Largest JSON document any sub-command reads (bytes). */
export const MAX_JSON_BYTES = 256 * 1024 * 1024;

/** A path argument resolved against the caller's cwd (`documentArg`: `-` is stdin): the rule is cli-kit's. */
export { documentArg, pathArg } from '@okstra/cli-kit';

/**
 * Read one JSON document for `flag`: file checks (missing, directory, empty,
 * non-UTF-8, truncated JSON), then its kind (a document of another kind is named
 * as such), then its `schemaVersion` and schema. `path` `-` reads stdin (`spec.io`).
 * @throws InputError (exit 2) naming the file and the JSON path.
 */
export async function readDocument<A extends Artifact>(
  path: string,
  spec: { kind: DocumentKind; flag: string; artifact: A; hints?: Partial<Record<string, string>>; io?: Pick<Io, 'stdin'> },
): Promise<ArtifactOf<A>> {
  if (isStdio(path) && spec.io) {
    return parseArtifact(await readStdinText(spec.io, MAX_JSON_BYTES), spec.artifact, {
      label: '-',
      precheck: (raw) => assertDocumentKind(raw, spec.kind, '-', spec.flag, spec.hints),
    });
  }
  return readArtifact(path, spec.artifact, {
    maxBytes: MAX_JSON_BYTES,
    precheck: (raw) => assertDocumentKind(raw, spec.kind, path, spec.flag, spec.hints),
  });
}

/**
 * Read a v1.1 working state, check that its digest is the digest of its seed and
 * that its stored derivation is its replay ({@link assertReplays}: refused, exit 2,
 * naming the first diverging finding and `seed --restart-from-round0`).
 * A v1.0 state is refused with a pointer to `seed`, which migrates it.
 */
export async function readWorkingState(path: string, flag = '--work-state'): Promise<WorkingState> {
  const state: WorkingState = await readArtifact(path, workingStateArtifact, {
    maxBytes: MAX_JSON_BYTES,
    precheck: (raw) => {
      assertDocumentKind(raw, 'convergence-working-state', path, flag);
      if ((raw as { schemaVersion?: unknown } | null)?.schemaVersion === '1.0') {
        throw new InputError('working state has schema 1.0; run seed once to migrate it to 1.1', { file: path, field: 'schemaVersion' });
      }
    },
  });
  if (seedDigest(state.seed) !== state.seedDigest) {
    throw new InputError('seedDigest is not the digest of the stored seed (the state was edited)', { file: path, field: 'seedDigest', hint: REPLAY_RECOVERY });
  }
  assertReplays(state, path);
  return state;
}

/** Print a one-line note for people on stderr, naming the command as typed (`okstra convergence:` through the umbrella, as error lines do). */
export function note(ctx: Pick<CliContext, 'io' | 'name'>, text: string): void {
  ctx.io.stderr.write(`${ctx.name}: ${text}\n`);
}
