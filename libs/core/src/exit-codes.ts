/**
 * The three exit codes every okstra tool uses (docs/conventions.md "Rules every command keeps").
 *
 * - `OK` (0): success.
 * - `JUDGEMENT` (1): a negative judgement the caller branches on
 *   (an unhealthy worker, audit violations, a worker that ended timeout/error).
 * - `INVALID` (2): invalid input, usage error or contract violation, including
 *   every validator the seeds say "exits 2".
 *
 * `INTERNAL` (70, BSD `EX_SOFTWARE`) is reserved for bugs: an exception that no
 * command turned into a typed error. Tests treat it as a failure.
 */
export const ExitCode = {
  OK: 0,
  JUDGEMENT: 1,
  INVALID: 2,
  INTERNAL: 70,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
