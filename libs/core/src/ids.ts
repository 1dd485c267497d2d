/**
 * One segment of a task key `<project-id>:<task-group>:<task-id>`, which is
 * also one directory name under `.okstra/tasks/` (docs/contracts.md §4): one
 * or more Unicode letters, combining marks or digits, `.`, `_` or `-`; never
 * `.` or `..`. Task ids are the user's own words (`환불-타임아웃`, `café`), so
 * they are not held to ASCII; nothing in the class can leave the directory
 * (no `/`, `\`, `:`, NUL, space or control character). A worker id is one
 * such segment too (a roster may name `리뷰어-1`); task types and dispatch
 * kinds stay ASCII: okstra itself names those.
 */
export const TASK_KEY_SEGMENT = new RegExp(`^${segmentSource('$')}$`, 'u');

/** A whole task key: three {@link TASK_KEY_SEGMENT}s joined by `:`. */
export const TASK_KEY = new RegExp(`^${[':', ':', '$'].map(segmentSource).join(':')}$`, 'u');

/**
 * The source of one segment (for a `u`-flag RegExp) followed by `end` (`$`, `:`, `=`): the character class once
 * repeated, never `.` or `..` alone. Other grammars that embed an id (`--dispatch <worker>=…`) build from it.
 */
export function segmentSource(end: string): string {
  return `(?!\\.{1,2}${end})[\\p{L}\\p{M}\\p{N}._-]+`;
}

/**
 * Two task keys (or segments) name the same task when they are equal after
 * Unicode NFC normalization: a directory name written by macOS (NFD) and the
 * same id typed into a manifest (NFC) are one task.
 */
export function sameTaskKey(a: string, b: string): boolean {
  return a === b || a.normalize('NFC') === b.normalize('NFC');
}
