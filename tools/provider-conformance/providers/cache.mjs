// Where `npm run providers:install` puts the pinned provider CLIs: one
// directory per lockfile content, under $OKSTRA_PROVIDERS_CACHE (else
// $XDG_CACHE_HOME/okstra/provider-clis, else ~/.cache/okstra/provider-clis),
// so a changed pin is a fresh install and an unchanged one is reused.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** `bin/<name>` links of an install → the file each points at (relative to the install). */
export const CLI_LINKS = {
  claude: `node_modules/@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`,
  codex: 'node_modules/@openai/codex/bin/codex.js',
};

/** The cache directory of this lockfile's install (absolute; it may not exist yet). */
export function providersCacheDir(env = process.env) {
  const root = env.OKSTRA_PROVIDERS_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'okstra', 'provider-clis');
  const lock = readFileSync(join(here, 'package-lock.json'));
  return join(root, createHash('sha256').update(lock).digest('hex').slice(0, 16));
}
