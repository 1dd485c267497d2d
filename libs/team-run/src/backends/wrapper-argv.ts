import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Absolute path of the built okstra-team bin (`dist/bin.js`), which the
 * panes run as the wrapper (its `exec` sub-command). Resolved through the
 * `okstra-team` package (its own name from inside it, a dependency from
 * okstra-convergence or the umbrella), never relative to this module: the
 * dispatch code is bundled into more than one bin, and only okstra-team's has
 * `exec`. Under test the workspace link points at apps/okstra-team, whose
 * build is what runs.
 */
export function teamBinPath(): string {
  const pkg = createRequire(import.meta.url).resolve('okstra-team/package.json');
  return join(dirname(pkg), 'dist', 'bin.js');
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
