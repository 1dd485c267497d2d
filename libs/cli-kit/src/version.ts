// Kept apart from run-cli.ts (which loads commander) so a bin can answer
// `--version` without loading its argument parser (bench/commands.bench.mjs).
import { readFileSync } from 'node:fs';

/** Read `version` from the package.json next to `dist/` or `src/` (`importMetaUrl` of a module there). */
export function packageVersion(importMetaUrl: string): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', importMetaUrl), 'utf8')) as { version: string };
  return pkg.version;
}

/** True when `argv` (the words after the bin name) is exactly `--version` or `-V`: the answer needs no argument parser. */
export function isVersionRequest(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}
