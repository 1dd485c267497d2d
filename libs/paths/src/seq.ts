import { InputError } from '@okstra/core';

/**
 * A run sequence number as it appears in file names: zero-padded to three
 * digits (`1` → `001`, `1234` → `1234`). Accepts a number or a digit string.
 * @throws InputError for anything but a positive integer.
 */
export function formatSeq(seq: number | string): string {
  const known = FORMATTED.get(seq);
  if (known !== undefined) return known;
  const n = typeof seq === 'number' ? seq : /^[0-9]+$/.test(seq) ? Number(seq) : NaN;
  if (!Number.isInteger(n) || n < 1) throw new InputError(`invalid seq '${seq}': expected a positive integer like 001`);
  const out = String(n).padStart(3, '0');
  if (FORMATTED.size >= 1024) FORMATTED.clear();
  FORMATTED.set(seq, out);
  return out;
}

// Every path of a run formats the same seq: an audit of 5,000 runs called this ~250,000 times.
const FORMATTED = new Map<number | string, string>();

/** `001` → 1. @throws InputError when not a zero-padded positive integer. */
export function parseSeq(text: string): number {
  if (!/^[0-9]{3,}$/.test(text) || Number(text) < 1) {
    throw new InputError(`invalid seq '${text}': expected a zero-padded positive integer like 001`);
  }
  return Number(text);
}

/** The `-<task-type>-<seq>` suffix every run artifact name carries. */
export function runSuffix(taskType: string, seq: number | string): string {
  return `-${taskType}-${formatSeq(seq)}`;
}
