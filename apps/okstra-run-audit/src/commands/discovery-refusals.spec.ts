// issue 41 item 4: no all-clear without having looked. A path of the runs tree the OS refuses
// is exit 2 naming it; a place that may hold runs but holds nothing readable is in `runsSkipped[]`
// and the report is not ok. The built bin on real files.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EA, makeCleanProject, TASK_ROOT_REL, type Project } from '@okstra/audit-rules/test-support';
import { runBin } from '../test-support/bin.js';

const audit = (root: string) => runBin(['run-audit', '--project-root', root, '--json']);
const dirs: string[] = [];
let project: Project | undefined;
afterEach(() => {
  project?.cleanup();
  project = undefined;
  // GNU rm walks with openat, so it removes trees deeper than PATH_MAX too.
  for (const d of dirs.splice(0)) spawnSync('rm', ['-rf', d]);
});

/** A clean project with one violation planted (the error analysis's final report removed). */
function projectWithViolation(): Project {
  const p = makeCleanProject();
  p.remove(EA.report);
  return p;
}

describe('run-audit discovery: no all-clear without having looked (issue 41 item 4)', () => {
  it('a project root of 4,032 characters (its manifests past PATH_MAX): exit 2 naming the directory, never {"ok":true,"runsScanned":0}', () => {
    const p = projectWithViolation();
    const control = audit(p.root);
    expect(control.code).toBe(1);
    const base = mkdtempSync(join(tmpdir(), 'okstra-deep-'));
    dirs.push(base);
    // Directories of 250 characters down to a root of exactly 4,032 characters.
    let deep = base;
    while (4032 - deep.length > 251) {
      deep = join(deep, 'd'.repeat(250));
      mkdirSync(deep);
    }
    const root = join(deep, 'p'.repeat(4032 - deep.length - 1));
    expect(root).toHaveLength(4032);
    renameSync(p.root, root);
    const r = audit(root);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/\/manifests: cannot be read \(ENAMETOOLONG: the path is longer than the OS allows\); runs under it would go unaudited/);
  });

  it('a symlink loop where a task directory would be: exit 2 naming it (ELOOP)', () => {
    project = projectWithViolation();
    const loop = join(project.root, '.okstra/tasks/payments/looped');
    symlinkSync(loop, loop);
    const r = audit(project.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${loop}: cannot be read (ELOOP: a symlink loop)`);
  });

  it('a symlink to nothing where a run directory would be, and a manifests that is a file: listed in runsSkipped[], ok false, exit 1', () => {
    project = makeCleanProject();
    const clean = audit(project.root);
    expect([clean.code, JSON.parse(clean.stdout)]).toEqual([0, expect.objectContaining({ ok: true, runsSkipped: [] })]);
    const dangling = join(project.root, TASK_ROOT_REL, 'runs', 'code-review');
    symlinkSync(join(project.root, 'gone'), dangling);
    const manifests = join(project.root, TASK_ROOT_REL, 'runs', 'security-review', 'manifests');
    mkdirSync(join(manifests, '..'), { recursive: true });
    writeFileSync(manifests, '');
    const r = audit(project.root);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(false);
    expect(report.violations).toEqual([]);
    expect(report.runsSkipped).toEqual([
      { path: dangling, reason: expect.stringMatching(/^is a symlink to nothing/) },
      { path: manifests, reason: expect.stringMatching(/^is not a directory/) },
    ]);
    const text = runBin(['run-audit', '--project-root', project.root]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/no violations, 2 places not looked into\n {2}\[skipped\] /);
    rmSync(dangling);
  });
});
