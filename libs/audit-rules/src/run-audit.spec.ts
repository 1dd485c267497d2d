import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAudit } from './audit-project.js';
import { EA, IMPL, PLAN, TASK_KEY, TASK_ROOT_REL, heartbeats, makeCleanProject, makeProject, validFinalState, type Project } from './test-support/fixtures.js';

let project: Project;
afterEach(() => project?.cleanup());

async function invariants(p: Project): Promise<string[]> {
  const report = await runAudit(p.root);
  return report.violations.map((v) => v.invariant);
}

describe('run-audit over a clean project', () => {
  it('scans every run and finds nothing', async () => {
    project = makeCleanProject();
    const report = await runAudit(project.root);
    const { unchecked, ...rest } = report;
    expect(rest).toEqual({ ok: true, projectRoot: project.root, runsScanned: 3, runsSkipped: [], violations: [] });
    // The facts the clean runs record once (docs/run-audit.md "The fact graph"): listed, never a violation.
    expect(unchecked!.map((u) => `${u.taskType} ${u.edge}${u.key ? `:${u.key}` : ''} missing ${u.missing}`)).toMatchInlineSnapshot(`
      [
        "error-analysis report-data-task-key missing report-data#taskKey",
        "error-analysis report-data-seq missing report-data#seq",
        "error-analysis row-model missing team-state#workers[@workerId].model",
        "error-analysis row-role:report-writer missing run-manifest#workerAssignments[@workerId|provider].role",
        "error-analysis record-prompt missing run-manifest#workerDispatches[@workerId].promptPath",
        "error-analysis record-kind missing team-state#workers[?status=in-progress|completed|timeout|error][@workerId].dispatchKind",
        "error-analysis teardown-after-end:codex missing run-manifest#workerDispatches[@workerId:last].tornDownAt",
        "error-analysis data-generated-in-run missing report-data#frontmatter.generatedAt",
        "error-analysis data-generated-after-start missing report-data#frontmatter.generatedAt",
        "error-analysis report-author missing report-data#frontmatter.reportAuthor",
        "error-analysis report-approved missing report-data#frontmatter.approved",
        "implementation team-state-task-key missing team-state#taskKey",
        "implementation report-data-task-key missing report-data#taskKey",
        "implementation report-data-seq missing report-data#seq",
        "implementation row-provider missing run-manifest#workerAssignments[@workerId|provider].provider",
        "implementation row-role missing run-manifest#workerAssignments[@workerId|provider].role",
        "implementation record-subprocess-degraded missing run-manifest#workerDispatches[?backend=subprocess][@workerId].degradedFrom",
        "implementation record-start missing run-manifest#workerDispatches[@workerId:last].startedAt",
        "implementation record-start-before-end missing run-manifest#workerDispatches[@workerId:last].startedAt",
        "implementation row-attempt missing run-manifest#workerDispatches[@workerId].startedAt",
        "implementation teardown-after-end missing run-manifest#workerDispatches[@workerId:last].tornDownAt",
        "implementation data-generated-in-run missing report-data#frontmatter.generatedAt",
        "implementation data-generated-after-start missing report-data#frontmatter.generatedAt",
        "implementation report-author missing report-data#frontmatter.reportAuthor",
        "implementation report-approved missing report-data#frontmatter.approved",
        "implementation-planning team-state-task-key missing team-state#taskKey",
        "implementation-planning report-data-task-key missing report-data#taskKey",
        "implementation-planning report-data-seq missing report-data#seq",
        "implementation-planning record-subprocess-degraded missing run-manifest#workerDispatches[?backend=subprocess][@workerId].degradedFrom",
        "implementation-planning row-start-in-run missing team-state#workers[@workerId].startedAt",
        "implementation-planning row-end-in-run missing team-state#workers[@workerId].endedAt",
        "implementation-planning data-generated-in-run missing report-data#frontmatter.generatedAt",
        "implementation-planning data-generated-after-start missing report-data#frontmatter.generatedAt",
        "implementation-planning report-author missing report-data#frontmatter.reportAuthor",
        "implementation-planning report-approved missing report-data#frontmatter.approved",
        "implementation-planning plan-contributors missing team-state#workers[@workerId].workerId",
      ]
    `);
  });
});

// Each case breaks exactly one invariant of the clean template.
const CASES: Array<[string, (p: Project) => void, string]> = [
  ['artifact-invalid', (p) => p.write(EA.manifest, '{"schemaVersion": "1.0", "status": '), 'is not valid JSON'],
  ['report-missing', (p) => p.remove(EA.report), 'final-report-error-analysis-001.md is missing'],
  [
    'worker-not-terminal',
    (p) =>
      p.edit(EA.teamState, (s) => {
        s.workers[1].status = 'in-progress';
        delete s.workers[1].endedAt;
      }),
    "worker 'codex' is still in-progress although the run-manifest says completed",
  ],
  [
    'worker-times',
    (p) =>
      p.edit(EA.teamState, (s) => {
        s.workers[0].endedAt = '2026-11-29T08:00:00Z';
      }),
    "worker 'claude' (completed) ended at 2026-11-29T08:00:00Z, before it started at 2026-11-29T08:01:00Z",
  ],
  [
    'reason-missing',
    (p) =>
      p.edit(EA.teamState, (s) => {
        s.workers[1].status = 'error';
        s.workers[1].reason = '  ';
      }),
    "worker 'codex' ended error without a reason",
  ],
  ['prompt-missing', (p) => p.remove(EA.prompt('codex')), "worker 'codex' ended completed but its prompt at its layout path was not saved"],
  ['result-missing', (p) => p.remove(EA.result('codex')), "worker 'codex' is completed but its result file at its layout path does not exist"],
  [
    'lead-report-unjustified',
    (p) =>
      p.edit(EA.manifest, (m) => {
        m.reportAuthor = 'lead';
      }),
    'reportAuthor is lead but the report-writer row ended completed',
  ],
  ['convergence-final', (p) => p.write(EA.groups, { schemaVersion: '1.0', groups: [] }), 'the final report exists but there is no final convergence state'],
  [
    'plan-verification',
    (p) =>
      p.write(
        PLAN.report,
        '---\napproved: true\n---\n# Plan\n\n## 1. Clarification Items\n\n| ID | Blocks | Status |\n|---|---|---|\n| C-001 | approval | open |\n',
      ),
    'the final report frontmatter publishes approved: true while Clarification Items C-001 (Blocks=approval) are still open',
  ],
  [
    'heartbeat-cadence',
    (p) =>
      p.write(
        EA.sidecar('claude'),
        `${heartbeats('08:01', '08:05')}\n${heartbeats('08:16', '08:20')}\n\n## Evidence read\n| c |\n|---|\n| \`src/queue.ts:42\` |\n| \`src/refund.ts:10-12\` |\n`,
      ),
    "worker 'claude' was silent",
  ],
  ['stage-carry-missing', (p) => p.remove(IMPL.carry), 'implementation stage 1 completed without carry/stage-1.json'],
  [
    'degraded-without-reason',
    (p) =>
      p.edit(EA.manifest, (m) => {
        delete m.workerDispatches[1].reason;
      }),
    "initial dispatch of worker 'codex' degraded from tmux-pane to subprocess without a reason",
  ],
  ['worker-audit', (p) => p.write(EA.result('codex'), '## 0. Reading Confirmation\nI read it.\n'), "worker 'codex': reading-confirmation-heading"],
  [
    'report-writer-bypass',
    (p) =>
      p.edit(IMPL.teamState, (s) => {
        s.workers[0].reason = 'Session resume';
      }),
    "reportAuthor is lead but its timeout reason 'Session resume' is one the lead contract rules out",
  ],
  [
    'worker-row-missing',
    (p) =>
      p.edit(EA.teamState, (s) => {
        s.workers.splice(1, 1);
      }),
    "selected worker 'codex' (workerAssignments) has no team-state row",
  ],
  [
    'clarification-missing',
    (p) =>
      p.edit(PLAN.data, (d) => {
        const v = d.implementationPlanning.planBodyVerification;
        v.planItems[1].verdicts[1].fixability = 'needs-clarification';
        v.result = 'blocked-by-disagreement';
      }),
    'plan verification is blocked-by-disagreement but blocking item P-Step-1-1 has no row under ## 1. Clarification Items',
  ],
  [
    'run-time-order',
    (p) =>
      p.edit(EA.teamState, (s) => {
        s.workers[1].endedAt = '2026-11-29T09:30:00Z';
      }),
    "worker 'codex' ended at 2026-11-29T09:30:00Z, after the run ended at 2026-11-29T09:00:00Z",
  ],
  [
    'time-in-future',
    (p) =>
      p.edit(EA.manifest, (m) => {
        Object.assign(m, { startedAt: '2099-01-01T00:00:00.000Z', endedAt: '2099-01-01T01:00:00.000Z' });
      }),
    'the run started at 2099-01-01T00:00:00.000Z,',
  ],
  [
    'foreign-artifact',
    (p) =>
      p.edit(EA.teamState, (s) => {
        s.seq = '002';
      }),
    'the team-state belongs to another run: seq 002 (this run: 001)',
  ],
];

describe('each invariant has a fixture that breaks exactly it', () => {
  for (const [invariant, breakIt, message] of CASES) {
    it(invariant, async () => {
      project = makeCleanProject();
      breakIt(project);
      const report = await runAudit(project.root);
      expect(report.ok).toBe(false);
      expect(report.violations.map((v) => v.invariant)).toEqual([invariant]);
      expect(report.violations[0]!.message).toContain(message);
      expect(report.violations[0]).toMatchObject({ taskKey: TASK_KEY });
    });
  }
});

describe('violation details', () => {
  it('a staged run carries its stage, so stage-1/001 and stage-2/001 are told apart', async () => {
    project = makeCleanProject();
    const to = (rel: string) => rel.replace('stage-1', 'stage-2');
    for (const rel of [IMPL.manifest, IMPL.teamState, `${IMPL.dir}/prompts/report-writer-prompt-implementation-001.md`])
      project.write(to(rel), project.read(rel));
    project.write(`${to(IMPL.dir)}/reports/final-report-implementation-001.md`, '# Stage 2 report\n');
    project.write(`${to(IMPL.dir)}/reports/final-report-implementation-001.data.json`, { schemaVersion: '1.0' });
    project.edit(to(IMPL.manifest), (m) => {
      m.stage = 2;
      m.teamStatePath = to(String(m.teamStatePath));
    });
    const vs = (await runAudit(project.root)).violations;
    expect(vs.map((v) => [v.invariant, v.stage, v.seq, v.runDir])).toEqual([['stage-carry-missing', 2, '001', to(IMPL.dir)]]);
  });

  it('an error-analysis run has no stage key at all', async () => {
    project = makeCleanProject();
    project.remove(EA.report);
    const [v] = (await runAudit(project.root)).violations;
    expect(v).not.toHaveProperty('stage');
  });

  it('names the run and the evidence, project-relative', async () => {
    project = makeCleanProject();
    project.remove(EA.result('codex'));
    const [v] = (await runAudit(project.root)).violations;
    expect(v).toEqual({
      invariant: 'result-missing',
      taskKey: TASK_KEY,
      taskType: 'error-analysis',
      seq: '001',
      runDir: EA.dir,
      message: "worker 'codex' is completed but its result file at its layout path does not exist",
      evidence: [EA.teamState, EA.result('codex')],
    });
  });

  it('a plan-verification result that disagrees with its verdicts', async () => {
    project = makeCleanProject();
    project.edit(PLAN.data, (d) => {
      d.implementationPlanning.planBodyVerification.result = 'passed';
    });
    const [v] = (await runAudit(project.root)).violations;
    expect(v).toMatchObject({
      invariant: 'plan-verification',
      taskType: 'implementation-planning',
      message: 'planBodyVerification.result is passed but its verdicts aggregate to passed-with-dissent',
      evidence: [PLAN.data],
    });
  });

  it('a planBodyVerification that fails its schema is artifact-invalid with the JSON path', async () => {
    project = makeCleanProject();
    project.edit(PLAN.data, (d) => {
      d.implementationPlanning.planBodyVerification.planItems[0].id = 'X-1';
    });
    const [v] = (await runAudit(project.root)).violations;
    expect(v!.invariant).toBe('artifact-invalid');
    expect(v!.message).toContain('implementationPlanning.planBodyVerification.planItems[0].id');
  });

  it('a team-state that fails its schema is reported with its file and field, and row checks are skipped', async () => {
    project = makeCleanProject();
    project.edit(EA.teamState, (s) => {
      s.workers[0].status = 'finished';
    });
    const vs = (await runAudit(project.root)).violations;
    expect(vs.map((v) => v.invariant)).toEqual(['artifact-invalid']);
    expect(vs[0]!.message).toContain(`${EA.teamState}: workers[0].status`);
  });

  it('an unknown schemaVersion, a seq mismatch and a bad manifest name are artifact-invalid', async () => {
    project = makeCleanProject();
    project.edit(PLAN.manifest, (m) => {
      m.schemaVersion = '9.9';
    });
    project.edit(EA.manifest, (m) => {
      m.seq = '002';
    });
    project.write(`${IMPL.dir}/manifests/run-manifest-other-001.json`, {});
    const vs = (await runAudit(project.root)).violations;
    expect(vs.map((v) => [v.taskType, v.seq, v.invariant])).toEqual([
      ['error-analysis', '001', 'artifact-invalid'],
      ['implementation', null, 'artifact-invalid'],
      ['implementation-planning', '001', 'artifact-invalid'],
    ]);
    expect(vs[0]!.message).toBe('run-manifest says error-analysis 002 but its path says error-analysis 001');
    expect(vs[2]!.message).toContain('unsupported schemaVersion "9.9"');
  });

  it('a worker row still pending after a failed run, a working state never finalized', async () => {
    project = makeCleanProject();
    project.edit(EA.manifest, (m) => {
      m.status = 'failed';
      m.reportAuthor = null;
    });
    project.edit(EA.teamState, (s) => {
      s.workers[2] = { workerId: 'report-writer', provider: 'claude', role: 'report-writer', status: 'pending' };
    });
    project.remove(EA.report);
    project.write(EA.work, { schemaVersion: '1.0' });
    expect(await invariants(project)).toEqual(['worker-not-terminal', 'convergence-final', 'failure-unlogged']);
  });

  it('a failed or aborted run that left every artifact but logged nothing is failure-unlogged (issue #24 item 2)', async () => {
    project = makeCleanProject();
    project.edit(EA.manifest, (m) => void (m.status = 'failed'));
    const [v] = (await runAudit(project.root)).violations;
    expect(v).toMatchObject({ invariant: 'failure-unlogged', evidence: [EA.manifest], taskType: 'error-analysis', seq: '001' });
    expect(v!.message).toBe(
      'run-manifest says failed but no errors-*.jsonl line of its task names error-analysis 001: the run ended wrong without logging why',
    );
    project.edit(EA.manifest, (m) => void (m.status = 'aborted'));
    expect(await invariants(project)).toEqual(['failure-unlogged']);
    // A line naming another seq, or a torn line, logs nothing; the run's own line does.
    project.write(`${TASK_ROOT_REL}/errors-2026-11-29.jsonl`, '{"taskType":"error-analysis","seq":"002"}\n{"taskType":"error-analysis","se\n');
    expect(await invariants(project)).toEqual(['failure-unlogged']);
    project.write(`${TASK_ROOT_REL}/errors-2026-11-29.jsonl`, '{"taskType":"error-analysis","seq":1,"error":"cancelled"}\n');
    expect(await invariants(project)).toEqual([]);
  });

  it("convergence: a valid final state passes; one that fails validate --kind final is reported with the validator's error", async () => {
    project = makeCleanProject();
    project.write(EA.groups, { schemaVersion: '1.0' });
    project.write(EA.final, validFinalState() as object);
    expect(await invariants(project)).toEqual([]);
    project.edit(EA.final, (s) => {
      s.counts.agreed += 1;
    });
    const [v] = (await runAudit(project.root)).violations;
    expect(v).toMatchObject({ invariant: 'convergence-final', evidence: [EA.final] });
    expect(v!.message).toMatch(/^convergence final state fails validate --kind final: counts\.agreed: /);
    project.write(EA.final, '{');
    expect(await invariants(project)).toEqual(['artifact-invalid']);
  });

  it('--task-key scopes the scan; an unknown task or root is unusable input', async () => {
    project = makeCleanProject();
    project.write('.okstra/tasks/other/t1/runs/error-analysis/manifests/run-manifest-error-analysis-001.json', '');
    expect((await runAudit(project.root)).runsScanned).toBe(4);
    expect((await runAudit(project.root, { taskKey: TASK_KEY })).runsScanned).toBe(3);
    await expect(runAudit(project.root, { taskKey: 'demo:payments:nope' })).rejects.toThrow(/no task directory/);
    await expect(runAudit(project.root, { taskKey: 'bad-key' })).rejects.toThrow(/invalid task key/);
    await expect(runAudit(`${project.root}/missing`)).rejects.toThrow(/does not exist/);
  });

  it('violations come in a stable order: task, task type, stage, seq, invariant number', async () => {
    project = makeCleanProject();
    project.remove(IMPL.carry);
    project.remove(EA.report);
    project.edit(EA.manifest, (m) => {
      m.reportAuthor = 'lead';
    });
    const a = (await runAudit(project.root)).violations;
    expect(a.map((v) => `${v.taskType}:${v.invariant}`)).toEqual([
      'error-analysis:report-missing',
      'error-analysis:lead-report-unjustified',
      'implementation:stage-carry-missing',
    ]);
    expect((await runAudit(project.root)).violations).toEqual(a);
  });
});

describe('a key named twice in an artifact the audit reads is artifact-invalid, never read as its last value', () => {
  /** Insert `"key": <shadow>,` before the first `"key": …` in the file's text. */
  const shadow = (p: Project, rel: string, key: string, value: unknown) =>
    p.write(rel, p.read(rel).replace(`"${key}": `, `"${key}": ${JSON.stringify(value)}, "${key}": `));
  const cases: Array<[string, (p: Project) => void, string]> = [
    ['run-manifest schemaVersion', (p) => shadow(p, EA.manifest, 'schemaVersion', '9.9'), `${EA.manifest}: schemaVersion: holds the key "schemaVersion" twice`],
    ['team-state worker status', (p) => shadow(p, EA.teamState, 'status', 'in-progress'), `${EA.teamState}: workers[0].status: holds the key "status" twice`],
    [
      'convergence final state',
      (p) => {
        p.write(EA.final, validFinalState() as object);
        shadow(p, EA.final, 'schemaVersion', '9.9');
      },
      'convergence final state schemaVersion: holds the key "schemaVersion" twice',
    ],
    [
      'report data.json planBodyVerification',
      (p) => shadow(p, PLAN.data, 'result', 'passed'),
      'report data.json implementationPlanning.planBodyVerification.result: holds the key "result" twice',
    ],
  ];
  for (const [name, breakIt, message] of cases) {
    it(name, async () => {
      project = makeCleanProject();
      breakIt(project);
      const report = await runAudit(project.root);
      expect(report.ok).toBe(false);
      expect(report.violations.map((v) => [v.invariant, v.message])).toContainEqual(['artifact-invalid', expect.stringContaining(message)]);
    });
  }
});

describe('a run-manifest copied from another task is never a clean audit of this task (breaker)', () => {
  const OTHER = '.okstra/tasks/payments/other-task';
  const otherManifest = EA.manifest.replace(TASK_ROOT_REL, OTHER);
  /** A second task whose own team-state has a worker still in progress, and a run-manifest copied from refund-timeout. */
  const copyInto = (p: Project, edit: (m: Record<string, unknown>) => void = () => undefined) => {
    p.write(`${OTHER}/task-manifest.json`, {
      schemaVersion: '1.0',
      taskKey: 'demo:payments:other-task',
      projectId: 'demo',
      taskGroup: 'payments',
      taskId: 'other-task',
    });
    const stale = p.json(EA.teamState);
    stale.workers[1].status = 'in-progress';
    delete stale.workers[1].endedAt;
    p.write(EA.teamState.replace(TASK_ROOT_REL, OTHER), stale);
    const m = p.json(EA.manifest);
    edit(m);
    p.write(otherManifest, m);
  };

  it('its taskKey names the other task: artifact-invalid naming both (was: 1 run scanned, no violations, exit 0)', async () => {
    project = makeCleanProject();
    copyInto(project);
    const report = await runAudit(project.root, { taskKey: 'demo:payments:other-task' });
    expect(report.ok).toBe(false);
    expect(report.violations.map((v) => [v.invariant, v.taskKey, v.message])).toContainEqual([
      'artifact-invalid',
      'demo:payments:other-task',
      `run-manifest says task ${TASK_KEY} but it lies in the directory of task demo:payments:other-task`,
    ]);
  });

  it("its taskKey fixed but teamStatePath still the other task's: foreign-artifact", async () => {
    project = makeCleanProject();
    copyInto(project, (m) => {
      m.taskKey = 'demo:payments:other-task';
    });
    const report = await runAudit(project.root, { taskKey: 'demo:payments:other-task' });
    expect(report.violations.map((v) => [v.invariant, v.message])).toContainEqual([
      'foreign-artifact',
      `the run-manifest's teamStatePath '${EA.teamState}' lies in another task's directory`,
    ]);
  });
});

describe('symlinked directories are audited, never skipped (breaker)', () => {
  it('a task directory and a manifests directory that are symlinks: their runs are scanned and judged (was: 3 → 0 runs, exit 0)', async () => {
    project = makeCleanProject();
    project.remove(EA.report);
    const away = mkdtempSync(join(tmpdir(), 'okstra-audit-away-'));
    try {
      // The run's manifests directory first, then the whole task directory, each moved away and linked back.
      const manifests = join(project.root, EA.dir, 'manifests');
      renameSync(manifests, join(away, 'manifests'));
      symlinkSync(join(away, 'manifests'), manifests);
      renameSync(join(project.root, TASK_ROOT_REL), join(away, 'task'));
      symlinkSync(join(away, 'task'), join(project.root, TASK_ROOT_REL));
      const report = await runAudit(project.root);
      expect(report.runsScanned).toBe(3);
      expect(report.violations.map((v) => v.invariant)).toEqual(['report-missing']);
    } finally {
      rmSync(away, { recursive: true, force: true });
    }
  });
});

describe('layout shapes that held runs out of the scan (breaker)', () => {
  it('a run under a misnamed stage directory (stage-01) is artifact-invalid, not skipped (was: 0 runs, exit 0)', async () => {
    project = makeCleanProject();
    const bad = IMPL.dir.replace('stage-1', 'stage-01');
    renameSync(join(project.root, IMPL.dir), join(project.root, bad));
    const report = await runAudit(project.root);
    expect(report.runsScanned).toBe(3);
    expect(report.violations.map((v) => [v.invariant, v.runDir, v.message])).toEqual([
      ['artifact-invalid', bad, "stage directory 'stage-01' is not named stage-<N> (e.g. stage-1): its runs are outside the layout"],
    ]);
  });
  it('.okstra/tasks that is a file is exit 2 naming it (was: 0 runs scanned, no violations)', async () => {
    project = makeProject();
    rmSync(join(project.root, '.okstra/tasks'), { recursive: true });
    project.write('.okstra/tasks', 'not a directory');
    await expect(runAudit(project.root)).rejects.toMatchObject({ exitCode: 2, message: 'is not a directory', file: join(project.root, '.okstra/tasks') });
  });
});
