// Kept apart from run-cli.ts (which loads commander) so a bin that catches its
// own errors, like the umbrella's, reports them without loading the parser.
import { ExitCode, OkstraError, oneLine, resourceCause } from '@okstra/core';
import type { Io } from './io.js';

/**
 * Print `error` the workspace way and return its exit code: an
 * {@link OkstraError} is its one-line message and its exit code; anything else
 * is 70 with "this is a bug" — except an errno of an exhausted resource
 * (ENOSPC, EDQUOT, EFBIG, EMFILE, ENFILE: `resourceCause`), which is exit 2
 * naming its path (its stack trace only when OKSTRA_DEBUG is set, for a bug).
 * runCli handles commander's own errors before calling this; exposed for bins
 * that do not use commander.
 */
export function reportError(name: string, error: unknown, io: Pick<Io, 'stderr' | 'env'>): number {
  if (error instanceof OkstraError) {
    io.stderr.write(`${name}: ${error.toLine()}\n`);
    return error.exitCode;
  }
  // A full disk, quota, `ulimit -f` or fd limit no writer turned into an InputError is still
  // the machine's state, not a bug: exit 2 naming the file (docs/conventions.md "Writing files").
  const errno = error as NodeJS.ErrnoException | undefined;
  const cause = resourceCause(errno?.code);
  if (cause) {
    io.stderr.write(`${name}: ${oneLine(`${errno?.path ? `${errno.path}: ` : ''}cannot ${errno?.syscall ?? 'write'} it: ${cause}`)}\n`);
    return ExitCode.INVALID;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`${name}: internal error (this is a bug, please report it): ${oneLine(message)}\n`);
  if (io.env.OKSTRA_DEBUG && error instanceof Error && error.stack) io.stderr.write(error.stack + '\n');
  return ExitCode.INTERNAL;
}
