/**
 * The words for an errno that means the machine ran out of something — space,
 * quota, the file-size limit (`ulimit -f`), file descriptors — rather than a
 * bug. Every writer reports these as exit 2 with one line naming the file and
 * this cause, never 70 (docs/conventions.md "Writing files"); the error funnel
 * applies the same rule to one no writer caught. undefined for any other code.
 */
export function resourceCause(code: string | undefined): string | undefined {
  switch (code) {
    case 'ENOSPC':
      return 'no space left on the device (ENOSPC)';
    case 'EDQUOT':
      return 'disk quota exceeded (EDQUOT)';
    case 'EFBIG':
      return 'file size limit exceeded (EFBIG)';
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files (${code})`;
    default:
      return undefined;
  }
}
