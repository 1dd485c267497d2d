import { lstatSync, statSync } from 'node:fs';

/**
 * The suffix an earlier dispatch's completion path is moved aside to before a
 * new dispatch of the job runs (docs/team.md "exec": attempt files):
 * `<path>.attempt-<n>`, `n` = 1, 2, … the first free number. The extension
 * changes on purpose, so nothing that looks for `*.md` / `*.json` results
 * takes an attempt file for a result.
 */
export function attemptPath(path: string, n: number): string {
  return `${path}.attempt-${n}`;
}

/** The first `attemptPath(path, n)` that does not exist. */
export function nextAttemptPath(path: string): string {
  for (let n = 1; ; n++) {
    const candidate = attemptPath(path, n);
    try {
      lstatSync(candidate);
    } catch {
      return candidate;
    }
  }
}

/**
 * True when a completion path was written by the dispatch that started at
 * `rowStartedAt` (ISO-8601 UTC): it exists and its modification time is not
 * older than that start. A file an earlier dispatch left behind — which the
 * wrapper moves aside before launching — never counts for this one
 * (docs/team.md "exec" and "await"). A row without `startedAt` accepts none.
 */
export function writtenByDispatch(path: string, rowStartedAt: string | null | undefined): boolean {
  const started = rowStartedAt ? Date.parse(rowStartedAt) : NaN;
  if (!Number.isFinite(started)) return false;
  try {
    // Whole milliseconds: the row's start has ms precision, the file's mtime finer.
    return Math.floor(statSync(path).mtimeMs) >= started;
  } catch {
    return false;
  }
}
