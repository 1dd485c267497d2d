// Packaging rules every published package keeps, and the dependency
// direction the project graph must show: libs never depend on apps, apps
// never on apps (the umbrella's optional peers excepted).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './local-registry.js';

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
  it('is a publishable ESM package for Node >= 20 shipping dist only', () => {
    expect(m.private).toBeUndefined();
    expect(m.type).toBe('module');
    expect(m.engines?.node).toBe('>=20');
    expect(m.files?.[0]).toBe('dist');
    expect(m.exports?.['.']).toMatchObject({ types: expect.stringMatching(/^\.\/dist\//), default: expect.stringMatching(/^\.\/dist\//) });
  });

  it('depends on no app', () => {
    const deps = Object.keys(m.dependencies ?? {});
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

  if (dir.startsWith('apps/')) {
    it('has a bin named after the package', () => {
      expect(m.bin).toEqual({ [m.name]: './dist/bin.js' });
    });
  }
});

describe('umbrella', () => {
  it('lists every tool as an optional peer, not a dependency', () => {
    const okstra = apps.find((a) => a.manifest.name === 'okstra')!.manifest;
    const tools = [...appNames].filter((n) => n !== 'okstra').sort();
    expect(Object.keys(okstra.peerDependencies ?? {}).sort()).toEqual(tools);
    expect(Object.keys(okstra.dependencies ?? {}).filter((d) => appNames.has(d))).toEqual([]);
  });
});
