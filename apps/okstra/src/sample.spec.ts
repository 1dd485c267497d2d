// `okstra sample <dir>` and the umbrella's own words (-v, help <plug-in>), through the real bin.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBin } from '@okstra/core/test-support';
import { SAMPLE_PROVIDERS, STUB_BIN, STUB_LOG } from './sample.js';

const bin = new URL('../dist/bin.js', import.meta.url).pathname;
const MANIFEST = '.okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-error-analysis-001.json';

function okstra(args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string) {
  return runBin(bin, args, { env, cwd });
}

describe('okstra sample <dir>', () => {
  it('writes the sample project and its stubs, and prints the one shell line that puts them first on PATH', () => {
    const base = mkdtempSync(join(tmpdir(), 'okstra-sample-'));
    try {
      const dir = join(base, "it's here");
      const r = okstra(['sample', dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`export PATH='${base}/it'\\''s here/${STUB_BIN}':"$PATH"\n`);
      expect(r.stderr).toContain(`okstra sample: wrote the sample project to ${dir}`);
      expect(existsSync(join(dir, MANIFEST))).toBe(true);
      expect(readdirSync(join(dir, STUB_BIN)).sort()).toEqual([...SAMPLE_PROVIDERS, 'gh'].sort());
      // The printed line, run by a shell, puts the stubs first: the recording gh answers and refuses to send.
      const sh = spawnSync('sh', ['-c', `${r.stdout.trim()}; command -v claude; gh auth status; gh issue create --repo a/b --title t; echo "exit $?"`], {
        encoding: 'utf8',
        cwd: dir,
      });
      expect(sh.stdout).toBe(`${dir}/${STUB_BIN}/claude\nexit 1\n`);
      expect(sh.stderr).toContain('stub gh: refusing to send anything');
      expect(readFileSync(join(dir, STUB_LOG), 'utf8')).toBe('gh auth status\ngh issue create --repo a/b --title t\n');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('the stubs satisfy the sample manifest: team dispatch --dry-run exits 0 with only the stub folder on PATH', () => {
    const base = mkdtempSync(join(tmpdir(), 'okstra-sample-'));
    try {
      const dir = join(base, 'sp');
      expect(okstra(['sample', dir]).code).toBe(0);
      const env = { HOME: base, PATH: `${join(dir, STUB_BIN)}:/usr/bin:/bin` };
      const r = okstra(['team', 'dispatch', '--dry-run', '--project-root', '.', '--run-manifest', MANIFEST], env, dir);
      expect(r.code, r.stderr).toBe(0);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it.each([
    [['sample'], 'no folder'],
    [['sample', 'a', 'b'], 'two folders'],
    [['sample', '--force', 'a'], 'an option'],
  ])('%j (%s): usage on stderr, exit 2', (args) => {
    const r = okstra(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Usage: okstra sample <dir>\n/);
  });

  it('refuses a folder that exists and is not empty, exit 2, writing nothing', () => {
    const base = mkdtempSync(join(tmpdir(), 'okstra-sample-'));
    try {
      mkdirSync(join(base, 'full'));
      writeFileSync(join(base, 'full', 'mine.txt'), 'keep\n');
      const r = okstra(['sample', join(base, 'full')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`okstra sample: ${join(base, 'full')} already exists and is not empty: nothing was written (name a new folder)\n`);
      expect(readdirSync(join(base, 'full'))).toEqual(['mine.txt']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  // A new user's `okstra sample /proc/nu` and `okstra sample <file>/sub` were exit 70 (ENOENT, ENOTDIR).
  it('refuses a folder that cannot be made (under a file, in /proc), exit 2 with its errno, leaving nothing', () => {
    const base = mkdtempSync(join(tmpdir(), 'okstra-sample-'));
    try {
      writeFileSync(join(base, 'file.json'), '{}\n');
      const cases: Array<[string, string]> = [
        [join(base, 'file.json', 'sub'), 'lies under a file, not a folder (ENOTDIR)'],
        ['/proc/okstra-sample', 'cannot be written (ENOENT)'],
      ];
      for (const [target, why] of cases) {
        const r = okstra(['sample', target]);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toBe(`okstra sample: ${target} ${why}: nothing was written (name a new folder)\n`);
        expect(existsSync(target)).toBe(false);
      }
      expect(readdirSync(base)).toEqual(['file.json']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('refuses a file, a device or a symlink as the folder, exit 2, writing nothing (was exit 70: ENOTDIR)', () => {
    const base = mkdtempSync(join(tmpdir(), 'okstra-sample-'));
    try {
      writeFileSync(join(base, 'file.json'), '{}\n');
      mkdirSync(join(base, 'empty'));
      symlinkSync(join(base, 'empty'), join(base, 'link'));
      const cases: Array<[string, string]> = [
        [join(base, 'file.json'), 'already exists and is not a directory'],
        ['/dev/null', 'already exists and is not a directory'],
        [join(base, 'link'), 'is a symbolic link'],
      ];
      for (const [target, why] of cases) {
        const r = okstra(['sample', target]);
        expect(r.code, target).toBe(2);
        expect(r.stderr).toBe(`okstra sample: ${target} ${why}: nothing was written (name a new folder)\n`);
      }
      expect(readdirSync(join(base, 'empty'))).toEqual([]);
      expect(readdirSync(base).sort()).toEqual(['empty', 'file.json', 'link']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('okstra sample --help and okstra help sample print its usage, exit 0', () => {
    expect(okstra(['sample', '--help'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: okstra sample <dir>\n/) });
    expect(okstra(['help', 'sample']).stdout).toBe(okstra(['sample', '--help']).stdout);
    expect(okstra(['--help']).stdout).toMatch(/^ {2}sample +write the sample project/m);
  });
});

describe('the umbrella words', () => {
  it('okstra -v suggests -V and lists the options, not the commands, exit 2', () => {
    const r = okstra(['-v']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("okstra: unknown option '-v' (did you mean '-V'?) (known: -V, --version, -h, --help; see 'okstra --help')\n");
  });

  it("okstra help <plug-in> runs the plug-in's own --help", () => {
    const dir = mkdtempSync(join(tmpdir(), 'okstra-plugin-'));
    try {
      writeFileSync(join(dir, 'okstra-hello'), `#!/bin/sh\necho "hello plug-in: $*"\n`);
      chmodSync(join(dir, 'okstra-hello'), 0o755);
      const r = okstra(['help', 'hello', 'greet'], { ...process.env, PATH: `${dir}:${process.env.PATH}` });
      expect(r).toMatchObject({ code: 0, stdout: 'hello plug-in: greet --help\n' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
