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

/** Characters a word sent through cmux `--command` may have (it is typed into a shell). */
const SHELL_SAFE = /^[A-Za-z0-9@%+=:,./_-]+$/;

/**
 * The one line cmux types into its shell: `exec` of the wrapper, every word
 * single-quoted. Only okstra-generated words of safe characters are allowed.
 * @returns null when a word is unsafe (the job then degrades to a subprocess).
 */
export function cmuxExecLine(jobPath: string): string | null {
  const words = wrapperArgv(jobPath);
  if (!words.every((w) => SHELL_SAFE.test(w))) return null;
  return `exec ${words.map((w) => `'${w}'`).join(' ')}`;
}
