import { UsageError } from './errors.js';

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
