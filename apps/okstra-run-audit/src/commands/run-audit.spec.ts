import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EA, IMPL, PLAN, TASK_KEY, makeCleanProject, type Project } from '@okstra/audit-rules/test-support';
import { RunAuditReport } from '@okstra/schemas/audit';
import { runBin, UMBRELLA } from '../test-support/bin.js';
import { makeSpecial } from '../test-support/special.js';
import { formatText } from './run-audit.js';

let project: Project;
afterEach(() => project?.cleanup());

function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (!st.isFile()) h.update(p);
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
    const { unchecked, ...report } = JSON.parse(r.stdout);
    expect(report).toEqual({ ok: true, projectRoot: project.root, runsScanned: 3, runsSkipped: [], violations: [] });
    // Fact edges with one end recorded (docs/run-audit.md "The fact graph"): listed, never a violation.
    expect(unchecked).toContainEqual(
      expect.objectContaining({ edge: 'row-model', taskType: 'error-analysis', seq: '001', missing: 'team-state#workers[@workerId].model' }),
    );
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
    expect(report.violations.map((v: { invariant: string; taskKey: string }) => [v.invariant, v.taskKey])).toEqual([
      ['report-missing', TASK_KEY],
      ['stage-carry-missing', TASK_KEY],
    ]);
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

  it('the built bundle reads an approved frontmatter with its lazy yaml chunk (invariant 9 fires, no "not valid YAML")', () => {
    project = makeCleanProject();
    project.write(
      PLAN.report,
      '---\napproved: true\n---\n# Plan\n\n## 1. Clarification Items\n\n| ID | Blocks | Status |\n|---|---|---|\n| C-001 | approval | open |\n',
    );
    const r = runBin(['--project-root', project.root, '--json']);
    const found = JSON.parse(r.stdout).violations.map((v: { invariant: string; message: string }) => [v.invariant, v.message]);
    expect(found).toEqual([
      ['plan-verification', 'the final report frontmatter publishes approved: true while Clarification Items C-001 (Blocks=approval) are still open'],
    ]);
    project.write(PLAN.report, '---\napproved: true\n---\n# Plan\n');
    expect(runBin(['--project-root', project.root, '--json']).code).toBe(0);
  });

  it('a run-manifest that is a symlink to a regular file is audited like the file', () => {
    project = makeCleanProject();
    const target = join(project.root, 'elsewhere.json');
    renameSync(join(project.root, EA.manifest), target);
    symlinkSync(target, join(project.root, EA.manifest));
    const r = runBin(['--project-root', project.root, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, projectRoot: project.root, runsScanned: 3, runsSkipped: [], violations: [] });
    project.remove(EA.report);
    const broken = JSON.parse(runBin(['--project-root', project.root, '--json']).stdout);
    expect(broken.violations.map((v: { invariant: string }) => v.invariant)).toEqual(['report-missing']);
  });

  for (const kind of ['dir', 'fifo', 'zero'] as const) {
    it(`a run-manifest name that is a ${kind} is artifact-invalid (exit 1), never skipped or hung on`, () => {
      project = makeCleanProject();
      makeSpecial(project, EA.manifest, kind);
      const r = runBin(['--project-root', project.root, '--json']);
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout);
      expect(report.runsScanned).toBe(3);
      expect(report.violations).toEqual([
        {
          invariant: 'artifact-invalid',
          taskKey: TASK_KEY,
          taskType: 'error-analysis',
          runDir: EA.dir,
          seq: '001',
          message: `${EA.manifest}: is not a regular file`,
          evidence: [EA.manifest],
        },
      ]);
    });
  }

  const INSIDE: Array<[string, string, 'fifo' | 'zero' | 'dir']> = [
    ['team-state FIFO', EA.teamState, 'fifo'],
    ['team-state link to /dev/zero', EA.teamState, 'zero'],
    ['audit sidecar FIFO', EA.sidecar('claude'), 'fifo'],
    ['audit sidecar link to /dev/zero', EA.sidecar('claude'), 'zero'],
    ['worker result FIFO', EA.result('codex'), 'fifo'],
    ['worker result link to /dev/zero', EA.result('codex'), 'zero'],
  ];
  for (const [name, rel, kind] of INSIDE) {
    it(`a ${name} inside a run is artifact-invalid naming it, never a hang`, () => {
      project = makeCleanProject();
      makeSpecial(project, rel, kind);
      const r = runBin(['--project-root', project.root, '--json']);
      expect(r.code).toBe(1);
      const invalid = JSON.parse(r.stdout).violations.filter((v: { invariant: string }) => v.invariant === 'artifact-invalid');
      expect(invalid.map((v: { message: string; evidence: string[] }) => [v.message, v.evidence])).toContainEqual([`${rel}: is not a regular file`, [rel]]);
    });
  }

  it('without --project-root the project is found upward from the working directory, as git does', () => {
    project = makeCleanProject();
    project.remove(EA.report);
    const deep = join(project.root, EA.dir, 'worker-results');
    const r = runBin(['run-audit', '--json'], { cwd: deep });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ projectRoot: project.root, runsScanned: 3 });
    const outside = runBin(['run-audit', '--json'], { cwd: '/' });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/no \.okstra directory here or in any parent directory/);
  });

  it('a --task-key of another project is exit 2 naming both project ids', () => {
    project = makeCleanProject();
    const r = runBin(['--project-root', project.root, '--task-key', 'other:payments:refund-timeout']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/task key 'other:payments:refund-timeout' is for project 'other', but this project is 'demo'/);
  });

  it('text output names the stage of a staged run', () => {
    project = makeCleanProject();
    project.remove(IMPL.carry);
    const r = runBin(['run-audit', '--project-root', project.root]);
    expect(r.stdout).toContain(`  [stage-carry-missing] ${TASK_KEY} implementation stage-1/001 (${IMPL.dir})`);
  });

  it('unusable input: exit 2 with one line', () => {
    project = makeCleanProject();
    for (const args of [
      ['--project-root', join(project.root, 'nope')],
      ['--project-root', join(project.root, '.okstra')],
      ['--project-root', project.root, '--task-key', 'a:b'],
      ['--project-root', project.root, '--task-key', 'demo:x:y'],
    ]) {
      const r = runBin(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^okstra-run-audit: /);
    }
  });
});

describe('run-audit text output', () => {
  it('a message or evidence quoting a file cannot forge a report line or send terminal escapes', () => {
    const text = formatText({
      ok: false,
      projectRoot: '/p',
      runsScanned: 1,
      violations: [
        {
          invariant: 'artifact-invalid',
          taskKey: 'k:a:b',
          taskType: 'error-analysis',
          seq: '001',
          runDir: 'runs/ea',
          message: 'bad value "x\n  [report-missing] forged\x1b[2J"',
          evidence: ['runs/ea/state/team\nstate.json'],
        },
      ],
    } as never);
    expect(text.split('\n')).toEqual([
      'run-audit: /p: 1 run scanned, 1 violation',
      '  [artifact-invalid] k:a:b error-analysis 001 (runs/ea)',
      '    bad value "x\\n  [report-missing] forged\\x1b[2J"',
      '    evidence: runs/ea/state/team\\nstate.json',
      '',
    ]);
  });
});
