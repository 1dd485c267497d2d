import { resolve } from 'node:path';
import { InputError } from './errors.js';

/**
 * A path argument (`--work-state x.json`, `--project-root .`): relative paths
 * are relative to the caller's working directory `io.cwd`, never to the
 * process's, so a command run in-process by the umbrella or a test resolves
 * the same file (docs/conventions.md "One rule, one home"). `option`
 * (`--output`) is named in the refusal of `-` or an empty path.
 * @returns the absolute path.
 */
export function pathArg(io: { readonly cwd: string }, path: string, option?: string): string {
  // `--project-root "$ROOT"` with ROOT unset would name the cwd: another project, judged silently.
  if (path === '') throw new InputError("an empty path names nothing: give the path ('.' for the current directory)", option ? { field: option } : {});
  // `-` is stdin/stdout, never a file named `-`: a command that takes a document there checks isStdio first.
  if (isStdio(path))
    throw new InputError(
      `'-' (stdin/stdout) is accepted only for a document input or output; ${option ?? 'this option'} names a file or directory on disk (a state file is read and rewritten in place, a project root is walked): give its path`,
      option ? { field: option } : { file: '-' },
    );
  return resolve(io.cwd, path);
}

/**
 * A path argument that names an input or output document, where `-` means
 * stdin / stdout: `-` itself, or {@link pathArg}'s absolute path.
 */
export function documentArg(io: { readonly cwd: string }, path: string): string {
  return isStdio(path) ? '-' : pathArg(io, path);
}

/**
 * True for the path argument `-`: an input document read from stdin or a new
 * output document written to stdout (docs/conventions.md "Input and output
 * files"). Only `-` itself: `/dev/stdin`, FIFOs and other non-regular paths
 * stay refused by the file rules.
 */
export function isStdio(path: string): boolean {
  return path === '-';
}
