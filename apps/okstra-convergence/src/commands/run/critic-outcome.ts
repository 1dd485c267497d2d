import { existsSync } from 'node:fs';
import { criticResultsPath, teamStatePath } from '@okstra/paths';
import { readTeamState } from '@okstra/team-state';
import type { RunPlace } from './round-files.js';

/** The coverage critic's outcome as the run's artifacts record it. */
export interface CriticOutcome {
  /** `<critic>=<status>:<durationMs>`, the `--critic-dispatch` form. */
  dispatch: string;
  /** `state/convergence-critic-results-<type>-<seq>.json` when the critic wrote it, else undefined. */
  resultsPath: string | undefined;
}

/**
 * The critic's outcome from its team-state row and its results document (docs/convergence.md "Critic gaps"):
 * `completed` when its results document exists, else its row's failed status (`timeout`, `error`, `not-run`), else
 * `error`; the duration is the row's `startedAt` → `endedAt` (0 when either is missing). What `run` and a
 * `collect-critic-gaps` without `--critic-dispatch` use, so no lead copies the critic's duration by hand.
 */
export async function criticOutcome(place: RunPlace, criticId: string): Promise<CriticOutcome> {
  const state = teamStatePath(place.runDir, place.run);
  const rows = existsSync(state) ? (await readTeamState(state)).workers : [];
  const row = rows.find((r) => r.workerId === criticId);
  const ms = row?.startedAt && row.endedAt ? Math.max(0, Date.parse(row.endedAt) - Date.parse(row.startedAt)) : 0;
  const results = criticResultsPath(place.runDir, place.run);
  const has = existsSync(results);
  const status = has ? 'completed' : row && ['timeout', 'error', 'not-run'].includes(row.status) ? row.status : 'error';
  return { dispatch: `${criticId}=${status}:${ms}`, resultsPath: has ? results : undefined };
}
