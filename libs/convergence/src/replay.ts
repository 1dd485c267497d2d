import { InputError, OkstraError, stableStringify } from '@okstra/core';
import { WorkingState, type DerivedState } from '@okstra/schemas/convergence';
import { formatJsonPath } from '@okstra/state-file';
import { applyRound } from './apply-round.js';
import { applyCriticGaps } from './critic-gaps.js';
import { seedDigest } from './digest.js';
import { createWorkingState } from './seed-state.js';

/** Outcome of a validator: `ok` and every problem found, first one first. */
export interface ValidationReport {
  ok: boolean;
  errors: string[];
}

/**
 * Replay a working state from its seed input: re-create round 0, re-apply every
 * stored round (each stored plan must equal the plan the replayed state makes)
 * and the critic batch, with the same functions `seed`, `apply-round` and
 * `apply-critic-gaps` use. Returns the state the replay arrives at.
 * @throws InputError naming the round (or the critic batch) that does not replay.
 */
export function replayWorkingState(state: WorkingState): WorkingState {
  let replayed = createWorkingState(state.seed);
  for (const [i, stored] of state.rounds.entries()) {
    try {
      if (stored.round !== i + 1) throw new InputError(`stored round number ${stored.round} at position ${i + 1}`);
      replayed = applyRound(replayed, stored.plan, stored.results, { plan: 'plan', results: 'results' });
    } catch (error) {
      throw new InputError(`round ${i + 1} does not replay: ${messageOf(error)}`, { field: `rounds[${i}]` });
    }
  }
  if (state.criticBatch) {
    try {
      replayed = applyCriticGaps(replayed, state.criticBatch);
    } catch (error) {
      throw new InputError(`the critic batch does not replay: ${messageOf(error)}`, { field: 'criticBatch' });
    }
  }
  return replayed;
}

/**
 * `validate --kind working` (docs/convergence.md "Validation"): schema v1.1, the
 * stored digest equals the digest of the stored seed, and a replay from the seed
 * arrives at the stored derived state. A hand-edited state fails naming the first
 * diverging finding (then workers, round, critic gaps). Never throws.
 */
export function validateWorkingState(state: unknown): ValidationReport {
  const parsed = WorkingState.safeParse(state);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const version = (state as { schemaVersion?: unknown } | null)?.schemaVersion;
    if (version !== undefined && version !== '1.1') {
      return { ok: false, errors: [`schemaVersion: unsupported schemaVersion ${JSON.stringify(version)} (supported: 1.1; seed migrates 1.0)`] };
    }
    return { ok: false, errors: [`${formatJsonPath(issue?.path ?? [])}: ${issue?.message ?? 'does not match its schema'}`] };
  }
  const s = parsed.data;
  const digest = seedDigest(s.seed);
  if (digest !== s.seedDigest) return { ok: false, errors: [`seedDigest: ${s.seedDigest} is not the digest of the stored seed (${digest})`] };
  let replayed: WorkingState;
  try {
    replayed = replayWorkingState(s);
  } catch (error) {
    return { ok: false, errors: [messageOf(error)] };
  }
  const errors = compareDerived(s.derived, replayed.derived);
  return { ok: errors.length === 0, errors };
}

/** The recovery every "does not replay" refusal names (docs/convergence.md "Validation"). */
export const REPLAY_RECOVERY =
  'the stored derivation cannot be trusted: run seed --restart-from-round0, which keeps a copy of the old state in --migration-dir';

/**
 * Refuse a working state whose stored derivation differs from its replay, before
 * any work (docs/convergence.md "A state that does not replay is refused"): `seed`
 * (resume), `plan-round`, `apply-round`, `apply-critic-gaps` and `finalize` call
 * this on every load. The digest is checked by the caller's read. Returns the
 * replayed state (equal to the stored one), so the caller may work on it.
 * @throws InputError (exit 2) naming `file`, the first diverging finding (or the
 *   round that does not replay) and the recovery, `seed --restart-from-round0`.
 */
export function assertReplays(state: WorkingState, file: string): WorkingState {
  let replayed: WorkingState;
  try {
    replayed = replayWorkingState(state);
  } catch (error) {
    throw new InputError(`working state does not replay: ${messageOf(error)}`, { file, hint: REPLAY_RECOVERY });
  }
  const errors = compareDerived(state.derived, replayed.derived);
  if (errors.length > 0) throw new InputError(`working state does not replay: ${errors[0]}`, { file, hint: REPLAY_RECOVERY });
  return replayed;
}

/** Differences between a stored and a replayed derived state, findings first, in order. */
function compareDerived(stored: DerivedState, replayed: DerivedState): string[] {
  const errors: string[] = [];
  const byId = new Map(replayed.findings.map((f) => [f.id, f]));
  stored.findings.forEach((f, i) => {
    const r = byId.get(f.id);
    if (!r) {
      errors.push(`derived.findings[${i}]: finding ${f.id} is not in the replayed state`);
      return;
    }
    if (stableStringify(f) !== stableStringify(r)) {
      errors.push(`derived.findings[${i}]: finding ${f.id} diverges from the replay: stored ${describe(f)}, replay gives ${describe(r)}`);
    }
    byId.delete(f.id);
  });
  for (const id of byId.keys()) errors.push(`derived.findings: finding ${id} of the replay is missing from the stored state`);
  if (stableStringify(stored.workers) !== stableStringify(replayed.workers)) {
    const i = stored.workers.findIndex((w, j) => stableStringify(w) !== stableStringify(replayed.workers[j]));
    errors.push(`derived.workers[${i < 0 ? stored.workers.length : i}]: worker standing diverges from the replay`);
  }
  if (stored.round !== replayed.round) errors.push(`derived.round: stored ${stored.round}, replay gives ${replayed.round}`);
  if (stored.queueTerminal !== replayed.queueTerminal)
    errors.push(`derived.queueTerminal: stored ${stored.queueTerminal}, replay gives ${replayed.queueTerminal}`);
  if (stableStringify(stored.criticGaps) !== stableStringify(replayed.criticGaps))
    errors.push('derived.criticGaps: critic gap decisions diverge from the replay');
  const known = new Set(['round', 'queueTerminal', 'workers', 'findings', 'criticGaps']);
  for (const key of Object.keys(stored)) if (!known.has(key)) errors.push(`derived.${key}: not part of the derived state`);
  return errors;
}

function describe(f: DerivedState['findings'][number]): string {
  const votes = f.currentVotes.map((v) => `${v.workerId}:${v.verdict}`).join(',');
  return `${f.status}${f.reason ? `/${f.reason}` : ''} (round ${f.decidedInRound ?? '-'}, pass ${f.pass}${votes ? `, votes ${votes}` : ''})`;
}

function messageOf(error: unknown): string {
  if (error instanceof OkstraError) return [error.file, error.field, error.message].filter(Boolean).join(': ');
  return error instanceof Error ? error.message : String(error);
}
