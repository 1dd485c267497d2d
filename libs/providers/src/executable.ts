import { accessSync, constants, statSync } from 'node:fs';
import { InputError } from '@okstra/core';

/**
 * The absolute path of a provider executable, checked at dispatch time
 * (docs/providers.md "Missing CLIs"): a bare name is looked up on the
 * dispatching shell's `PATH` by `findOnPath` (the caller passes @okstra/core's
 * `findOnPath`, the one PATH rule — libs do not import the CLI kit; the pane's
 * environment is the tmux server's, so the job file records the absolute
 * path); a path must be an executable regular file.
 * @throws InputError (exit 2) `provider CLI 'kimi' not found on PATH` (or
 *   `… is not an executable file`) naming `where`, before anything is written.
 */
export function resolveProviderExecutable(file: string, findOnPath: (name: string) => string | null, where: { file?: string; field?: string } = {}): string {
  if (file.includes('/')) {
    if (!isExecutableFile(file)) throw new InputError(`provider CLI '${file}' is not an executable file`, where);
    return file;
  }
  const found = findOnPath(file);
  if (!found) throw new InputError(`provider CLI '${file}' not found on PATH`, where);
  return found;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
