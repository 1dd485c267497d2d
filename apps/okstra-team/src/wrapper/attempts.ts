import { lstatSync, renameSync } from 'node:fs';
import { nextAttemptPath } from '@okstra/team-state';

/** A completion path moved aside: where it was and where it is now. */
export interface MovedAttempt {
  from: string;
  to: string;
}

/**
 * Before a dispatch's provider starts, move every completion path of the job
 * that already exists (the result, a report, data.json — an earlier
 * attempt's) aside to its attempt file (`<path>.attempt-<n>`, libs/team-state
 * `attemptPath`; docs/team.md "exec"), so only what this dispatch writes can
 * complete it. The audit sidecar is not a completion path and stays (the
 * seeds reuse it across dispatches). Each move is one rename (atomic).
 * @throws the rename's error (ErrnoException) when a path cannot be moved:
 *   the caller must not launch the provider then.
 */
export function moveEarlierAttemptsAside(paths: readonly string[]): MovedAttempt[] {
  const moved: MovedAttempt[] = [];
  for (const from of new Set(paths)) {
    try {
      lstatSync(from);
    } catch {
      continue; // absent: nothing to move
    }
    const to = nextAttemptPath(from);
    renameSync(from, to);
    moved.push({ from, to });
  }
  return moved;
}
