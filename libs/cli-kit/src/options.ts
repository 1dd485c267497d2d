import { UsageError } from '@okstra/core';

/** Commander argParser for a repeatable option: collects every value in order. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * Split `key=value` (first `=`), as in `--result <worker>=<path>`.
 * @throws UsageError naming the flag when there is no `=` or either side is empty.
 */
export function parseKeyValue(flag: string, raw: string): { key: string; value: string } {
  const at = raw.indexOf('=');
  if (at <= 0 || at === raw.length - 1) {
    throw new UsageError(`${flag} expects <key>=<value>, got '${raw}'`);
  }
  return { key: raw.slice(0, at), value: raw.slice(at + 1) };
}

/** Split a comma-separated list, trimming blanks: `a, b,,c` → `[a,b,c]`. */
export function parseCsv(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
