// Test fixtures: a clean okstra project written to a temp dir (real files),
// with helpers to break exactly one invariant. Not part of the build.

import { createWorkingState, exampleGroups, finalizeState } from '@okstra/convergence';
import { makeTempProject, type TempProject } from '@okstra/core/test-support';

export const TASK_KEY = 'demo:payments:refund-timeout';
export const TASK_ROOT_REL = '.okstra/tasks/payments/refund-timeout';

/** Writers over one project root (the shared `makeTempProject`). */
export type Project = TempProject;

/** A fresh temp project with project.json and one task (no runs). */
export function makeProject(prefix = 'okstra-audit-'): Project {
  const p = makeTempProject(prefix);

  p.write('.okstra/project.json', { schemaVersion: '1.0', projectId: 'demo' });
  p.write(`${TASK_ROOT_REL}/task-manifest.json`, {
    schemaVersion: '1.0',
    taskKey: TASK_KEY,
    projectId: 'demo',
    taskGroup: 'payments',
    taskId: 'refund-timeout',
  });
  return p;
}

/** Paths of the clean error-analysis run 001 (project-relative). */
export const EA = (() => {
  const dir = `${TASK_ROOT_REL}/runs/error-analysis`;
  const s = 'error-analysis-001';
  return {
    dir,
    manifest: `${dir}/manifests/run-manifest-${s}.json`,
    teamState: `${dir}/state/team-state-${s}.json`,
    report: `${dir}/reports/final-report-${s}.md`,
    data: `${dir}/reports/final-report-${s}.data.json`,
    prompt: (w: string) => `${dir}/prompts/${w}-prompt-${s}.md`,
    result: (w: string) => `${dir}/worker-results/${w}-${s}.md`,
    sidecar: (w: string) => `${dir}/worker-results/${w}-${s}.audit.md`,
    groups: `${dir}/state/convergence-groups-${s}.json`,
    work: `${dir}/state/convergence-work-${s}.json`,
    final: `${dir}/state/convergence-final-${s}.json`,
  };
})();

const assignment = (role: string, provider: string) => ({
  role,
  provider,
  model: `${provider}-model`,
  executionValue: `${provider}-model`,
  runner: 'cli-wrapper',
});

/** `- PROGRESS:` lines every `stepMin` minutes from `from` (HH:MM) while before `to`. */
export function heartbeats(from: string, to: string, stepMin = 4): string {
  const lines: string[] = [];
  const start = Date.parse(`2026-11-29T${from}:10Z`);
  const end = Date.parse(`2026-11-29T${to}:00Z`);
  for (let t = start, i = 1; t < end; t += stepMin * 60_000, i++) {
    lines.push(`- PROGRESS: ${new Date(t).toISOString().replace('.000Z', 'Z')} round-1 checking step ${i}`);
  }
  return lines.join('\n');
}

/** Write the clean error-analysis run 001: breaks no invariant. */
export function writeCleanErrorAnalysis(p: Project): void {
  p.write(EA.manifest, {
    schemaVersion: '1.0',
    taskKey: TASK_KEY,
    taskType: 'error-analysis',
    seq: '001',
    status: 'completed',
    startedAt: '2026-11-29T08:00:00Z',
    endedAt: '2026-11-29T09:00:00Z',
    teamStatePath: EA.teamState,
    reportAuthor: 'report-writer',
    leadRuntime: 'claude-code',
    terminalBackend: 'tmux-pane',
    hostRuntime: 'claude-code',
    leadAssignment: assignment('lead', 'claude'),
    workerAssignments: [assignment('analyser', 'claude'), assignment('analyser', 'codex')],
    workerDispatches: [
      {
        dispatchKind: 'initial',
        workerId: 'claude',
        backend: 'tmux-pane',
        paneId: '%1',
        startedAt: '2026-11-29T08:01:00Z',
        tornDownAt: '2026-11-29T08:58:00Z',
      },
      {
        dispatchKind: 'initial',
        workerId: 'codex',
        backend: 'subprocess',
        startedAt: '2026-11-29T08:01:00Z',
        degradedFrom: 'tmux-pane',
        reason: 'tmux not installed',
      },
    ],
  });
  p.write(EA.teamState, {
    schemaVersion: '1.0',
    taskKey: TASK_KEY,
    taskType: 'error-analysis',
    seq: '001',
    workers: [
      {
        workerId: 'claude',
        provider: 'claude',
        role: 'analyser',
        status: 'completed',
        startedAt: '2026-11-29T08:01:00Z',
        endedAt: '2026-11-29T08:20:00Z',
        attempt: 1,
        livenessMode: 'audit-heartbeat',
        auditSidecarPath: EA.sidecar('claude'),
        promptPath: EA.prompt('claude'),
        resultPath: EA.result('claude'),
      },
      {
        workerId: 'codex',
        provider: 'codex',
        role: 'analyser',
        status: 'completed',
        startedAt: '2026-11-29T08:01:00Z',
        endedAt: '2026-11-29T08:25:00Z',
        attempt: 1,
        livenessMode: 'wrapper-status',
      },
      {
        workerId: 'report-writer',
        provider: 'claude',
        role: 'report-writer',
        status: 'completed',
        startedAt: '2026-11-29T08:40:00Z',
        endedAt: '2026-11-29T08:55:00Z',
        attempt: 1,
        resultPath: EA.data,
        promptPath: EA.prompt('report-writer'),
      },
    ],
  });
  p.write(EA.prompt('claude'), '# Analyse the refund timeout\n\n<!-- okstra:evidence-ledger required-v1 -->\nCite every file you read.\n');
  p.write(EA.prompt('codex'), '# Analyse the refund timeout\n');
  p.write(EA.prompt('report-writer'), '# Write the final report\n');
  p.write(
    EA.result('claude'),
    '# Findings\n\n### F-1\nThe queue drops retries at `src/queue.ts:42` and `src/refund.ts:10-12`.\n\n```\nnot a citation `src/x.ts:1`\n```\n',
  );
  p.write(
    EA.sidecar('claude'),
    `# Audit\n\n${heartbeats('08:01', '08:20')}\n\n## Evidence read\n\n| citation | why |\n|---|---|\n| \`src/queue.ts:42\` | retry loop |\n| \`src/refund.ts:10-12\` | timeout |\n`,
  );
  p.write(EA.result('codex'), '# Findings\n\n### F-2\nNo citations here.\n');
  p.write(EA.sidecar('codex'), '# Audit\n');
  p.write(`${EA.dir}/worker-results/report-writer-error-analysis-001.audit.md`, '# Audit\n\nWrote data.json and the report.\n');
  p.write(EA.report, '---\ntitle: Refund timeout\napproved: false\n---\n\n# Final report\n');
  p.write(EA.data, { schemaVersion: '1.0', summary: 'ok' });
}

/** Paths of the clean implementation stage-1 run 001. */
export const IMPL = (() => {
  const dir = `${TASK_ROOT_REL}/runs/implementation/stage-1`;
  const s = 'implementation-001';
  return {
    dir,
    manifest: `${dir}/manifests/run-manifest-${s}.json`,
    teamState: `${dir}/state/team-state-${s}.json`,
    carry: `${TASK_ROOT_REL}/runs/implementation/carry/stage-1.json`,
  };
})();

/** Write a clean completed implementation stage-1 run (lead-authored report after a failed report-writer). */
export function writeCleanImplementation(p: Project): void {
  const s = 'implementation-001';
  p.write(IMPL.manifest, {
    schemaVersion: '1.0',
    taskKey: TASK_KEY,
    taskType: 'implementation',
    seq: '001',
    stage: 1,
    status: 'completed',
    startedAt: '2026-11-29T10:00:00Z',
    endedAt: '2026-11-29T11:00:00Z',
    teamStatePath: IMPL.teamState,
    reportAuthor: 'lead',
    leadRuntime: 'claude-code',
    hostRuntime: 'claude-code',
    leadAssignment: assignment('lead', 'claude'),
    workerAssignments: [],
  });
  p.write(IMPL.teamState, {
    schemaVersion: '1.0',
    taskType: 'implementation',
    seq: '001',
    workers: [
      {
        workerId: 'report-writer',
        provider: 'claude',
        role: 'report-writer',
        status: 'timeout',
        reason: 'no data.json after the retry',
        startedAt: '2026-11-29T10:30:00Z',
        endedAt: '2026-11-29T10:50:00Z',
        attempt: 2,
      },
      {
        workerId: 'critic',
        provider: 'codex',
        role: 'critic',
        status: 'not-run',
        reason: 'roster has no critic for this stage',
        endedAt: '2026-11-29T10:01:00Z',
      },
    ],
  });
  p.write(`${IMPL.dir}/prompts/report-writer-prompt-${s}.md`, '# Write the report\n');
  p.write(`${IMPL.dir}/reports/final-report-${s}.md`, '# Stage 1 report\n');
  p.write(`${IMPL.dir}/reports/final-report-${s}.data.json`, { schemaVersion: '1.0' });
  p.write(IMPL.carry, { stage: 1, evidence: [] });
}

/** Paths of the clean implementation-planning run 001 with a plan-body verification. */
export const PLAN = (() => {
  const dir = `${TASK_ROOT_REL}/runs/implementation-planning`;
  const s = 'implementation-planning-001';
  return {
    dir,
    manifest: `${dir}/manifests/run-manifest-${s}.json`,
    teamState: `${dir}/state/team-state-${s}.json`,
    data: `${dir}/reports/final-report-${s}.data.json`,
    report: `${dir}/reports/final-report-${s}.md`,
  };
})();

/** A clean implementation-planning run whose `planBodyVerification.result` is `passed-with-dissent`. */
export function writeCleanPlanning(p: Project): void {
  p.write(PLAN.manifest, {
    schemaVersion: '1.0',
    taskKey: TASK_KEY,
    taskType: 'implementation-planning',
    seq: '001',
    status: 'completed',
    startedAt: '2026-11-29T07:00:00Z',
    endedAt: '2026-11-29T07:40:00Z',
    teamStatePath: PLAN.teamState,
    reportAuthor: 'report-writer',
    leadRuntime: 'claude-code',
    hostRuntime: 'claude-code',
    leadAssignment: assignment('lead', 'claude'),
    workerAssignments: [],
  });
  p.write(PLAN.teamState, { schemaVersion: '1.0', taskType: 'implementation-planning', seq: '001', workers: [] });
  p.write(PLAN.report, '---\napproved: false\n---\n# Plan\n');
  const verdict = (workerId: string, v: string, extra: object = {}) => ({
    workerId,
    verdict: v,
    breakageKind: null,
    fixability: null,
    basis: 'read the plan',
    ...extra,
  });
  p.write(PLAN.data, {
    schemaVersion: '1.0',
    implementationPlanning: {
      planBodyVerification: {
        result: 'passed-with-dissent',
        contributors: ['claude', 'codex'],
        planItems: [
          { id: 'P-Opt-1', kind: 'option', text: 'Use a queue', verdicts: [verdict('claude', 'AGREE'), verdict('codex', 'AGREE')] },
          {
            id: 'P-Step-1-1',
            kind: 'step',
            text: 'Add retry',
            verdicts: [verdict('claude', 'AGREE'), verdict('codex', 'DISAGREE', { breakageKind: 'b', fixability: 'in-place' })],
          },
        ],
      },
    },
  });
}

/** A project with all three clean runs. */
export function makeCleanProject(): Project {
  const p = makeProject();
  writeCleanErrorAnalysis(p);
  writeCleanImplementation(p);
  writeCleanPlanning(p);
  return p;
}

/** A valid terminal final convergence state (built by libs/convergence: one corroborated finding). */
export function validFinalState(): unknown {
  const groups = exampleGroups();
  groups.findings = groups.findings.filter((f) => f.id === 'F-003');
  groups.taskKey = TASK_KEY;
  return finalizeState(createWorkingState(groups));
}
