/**
 * A real verdaccio on loopback with its storage in a temp folder, and the
 * helpers e2e needs around it: publish the workspace with `nx release
 * publish`, seed the third-party runtime dependencies (tests have no network
 * beyond loopback, so verdaccio has no uplink), install into a temp prefix.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const repoRoot = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');

export interface LocalRegistry {
  url: string;
  dir: string;
  /** An npm userconfig pointing at the registry with a token, so the user's npm config is never touched. */
  npmrc: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Start verdaccio on 127.0.0.1 with temp storage and open publish; resolves once it answers /-/ping. */
export async function startRegistry(): Promise<LocalRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'okstra-e2e-registry-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${join(dir, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(dir, 'htpasswd')}`,
      'uplinks: {}',
      'packages:',
      "  '@*/*': { access: $all, publish: $all, unpublish: $all }",
      "  '**': { access: $all, publish: $all, unpublish: $all }",
      'log: { type: stdout, format: json, level: warn }',
      'max_body_size: 200mb',
      '',
    ].join('\n'),
  );
  const npmrc = join(dir, '.npmrc');
  writeFileSync(npmrc, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=okstra-e2e-token\n`);
  const child: ChildProcess = spawn(
    process.execPath,
    [join(repoRoot, 'node_modules/verdaccio/bin/verdaccio'), '--config', config, '--listen', `127.0.0.1:${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited ${child.exitCode}: ${output}`);
    try {
      const res = await fetch(`${url}/-/ping`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`verdaccio did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dir,
    npmrc,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface LockEntry {
  version?: string;
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
}

/**
 * The installed folders (lockfile keys) of every third-party package the
 * published workspace packages need at run time, transitively, resolved the
 * way Node resolves them (nested `node_modules` first).
 */
export function runtimeDependencyClosure(): string[] {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const pkgs = lock.packages;
  const workspaceDirs = Object.keys(pkgs).filter((k) => /^(apps|libs)\/[^/]+$/.test(k));
  const workspaceNames = new Set(workspaceDirs.map((k) => JSON.parse(readFileSync(join(repoRoot, k, 'package.json'), 'utf8')).name as string));
  const resolveKey = (from: string, name: string) => resolveLockKey(pkgs, from, name);
  const seen = new Set<string>();
  const visit = (fromKey: string, entry: LockEntry) => {
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !entry.peerDependenciesMeta?.[n]?.optional),
    ];
    for (const name of names) {
      if (workspaceNames.has(name)) continue;
      const key = resolveKey(fromKey, name);
      if (!key || seen.has(key)) continue;
      const dep = pkgs[key]!;
      if (dep.link) continue;
      seen.add(key);
      visit(key, dep);
    }
  };
  for (const ws of workspaceDirs) {
    const manifest = JSON.parse(readFileSync(join(repoRoot, ws, 'package.json'), 'utf8')) as LockEntry;
    visit(ws, { dependencies: manifest.dependencies, peerDependencies: manifest.peerDependencies, peerDependenciesMeta: manifest.peerDependenciesMeta });
  }
  return [...seen].sort();
}

/**
 * Every third-party package a published package ships or bundles, with its
 * `engines.node` range (those that declare one): a lib's `dependencies`,
 * transitively through the libs it depends on; a tool's `devDependencies`
 * (its bin bundles them, tools/bundle-bin.mjs); the umbrella's tools and theirs.
 */
export function enginesOfClosure(dir: string): Array<[string, string]> {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry & { engines?: { node?: string } }>;
  };
  const pkgs = lock.packages;
  const manifest = (d: string) =>
    JSON.parse(readFileSync(join(repoRoot, d, 'package.json'), 'utf8')) as LockEntry & { name: string; devDependencies?: Record<string, string> };
  const workspace = new Map(
    Object.keys(pkgs)
      .filter((k) => /^(apps|libs)\/[^/]+$/.test(k))
      .map((k) => [manifest(k).name, k] as const),
  );
  const shipped = (d: string) => {
    const m = manifest(d);
    return d.startsWith('apps/') && m.name !== 'okstra' ? m.devDependencies : m.dependencies;
  };
  const resolveKey = (from: string, name: string) => resolveLockKey(pkgs, from, name);
  const seen = new Set<string>();
  const out: Array<[string, string]> = [];
  const visit = (from: string, deps: Record<string, string> | undefined) => {
    for (const name of Object.keys(deps ?? {})) {
      const ws = workspace.get(name);
      const key = ws ?? resolveKey(from, name);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      if (ws) {
        visit(ws, shipped(ws));
        continue;
      }
      const node = pkgs[key]!.engines?.node;
      if (node) out.push([key, node]);
      visit(key, pkgs[key]!.dependencies);
    }
  };
  visit(dir, shipped(dir));
  return out;
}

/**
 * Publish an installed third-party package folder to the registry as npm
 * would (PUT of the packument with the tarball attached). The tarball holds
 * exactly the installed files, which are the files npm extracted from the
 * original tarball.
 */
export async function publishInstalledFolder(registry: LocalRegistry, key: string, workDir: string): Promise<void> {
  const dir = join(repoRoot, key);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown> & { name: string; version: string };
  const entries = readdirSync(dir).filter((e) => e !== 'node_modules');
  const tgz = join(workDir, `${manifest.name.replace('/', '-')}-${manifest.version}.tgz`);
  const tar = spawnSync('tar', ['-czf', tgz, '-C', dir, '--transform', 's,^,package/,', ...entries], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar failed for ${key}: ${tar.stderr}`);
  const data = readFileSync(tgz);
  const file = `${manifest.name.split('/').pop()}-${manifest.version}.tgz`;
  const { scripts: _scripts, publishConfig: _publishConfig, ...clean } = manifest;
  const body = {
    _id: manifest.name,
    name: manifest.name,
    'dist-tags': { latest: manifest.version },
    versions: {
      [manifest.version]: {
        ...clean,
        _id: `${manifest.name}@${manifest.version}`,
        dist: {
          shasum: createHash('sha1').update(data).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
          tarball: `${registry.url}/${manifest.name}/-/${file}`,
        },
      },
    },
    _attachments: { [file]: { content_type: 'application/octet-stream', data: data.toString('base64'), length: data.length } },
  };
  const res = await fetch(`${registry.url}/${manifest.name.replace('/', '%2f')}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: 'Bearer okstra-e2e-token' },
    body: JSON.stringify(body),
  });
  // 409: this name@version is already there (two lock entries of one version).
  if (!res.ok && res.status !== 409) throw new Error(`publishing ${key} failed: ${res.status} ${await res.text()}`);
}

/** Seed every third-party runtime dependency of the workspace into the registry. */
export async function seedThirdParty(registry: LocalRegistry): Promise<number> {
  const workDir = join(registry.dir, 'tarballs');
  mkdirSync(workDir, { recursive: true });
  const keys = runtimeDependencyClosure();
  const seen = new Set<string>();
  const unique = keys.filter((k) => {
    const m = JSON.parse(readFileSync(join(repoRoot, k, 'package.json'), 'utf8')) as { name: string; version: string };
    const id = `${m.name}@${m.version}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  for (let i = 0; i < unique.length; i += 8) {
    await Promise.all(unique.slice(i, i + 8).map((k) => publishInstalledFolder(registry, k, workDir)));
  }
  return unique.length;
}

/** `nx release publish` of every lib and app to the registry with dist-tag `e2e`. */
export function publishWorkspace(registry: LocalRegistry): void {
  const r = spawnSync(
    process.execPath,
    [join(repoRoot, 'node_modules/nx/dist/bin/nx.js'), 'release', 'publish', '--registry', registry.url, '--tag', 'e2e', '--parallel', '4'],
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, npm_config_userconfig: registry.npmrc, NX_DAEMON: 'false', NX_TUI: 'false' } },
  );
  if (r.status !== 0) throw new Error(`nx release publish failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}

/** Install `specs` globally into a fresh prefix from the registry only; returns the prefix's bin dir. */
export function installInto(registry: LocalRegistry, specs: string[]): string {
  const prefix = mkdtempSync(join(registry.dir, 'prefix-'));
  const r = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--cache', join(registry.dir, 'npm-cache'), ...specs], {
    encoding: 'utf8',
    env: { ...process.env, npm_config_userconfig: registry.npmrc, npm_config_registry: `${registry.url}/` },
  });
  if (r.status !== 0) throw new Error(`npm install failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return join(prefix, 'bin');
}

/**
 * The lock-file key `name` resolves to from package key `from`, the way Node
 * resolves it: `<from>/node_modules/<name>`, then each enclosing
 * `node_modules` up to the root; undefined when none is in the lock.
 */
function resolveLockKey(pkgs: Record<string, unknown>, from: string, name: string): string | undefined {
  for (let base = from; ;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (pkgs[candidate]) return candidate;
    if (!base) return undefined;
    const at = base.lastIndexOf('/node_modules/');
    base = at >= 0 ? base.slice(0, at) : '';
  }
}
