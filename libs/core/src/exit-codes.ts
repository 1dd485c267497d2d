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
 *
 * `STDOUT_CLOSED` (141 = 128 + SIGPIPE, what a shell reports for `yes | head -1`)
 * replaces a 0 or 1 when the reader of stdout went away before the command
 * finished printing (`okstra run-audit --json | head -1`): the command still
 * finishes its work quietly, but its caller did not see the whole answer, so
 * neither "ok" nor "violations found" may be claimed. A 2 or 70 is kept.
 * See docs/conventions.md "Rules every command keeps".
 */
export const ExitCode = {
  OK: 0,
  JUDGEMENT: 1,
  INVALID: 2,
  INTERNAL: 70,
  STDOUT_CLOSED: 141,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
