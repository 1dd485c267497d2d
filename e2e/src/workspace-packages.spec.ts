// Packaging rules every published package keeps (docs/release.md), and the
// dependency direction the project graph must show: libs never depend on
// apps, apps never on apps (the umbrella, which depends on every tool, excepted).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { enginesOfClosure, repoRoot } from './local-registry.js';

interface Manifest {
  name: string;
  private?: boolean;
  type?: string;
  bin?: Record<string, string>;
  files?: string[];
  engines?: { node?: string };
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  publishConfig?: Record<string, string>;
  license?: string;
  repository?: unknown;
  homepage?: string;
  bugs?: unknown;
}

const load = (dir: string) =>
  readdirSync(join(repoRoot, dir)).map((name) => ({
    dir: `${dir}/${name}`,
    manifest: JSON.parse(readFileSync(join(repoRoot, dir, name, 'package.json'), 'utf8')) as Manifest,
  }));
const libs = load('libs');
const apps = load('apps');
const appNames = new Set(apps.map((a) => a.manifest.name));
const libNames = new Set(libs.map((l) => l.manifest.name));

describe.each([...libs, ...apps].map((p) => [p.dir, p.manifest] as const))('%s', (dir, m) => {
  it('is a publishable ESM package shipping dist, a README and the licence, published with public access', () => {
    expect(m.private).toBeUndefined();
    expect(m.type).toBe('module');
    expect(m.files?.[0]).toBe('dist');
    expect(m.exports?.['.']).toMatchObject({ types: expect.stringMatching(/^\.\/dist\//), default: expect.stringMatching(/^\.\/dist\//) });
    expect(m.publishConfig).toEqual({ access: 'public' });
    expect(readFileSync(join(repoRoot, dir, 'LICENSE'), 'utf8')).toBe(readFileSync(join(repoRoot, 'LICENSE'), 'utf8'));
    expect(m.license).toBe('MIT');
    const readme = readFileSync(join(repoRoot, dir, 'README.md'), 'utf8');
    expect(readme).toMatch(new RegExp(`^# ${m.name.replace('/', '\\/')}\n`));
    expect(readme).toMatch(/```(sh|js)\n/);
  });

  it('names the repository, homepage and issue tracker of the workspace', () => {
    const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { repository: { url: string } };
    const base = root.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(m.repository).toEqual({ type: 'git', url: root.repository.url, directory: dir });
    expect(m.homepage).toBe(`${base}/tree/main/${dir}#readme`);
    expect(m.bugs).toEqual({ url: `${base}/issues` });
  });

  it('claims an engines.node range every dependency it ships (or bundles) supports', () => {
    const range = m.engines?.node ?? '';
    expect(semver.validRange(range)).not.toBeNull();
    for (const [dep, needs] of enginesOfClosure(dir)) expect(semver.subset(range, needs), `${dir}: ${dep} needs node ${needs}`).toBe(true);
  });

  it('depends on no app (the umbrella excepted)', () => {
    const deps = Object.keys(m.name === 'okstra' ? {} : (m.dependencies ?? {}));
    expect(deps.filter((d) => appNames.has(d))).toEqual([]);
  });

  it('pins workspace dependencies to the workspace version', () => {
    for (const [dep, range] of Object.entries(m.dependencies ?? {})) {
      if (!libNames.has(dep)) continue;
      const lib = libs.find((l) => l.manifest.name === dep)!;
      const version = JSON.parse(readFileSync(join(repoRoot, lib.dir, 'package.json'), 'utf8')).version;
      expect(range, `${dir} → ${dep}`).toBe(version);
    }
  });

  if (dir.startsWith('libs/') && m.name !== '@okstra/cli-kit') {
    // The install-side half of the lint layering rule (eslint.config.mjs).
    it('pulls in no CLI parser (commander is cli-kit-only)', () => {
      const deps = Object.keys(m.dependencies ?? {});
      expect(deps.filter((d) => d === 'commander' || d === '@okstra/cli-kit')).toEqual([]);
    });
  }

  if (dir.startsWith('libs/') && m.name !== '@okstra/schemas') {
    // The install-side half of the zod rule: one home, libs/schemas/src/zod.ts (docs/conventions.md).
    it('depends on no zod of its own (it imports @okstra/schemas/zod)', () => {
      expect(Object.keys(m.dependencies ?? {})).not.toContain('zod');
    });
  }

  if (dir.startsWith('apps/')) {
    it('has a bin named after the package', () => {
      expect(m.bin).toEqual({ [m.name]: './dist/bin.js' });
    });
  }
  if (dir.startsWith('apps/') && m.name !== 'okstra') {
    // The bin is one bundle (tools/bundle-bin.mjs): installing it installs nothing else.
    it('has no runtime dependencies (everything it runs is bundled into dist/)', () => {
      expect(m.dependencies ?? {}).toEqual({});
      expect(m.peerDependencies ?? {}).toEqual({});
    });
  }
});

describe('umbrella', () => {
  it('depends on every tool at the workspace version and on nothing else (`npm i -g okstra` gives every tool)', () => {
    const okstra = apps.find((a) => a.manifest.name === 'okstra')!.manifest;
    const tools = [...appNames].filter((n) => n !== 'okstra').sort();
    const version = JSON.parse(readFileSync(join(repoRoot, 'apps/okstra/package.json'), 'utf8')).version as string;
    expect(okstra.dependencies).toEqual(Object.fromEntries(tools.map((t) => [t, version])));
    expect(okstra.peerDependencies).toBeUndefined();
  });
});
