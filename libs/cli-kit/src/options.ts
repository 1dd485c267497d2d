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

/**
 * The one grammar of a duration written on a command line or in an `OKSTRA_*`
 * knob: a plain decimal number (`360`, `0.5`) — no sign, exponent, hex,
 * `Infinity` or surrounding whitespace, which `Number()` alone would take
 * (docs/conventions.md "One rule, one home").
 * @returns the number, or null when `raw` is not such a number.
 */
function readDecimal(raw: string): number | null {
  return /^[0-9]+(\.[0-9]+)?$/.test(raw) ? Number(raw) : null;
}

/**
 * Parse a non-negative number of seconds (`--max-idle 360`, fractions allowed;
 * grammar of {@link readDecimal}), at most `max` seconds when given.
 * @throws UsageError (exit 2) naming the flag on anything else.
 */
export function parseSeconds(flag: string, raw: string, limits: { max?: number } = {}): number {
  const n = readDecimal(raw);
  if (n === null) throw new UsageError(`${flag} expects a non-negative number of seconds, got '${raw}'`);
  if (limits.max !== undefined && !(n <= limits.max)) throw new UsageError(`${flag} is at most ${limits.max} seconds, got '${raw}'`);
  return n;
}

/**
 * Parse a positive number of minutes (`--deadline 0.5`; grammar of {@link readDecimal}, zero refused).
 * @throws UsageError (exit 2) naming the flag on anything else.
 */
export function parseMinutes(flag: string, raw: string): number {
  const n = readDecimal(raw);
  if (n === null || n <= 0) throw new UsageError(`${flag} expects a positive number of minutes, got '${raw}'`);
  return n;
}

/** Split a comma-separated list, trimming blanks: `a, b,,c` → `[a,b,c]`. */
export function parseCsv(raw: string | undefined): string[] {
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
