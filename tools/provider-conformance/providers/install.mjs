#!/usr/bin/env node
// `npm run providers:install`: installs the pinned provider CLIs (Claude Code,
// Codex) that the conformance and worker suites run — from this directory's
// own package-lock.json (versions and integrity pinned), with `npm ci` — into
// a cache outside the repository that every later run reuses. The root
// `npm ci` never installs them (issue 27.1). A no-op when the cache holds this
// lockfile's install. Exit 0 ready (prints the cache directory), 1 the install
// failed (the message names this step).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_LINKS, providersCacheDir } from './cache.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dir = providersCacheDir();
const fail = (message) => {
  process.stderr.write(`providers:install failed: ${message}\n`);
  process.exit(1);
};

if (!existsSync(join(dir, '.installed'))) {
  const started = Date.now();
  process.stderr.write(`providers:install: installing the pinned provider CLIs into ${dir} (once; later runs reuse it)\n`);
  const tmp = `${dir}.tmp-${process.pid}`;
  try {
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    mkdirSync(tmp);
    for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(here, f), join(tmp, f));
  } catch (error) {
    fail(`cannot prepare the cache directory ${dir} (${error.code ?? error.message}); set OKSTRA_PROVIDERS_CACHE to a writable directory`);
  }
  // --ignore-scripts: nothing of the packages runs at install; the bin links below point at the platform binaries.
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const r = spawnSync(npm[0], [...npm.slice(1), 'ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', tmp], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_workspaces: 'false' },
  });
  if (r.error) fail(`cannot run npm (${r.error.message})`);
  if (r.status !== 0) fail(`npm ci of tools/provider-conformance/providers/package-lock.json exited ${r.status ?? r.signal}`);
  mkdirSync(join(tmp, 'bin'));
  for (const [name, target] of Object.entries(CLI_LINKS)) {
    if (!existsSync(join(tmp, target))) fail(`the install has no ${target} (is this platform one the pinned CLIs ship for?)`);
    symlinkSync(join('..', target), join(tmp, 'bin', name));
  }
  writeFileSync(join(tmp, '.installed'), `${new Date().toISOString()}\n`);
  try {
    renameSync(tmp, dir);
  } catch (error) {
    // A concurrent install finished first: keep its copy.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(dir, '.installed'))) fail(`cannot move the install into ${dir} (${error.code ?? error.message})`);
  }
  process.stderr.write(`providers:install: ready in ${Math.round((Date.now() - started) / 1000)} s\n`);
}
process.stdout.write(`${dir}\n`);
