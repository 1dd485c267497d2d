import { unlinkSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { appendAll, type CliContext, InputError, OkstraError, writeJson } from '@okstra/cli-kit';
import { assertReplays, createWorkingState, migrateWorkingState, seedDigest, shortContentHash, statusCounts } from '@okstra/convergence';
import { convergenceGroupsArtifact, finalStateArtifact, workingStateArtifact, type FinalState, type WorkingState } from '@okstra/schemas/convergence';
import {
  assertOutputNotInput,
  assertWritableTarget,
  fsyncDirectory,
  parseJsonText,
  readRegularFileSync,
  validateArtifact,
  prepareAtomicWrite,
  removeDeadTempsIn,
  renderArtifact,
  TEMP_MARK,
  withFileLock,
  writeArtifact,
  type PreparedWrite,
} from '@okstra/state-file';
import { projectRootOf, resolveInsideRoot } from '@okstra/paths';
import { documentArg, MAX_JSON_BYTES, note, pathArg, readDocument } from './documents.js';

/** What seed did (docs/convergence.md "seed"). */
type SeedAction = 'created' | 'resumed' | 'reused' | 'migrated' | 'restarted';

interface SeedOptions {
  groups: string;
  workState: string;
  finalState: string;
  migrationDir: string;
  restartFromRound0?: boolean;
}

/** Prefix of every refusal of an existing state that cannot be read as a sound one; the lead prompt quotes "corrupt". */
const CORRUPT = 'corrupt state: ';

const RESTART_HINT = 'nothing was changed; --restart-from-round0 moves the old state into --migration-dir and starts again';

/**
 * `seed --groups <p> --work-state <p> --final-state <p> --migration-dir <d> [--restart-from-round0]`:
 * create working state from the groups, resume a matching one, reuse a matching
 * final state, migrate a v1.0 state (original copied into the migration dir), and
 * refuse a non-matching or corrupt state unless `--restart-from-round0`, which first
 * copies the old files into the migration dir. Every check runs before the first
 * write; nothing is ever deleted without a copy kept.
 */
export async function runSeed(opts: SeedOptions, ctx: CliContext): Promise<number> {
  const groupsPath = documentArg(ctx.io, opts.groups);
  const workPath = pathArg(ctx.io, opts.workState);
  const finalPath = pathArg(ctx.io, opts.finalState);
  const migrationDir = pathArg(ctx.io, opts.migrationDir);
  // A state path like the others (docs/conventions.md "Containment"): inside the project the working state
  // lives in, lexically and by real path — a symlinked migration dir never takes a copy outside it.
  const projectRoot = projectRootOf(workPath);
  if (projectRoot !== null) guardField('--migration-dir', () => resolveInsideRoot(projectRoot, migrationDir, '--migration-dir'));
  assertOutputNotInput({ path: workPath, flag: '--work-state' }, [{ path: groupsPath, flag: '--groups' }]);
  assertOutputNotInput({ path: finalPath, flag: '--final-state' }, [
    { path: groupsPath, flag: '--groups' },
    { path: workPath, flag: '--work-state' },
  ]);
  const groups = await readDocument(groupsPath, { kind: 'convergence-groups', flag: '--groups', artifact: convergenceGroupsArtifact, io: ctx.io });
  const digest = seedDigest(groups);
  await assertNotDirectory(migrationDir, true);

  return withFileLock(workPath, async () => {
    const kept: string[] = [];
    let action: SeedAction;
    let state: WorkingState | undefined;
    let reused: FinalState | undefined;
    const workBytes = await readIfFile(workPath);
    const finalBytes = await readIfFile(finalPath);

    // Temp files of a seed killed mid-copy are named by content and never written again: swept here.
    sweepDeadTemps(migrationDir, workPath, finalPath);
    if (opts.restartFromRound0) {
      state = createWorkingState(groups);
      // A work-state that cannot be replaced (a symlink, …) is refused before a copy is kept or the final state goes.
      assertWritableTarget(workPath, workPath);
      const copies = keepCopies(migrationDir, [
        ...(workBytes === undefined ? [] : [{ original: workPath, bytes: workBytes }]),
        ...(finalBytes === undefined ? [] : [{ original: finalPath, bytes: finalBytes }]),
      ]);
      // Crash-safe order (docs/convergence.md "seed"): copies durable first, then the old final
      // state goes, then the round-0 working state lands. A kill between the two leaves the old
      // working state without a final state — never a round-0 state beside an old final one,
      // which a plain seed would call `reused`. Everything that needs space is written before
      // the final state goes, so a full disk leaves all as it was (no copy, no migration dir).
      landTogether(copies, prepareState(workPath, state), () => {
        if (finalBytes === undefined) return;
        unlinkSync(finalPath);
        fsyncDirectory(dirname(finalPath));
      });
      appendAll(
        kept,
        copies.map((c) => c.target),
      );
      action = workBytes === undefined && finalBytes === undefined ? 'created' : 'restarted';
    } else if (finalBytes !== undefined && (reused = matchingFinal(finalPath, finalBytes, digest))) {
      action = 'reused';
    } else if (workBytes === undefined) {
      state = createWorkingState(groups);
      await writeArtifact(workPath, workingStateArtifact, state);
      action = 'created';
    } else {
      const raw = parseJson(workPath, workBytes);
      const version = (raw as { schemaVersion?: unknown }).schemaVersion;
      if (version === '1.0') {
        state = guard(() => migrateWorkingState(raw, workPath));
        if (state.seedDigest !== digest) throw mismatch(workPath, state.seedDigest, digest);
        const copy = keepCopy(migrationDir, workPath, workBytes, 'v1.0');
        landTogether([copy], prepareState(workPath, state));
        kept.push(copy.target);
        action = 'migrated';
      } else {
        const stored = guard(() => validateArtifact(raw, workingStateArtifact, { label: workPath }));
        if (seedDigest(stored.seed) !== stored.seedDigest) {
          throw new InputError(`${CORRUPT}its seedDigest is not the digest of its seed`, { file: workPath, field: 'seedDigest', hint: RESTART_HINT });
        }
        if (stored.seedDigest !== digest) throw mismatch(workPath, stored.seedDigest, digest);
        // Resume only a state whose stored derivation is its replay (docs/convergence.md "Validation").
        guard(() => assertReplays(stored, workPath));
        state = stored;
        action = 'resumed';
      }
    }

    const summary: Record<string, unknown> = { action, seedDigest: digest, workState: workPath, finalState: finalPath, kept };
    if (state) {
      const c = statusCounts(state.derived);
      Object.assign(summary, { round: state.derived.round, queueTerminal: state.derived.queueTerminal, counts: c });
      note(
        ctx,
        `${action}: round ${state.derived.round}, ${c.pending} pending of ${state.derived.findings.length} findings${kept.length ? `; kept ${kept.map((k) => basename(k)).join(', ')}` : ''}`,
      );
    } else if (reused) {
      const c = reused.counts;
      const counts = { pending: 0, agreed: c.agreed, refuted: c.refuted, unverifiable: c.unverifiable, contested: c.contested };
      Object.assign(summary, { round: reused.rounds, queueTerminal: true, counts });
      note(ctx, `reused: the final state matches these groups (${basename(finalPath)}), round ${reused.rounds}, ${c.total} findings`);
    }
    writeJson(ctx.io, summary);
    return 0;
  });
}

/** The v1.3 final state of these groups in `bytes`; a final state of other groups or a corrupt one is refused. */
function matchingFinal(path: string, bytes: Buffer, digest: string): FinalState {
  const raw = parseJson(path, bytes);
  const final = guard(() => validateArtifact(raw, finalStateArtifact, { label: path }));
  if (final.seedDigest !== digest) throw mismatch(path, final.seedDigest, digest);
  return final;
}

/** The refusal of a state seeded from other groups; the lead prompt quotes "does not match the groups". */
function mismatch(file: string, stored: string, digest: string): InputError {
  return new InputError(`state does not match the groups: it belongs to other groups (its seed digest ${stored}, the groups' ${digest})`, {
    file,
    field: 'seedDigest',
    hint: RESTART_HINT,
  });
}

function parseJson(file: string, bytes: Buffer): object {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`${CORRUPT}is not valid UTF-8 text`, { file, hint: RESTART_HINT });
  }
  if (text.trim() === '') throw new InputError(`${CORRUPT}is empty`, { file, hint: RESTART_HINT });
  // The one JSON text rule (malformed, depth, 1e999, duplicate keys): libs/state-file parseJsonText.
  const raw = guard(() => parseJsonText(text, { label: file }));
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new InputError(`${CORRUPT}is not a JSON object`, { file, hint: RESTART_HINT });
  return raw;
}

/** Run a check of an existing state: its refusal says the state is corrupt and adds the restart hint. */
function guard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof OkstraError && !error.message.startsWith(CORRUPT)) {
      throw new InputError(`${CORRUPT}${error.message}`, { file: error.file, field: error.field, hint: error.hint ?? RESTART_HINT });
    }
    throw error;
  }
}

/** A kept copy about to land: its path, and its prepared write (none when the same copy is already there). */
interface KeptCopy {
  target: string;
  write?: PreparedWrite;
}

/**
 * Prepare a copy of a state file (its current `bytes`) in the migration dir as
 * `<name>.<tag>-<sha256:12>.<ext>`: named by content, so a repeated seed finds its
 * copy already there and never overwrites another. Written from the bytes read (not
 * re-copied from a file that may have changed), fsynced; {@link landTogether} renames it.
 */
function keepCopy(dir: string, original: string, bytes: Buffer, tag: string): KeptCopy {
  const ext = extname(original);
  const target = join(dir, `${basename(original, ext)}.${tag}-${shortContentHash(bytes)}${ext}`);
  if (readRegularFileSync(target, { maxBytes: MAX_JSON_BYTES })?.equals(bytes)) return { target };
  return { target, write: prepareAtomicWrite(target, bytes) };
}

/**
 * {@link keepCopy} of each file, all or nothing: when one cannot be prepared (a full disk), the
 * copies prepared before it are discarded, so no temp file stays.
 * @throws InputError (exit 2) naming the copy that could not be written.
 */
function keepCopies(dir: string, files: ReadonlyArray<{ original: string; bytes: Buffer }>): KeptCopy[] {
  const out: KeptCopy[] = [];
  try {
    for (const f of files) out.push(keepCopy(dir, f.original, f.bytes, 'restart'));
  } catch (error) {
    for (const c of out.reverse()) c.write?.discard();
    throw error;
  }
  return out;
}

/** The new working state's bytes (schema-checked as writeArtifact does), prepared beside `path`. */
function prepareState(path: string, state: WorkingState): () => PreparedWrite {
  return () => prepareAtomicWrite(path, Buffer.from(renderArtifact(workingStateArtifact, state), 'utf8'));
}

/**
 * Land the kept copies and then the working state, all or nothing: every write
 * is prepared (the steps that need space) before the first lands, and a failure
 * before the working state lands undoes the copies that landed — a full disk
 * leaves no copy, no migration dir and no temp file. `beforeState` runs between
 * the copies and the working state (restart's removal of the old final state).
 * @throws InputError (exit 2) naming the file that could not be written.
 */
function landTogether(copies: KeptCopy[], state: () => PreparedWrite, beforeState: () => void = () => {}): void {
  const writes = copies.flatMap((c) => (c.write ? [c.write] : []));
  try {
    writes.push(state());
  } catch (error) {
    for (const w of writes.reverse()) w.discard();
    throw error;
  }
  const last = writes.pop() as PreparedWrite;
  const landed: PreparedWrite[] = [];
  try {
    for (const w of writes) {
      w.commit();
      landed.push(w);
    }
  } catch (error) {
    for (const w of [...writes.filter((w) => !landed.includes(w)), ...landed.reverse()]) w.discard();
    last.discard();
    throw error;
  }
  beforeState();
  last.commit();
}

/** Remove temp files of killed writers of the kept copies, the working and the final state. */
function sweepDeadTemps(migrationDir: string, workPath: string, finalPath: string): void {
  removeDeadTempsIn(migrationDir);
  for (const p of [workPath, finalPath]) removeDeadTempsIn(dirname(p), `.${basename(p)}${TEMP_MARK}`);
}

/** Run a containment check; its refusal names the flag (`--migration-dir: '…' leads outside …`). */
function guardField(flag: string, check: () => unknown): void {
  try {
    check();
  } catch (error) {
    if (error instanceof InputError)
      throw new InputError(error.message, { field: flag, hint: 'keep the migration dir inside the project (state/migrations of the run)' });
    throw error;
  }
}

/** The file's bytes, or undefined when it does not exist (state-file's one regular-file rule: a FIFO is exit 2 at once). */
async function readIfFile(path: string): Promise<Buffer | undefined> {
  return readRegularFileSync(path, { maxBytes: MAX_JSON_BYTES }) ?? undefined;
}

/** False when `path` does not exist; throws when it is a directory and a file is wanted (or the reverse). */
async function assertNotDirectory(path: string, wantDirectory: boolean): Promise<boolean> {
  let isDir: boolean;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new InputError(`cannot read (${(error as NodeJS.ErrnoException).code})`, { file: path });
  }
  if (isDir !== wantDirectory) throw new InputError(wantDirectory ? 'is a file, expected a directory' : 'is a directory, expected a file', { file: path });
  return true;
}
