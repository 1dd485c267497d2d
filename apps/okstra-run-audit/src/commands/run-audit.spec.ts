import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EA, IMPL, TASK_KEY, makeCleanProject, type Project } from '@okstra/audit-rules/test-support';
import { RunAuditReport } from '@okstra/schemas/audit';
import { runBin, UMBRELLA } from '../test-support/bin.js';

let project: Project;
afterEach(() => project?.cleanup());

function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else h.update(p).update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

describe('okstra-run-audit run-audit (real bin)', () => {
  it('a clean project: exit 0, the JSON report, nothing on stderr', () => {
    project = makeCleanProject();
    const r = runBin(['run-audit', '--project-root', project.root, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, projectRoot: project.root, runsScanned: 3, violations: [] });
    expect(r.stderr).toBe('');
  });

  it('violations: exit 1, stable JSON, read-only; run-audit is the default command', () => {
    project = makeCleanProject();
    project.remove(EA.report);
    project.remove(IMPL.carry);
    const before = treeHash(project.root);
    const r = runBin(['--project-root', project.root, '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(RunAuditReport.safeParse(report).success).toBe(true);
    expect(report.ok).toBe(false);
    expect(report.violations.map((v: { invariant: string; taskKey: string }) => [v.invariant, v.taskKey])).toEqual([['report-missing', TASK_KEY], ['stage-carry-missing', TASK_KEY]]);
    expect(Object.keys(report.violations[0])).toEqual(['evidence', 'invariant', 'message', 'runDir', 'seq', 'taskKey', 'taskType']);
    expect(runBin(['--project-root', project.root, '--json']).stdout).toBe(r.stdout);
    expect(treeHash(project.root)).toBe(before);
    expect(r.stderr).toBe('');
  });

  it('human text without --json, through the umbrella from the project directory', () => {
    project = makeCleanProject();
    project.remove(EA.report);
    const r = runBin(['run-audit'], { bin: UMBRELLA, cwd: project.root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        `run-audit: ${project.root}: 3 runs scanned, 1 violation`,
        `  [report-missing] ${TASK_KEY} error-analysis 001 (${EA.dir})`,
        '    run-manifest says completed but final-report-error-analysis-001.md is missing',
        `    evidence: ${EA.manifest}, ${EA.report}`,
        '',
      ].join('\n'),
    );
  });

  it('an unparseable artifact is a violation naming the file and the parse error, not a crash', () => {
    project = makeCleanProject();
    project.write(EA.teamState, '{"schemaVersion": "1.0", "workers": [');
    const r = runBin(['--project-root', project.root, '--json']);
    expect(r.code).toBe(1);
    const [v] = JSON.parse(r.stdout).violations;
    expect(v.invariant).toBe('artifact-invalid');
    expect(v.evidence).toEqual([EA.teamState]);
    expect(v.message).toMatch(new RegExp(`^${EA.teamState.replace(/[.]/g, '\\.')}: is not valid JSON`));
  });

  it('unusable input: exit 2 with one line', () => {
    project = makeCleanProject();
    for (const args of [['--project-root', join(project.root, 'nope')], ['--project-root', join(project.root, '.okstra')], ['--project-root', project.root, '--task-key', 'a:b'], ['--project-root', project.root, '--task-key', 'demo:x:y']]) {
      const r = runBin(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^okstra-run-audit: /);
    }
  });
});
