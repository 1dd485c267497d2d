// Shared context for demo steps: where the bins are, a temp copy of examples/,
// and a helper that runs a real bin and captures its output.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(new URL('../..', import.meta.url).pathname);

/**
 * Absolute path of an app's bin (`okstra`, `okstra-convergence`, …): the
 * workspace build, or with `OKSTRA_DEMO_BIN_DIR` set, the one installed there
 * (the e2e suite runs the demo against an `npm i -g okstra` prefix).
 */
export function binPath(name) {
  const installed = process.env.OKSTRA_DEMO_BIN_DIR;
  return installed ? join(installed, name) : join(repoRoot, 'apps', name, 'dist', 'bin.js');
}

/** Copy examples/ into a fresh temp directory; the demo never writes into the repo. */
export function makeWorkDir() {
  const dir = mkdtempSync(join(tmpdir(), 'okstra-demo-'));
  cpSync(join(repoRoot, 'examples'), dir, { recursive: true });
  return dir;
}

/** Run a built bin with argv; returns { code, stdout, stderr }. */
export function run(bin, args, options = {}) {
  const r = spawnSync(process.execPath, [binPath(bin), ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...(options.env ?? {}) },
    input: options.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status ?? 128, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
