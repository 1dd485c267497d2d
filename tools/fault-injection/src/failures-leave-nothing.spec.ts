// issue 41 item 5: failures leave nothing. A read-only project (a tmpfs remounted read-only) under
// `convergence run`; `seed --restart-from-round0` whose second kept copy does not fit; a migration dir
// that is a symlink out of the project. The built bins on real files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { changed, cleanup, clone, leftovers, run, snapshot, type Scenario } from './support.js';
import { canMountTmpfs, TinyDisk } from './tiny-disk.js';
import { RESTART, writerTemplates } from './writers.js';

const TMPFS = canMountTmpfs();
let templates: Awaited<ReturnType<typeof writerTemplates>>;
beforeAll(async () => {
  templates = await writerTemplates();
}, 300_000);
afterAll(cleanup);

/** A tmpfs holding a clone of `template`, remounted read-only (root ignores file modes, not a read-only mount). */
function readOnlyClone(template: Scenario): { s: Scenario; dispose(): void } {
  const disk = new TinyDisk();
  const s = clone(template, join(disk.root, 's'));
  execFileSync('mount', ['-o', 'remount,ro', disk.root]);
  return { s, dispose: () => disk.dispose() };
}

describe.runIf(TMPFS)('a read-only project', () => {
  it('convergence run: exit 2 naming the file it could not write (the run lock), never 70; nothing changed', async () => {
    const { s, dispose } = readOnlyClone(templates.prepared!);
    try {
      const before = snapshot(s.tmp);
      const rel = (p: string) => relative(s.project, p);
      const r = await run('conv', ['run', '--project-root', '.', '--run-manifest', rel(s.manifest), '--rounds', '1'], { cwd: s.project });
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/run-error-analysis-001\.lock\.json: cannot create its lock .* \(EROFS\); nothing was changed/);
      expect(changed(before, snapshot(s.tmp))).toEqual([]);
    } finally {
      dispose();
    }
  });
});

describe.runIf(TMPFS)('seed --restart-from-round0 on a full disk', () => {
  it('the first kept copy fits and the second does not: exit 2, no temp file, nothing changed', async () => {
    const disk = new TinyDisk();
    try {
      const s = clone(templates.lifecycle!, join(disk.root, 's'));
      const before = snapshot(s.tmp);
      // Room for the working state's copy (whole 4 KiB pages) and not for the final state's as well.
      const pages = (p: string) => Math.ceil(statSync(p).size / 4096) * 4096;
      disk.squeeze({ kind: 'bytes', free: pages(s.work) + Math.min(pages(s.final), pages(s.work)) - 4096 });
      const r = await run('conv', RESTART.argv(s), { cwd: s.project });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/ENOSPC/);
      expect(leftovers(s.tmp)).toEqual([]);
      expect(changed(before, snapshot(s.tmp))).toEqual([]);
    } finally {
      disk.dispose();
    }
  });
});

describe('the migration dir is contained like every other state path', () => {
  it('seed --restart-from-round0 --migration-dir through a symlink to outside the project: exit 2 naming it, nothing written', async () => {
    const s = clone(templates.lifecycle!);
    const outside = mkdtempSync(join(tmpdir(), 'okstra-outside-'));
    try {
      rmSync(s.mig, { recursive: true, force: true });
      symlinkSync(outside, s.mig);
      const before = snapshot(s.tmp);
      const r = await run('conv', RESTART.argv(s), { cwd: s.project });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--migration-dir: '.*' leads outside the project root .* through a symlink/);
      expect(readdirSync(outside)).toEqual([]);
      expect(changed(before, snapshot(s.tmp))).toEqual([]);
      expect(existsSync(s.work)).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
