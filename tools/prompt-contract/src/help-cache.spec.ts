// The bundled bins answer `[<command>…] --help` from dist/help.json without
// loading commander (libs/cli-kit `cachedHelp`, docs/release.md "Bundled
// bins"). The cache must never drift from what commander prints: for every
// bin, it covers every command of the program tree, and each text is
// byte-identical to the live rendering of a copy of the bin without the cache.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryIo } from '@okstra/cli-kit';
import { createProgram as convergence } from 'okstra-convergence/program';
import { createProgram as planItems } from 'okstra-plan-items/program';
import { createProgram as liveness } from 'okstra-worker-liveness/program';
import { createProgram as runAudit } from 'okstra-run-audit/program';
import { createProgram as team } from 'okstra-team/program';

const apps = new URL('../../../apps/', import.meta.url).pathname;
const PROGRAMS = {
  'okstra-convergence': convergence,
  'okstra-plan-items': planItems,
  'okstra-worker-liveness': liveness,
  'okstra-run-audit': runAudit,
  'okstra-team': team,
};

interface Node {
  commands: Node[];
  name(): string;
}

/** Every command path of a program (`''`, `seed`, `error-issue plan`, …), without commander's implicit `help`. */
function commandPaths(create: (typeof PROGRAMS)[keyof typeof PROGRAMS], name: string): string[] {
  const program = create({ io: memoryIo(), name, version: '0', exitCode: 0 } as never) as unknown as Node;
  const out: string[] = [];
  const walk = (c: Node, path: string[]) => {
    out.push(path.join(' '));
    for (const s of c.commands) if (s.name() !== 'help') walk(s, [...path, s.name()]);
  };
  walk(program, []);
  return out.sort();
}

const help = (bin: string, path: string) =>
  spawnSync(process.execPath, [bin, ...(path ? path.split(' ') : []), '--help'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });

describe.each(Object.entries(PROGRAMS))('%s help cache', (name, create) => {
  const dist = join(apps, name, 'dist');
  const cache = JSON.parse(readFileSync(join(dist, 'help.json'), 'utf8')) as { schemaVersion: string; texts: Record<string, string> };

  it('covers every command of the program tree', () => {
    expect(cache.schemaVersion).toBe('1.0');
    expect(Object.keys(cache.texts).sort()).toEqual(commandPaths(create, name));
  });

  it('is byte-identical to what commander prints to a pipe, and is what the bin prints', () => {
    const base = mkdtempSync(join(tmpdir(), 'okstra-help-cache-'));
    try {
      cpSync(dist, join(base, 'dist'), { recursive: true });
      cpSync(join(apps, name, 'package.json'), join(base, 'package.json'));
      rmSync(join(base, 'dist', 'help.json'));
      for (const [path, text] of Object.entries(cache.texts)) {
        const live = help(join(base, 'dist', 'bin.js'), path);
        expect(live.status, path).toBe(0);
        expect(text, `${name} ${path} --help`).toBe(live.stdout);
        const cached = help(join(dist, 'bin.js'), path);
        expect([cached.status, cached.stdout, cached.stderr]).toEqual([0, text, '']);
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
