import { InputError, OkstraError } from '@okstra/core';
import { AppliedRound, ConvergenceGroups, LegacyWorkingState, type WorkingState } from '@okstra/schemas/convergence';
import { validateValue } from '@okstra/state-file';
import { replayWorkingState } from './replay.js';
import { createWorkingState } from './seed-state.js';

/** Working-state schema versions `seed` reads: `1.1` as is, `1.0` migrated. */
export const READABLE_WORKING_VERSIONS = ['1.0', '1.1'] as const;

/**
 * Migrate a v1.0 working state to v1.1 (docs/convergence.md "Migration"):
 * `groups` becomes `seed` (with its digest), `appliedRounds` becomes `rounds`, no
 * critic batch, and the derived state is recomputed by replaying those rounds.
 * The caller keeps the original file in the migration dir.
 * @throws InputError (exit 2) when the old state does not parse or does not replay.
 */
export function migrateWorkingState(raw: unknown, label = 'working state'): WorkingState {
  const legacy = validateValue(raw, { schema: LegacyWorkingState, label });
  const groups = validateValue(legacy.groups, { schema: ConvergenceGroups, label: `${label} (v1.0 groups)` });
  const rounds = legacy.appliedRounds.map((r, i) => validateValue(r, { schema: AppliedRound, label: `${label} (v1.0 appliedRounds[${i}])` }));
  const fresh = createWorkingState(groups);
  try {
    return replayWorkingState({ ...fresh, rounds });
  } catch (error) {
    const message = error instanceof OkstraError ? [error.field, error.message].filter(Boolean).join(': ') : String(error);
    throw new InputError(`cannot migrate the v1.0 working state: ${message}`, { file: label });
  }
}
