import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the built okstra-team bin (`dist/bin.js`), which the
 * panes run as the wrapper. Resolved from this module (a chunk of the bundle
 * in dist/, or src/backends/ under test) so it works from the installed
 * package as well as from the workspace.
 */
export function teamBinPath(): string {
  // The bundled bin's chunks sit beside dist/bin.js; a module under src/ (tests) points at the build.
  for (const rel of ['./bin.js', '../../dist/bin.js']) {
    const candidate = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(candidate)) return candidate;
  }
  return fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
}

/** The wrapper's argv: `node <okstra-team> exec --job <job-file>` — the only thing a pane runs. */
export function wrapperArgv(jobPath: string): string[] {
  return [process.execPath, teamBinPath(), 'exec', '--job', jobPath];
}

/**
 * One word of the line cmux types into a shell, single-quoted so the shell
 * takes it literally whatever it holds (spaces, `#`, `;`, `$(…)`, backticks,
 * quotes: a `'` is written `'\''`). The shell home of okstra's cmux guard
 * (docs/team.md "cmux panes"), as backends/tmux.ts is tmux's.
 * @returns null for a word with a control character (a newline would end the typed line early).
 */
export function shellQuote(word: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(word)) return null;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The one line cmux types into its shell: `exec` of the wrapper with the
 * okstra job file, every word through {@link shellQuote}.
 * @returns null when a word cannot be typed (the job then degrades to a subprocess).
 */
export function cmuxExecLine(jobPath: string): string | null {
  const words = wrapperArgv(jobPath).map(shellQuote);
  if (words.some((w) => w === null)) return null;
  return `exec ${words.join(' ')}`;
}
