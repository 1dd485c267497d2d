/** `['workers', 2, 'status']` → `workers[2].status`; `[]` → `$`. */
export function formatJsonPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '$';
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}
