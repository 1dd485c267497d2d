import { readFileSync } from 'node:fs';
import { InputError } from '@okstra/cli-kit';
import { validateValue, type ReadJsonOptions } from '@okstra/state-file';

/**
 * Synchronous counterpart of `readJsonFile` (libs/state-file) for the audit's
 * many small artifacts: same checks and the same messages — file missing,
 * empty, malformed or truncated JSON, unsupported `schemaVersion`, schema
 * violation with its JSON path — validated by state-file's `validateValue`.
 * @throws InputError naming `options.label` (default: the path).
 */
export function readJsonSync<T>(path: string, options: Omit<ReadJsonOptions<T>, 'maxBytes'> = {}): T {
  const file = options.label ?? path;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, expected a file' : `cannot read file (${code ?? 'unknown'})`, { file });
  }
  if (text.trim() === '') throw new InputError('file is empty, expected JSON', { file });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(`is not valid JSON (truncated or malformed): ${(error as Error).message}`, { file });
  }
  return validateValue(data, { ...options, label: file });
}
