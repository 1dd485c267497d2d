import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installStubProvider } from '@okstra/team-state/test-support';
import { PROVIDER_STUB } from './workers.js';

/** One worker of a journey's run: its id, provider, role label, and whether the lead's host runs it natively. */
export interface JourneyWorker {
  id: string;
  provider: string;
  role: string;
  runner: 'native-session' | 'cli-wrapper';
  model: string;
}

/** What the runtime's `render-bundle` would have prepared: a task, a run manifest, a pending team-state, prompts. */
export interface JourneyRunSpec {
  /** The lead's host (`leadRuntime`): claude-code, codex, antigravity, external. */
  leadRuntime: string;
  terminalBackend: 'tmux-pane' | 'cmux-pane' | 'none';
  taskType: string;
  /** The implementation stage, for an `implementation` run (`runs/implementation/stage-<N>`). */
  stage?: number;
  workers: readonly JourneyWorker[];
  /** The lead's provider (the host's own). */
  leadProvider: string;
}

/** A journey's project: root, HOME (the stub providers), tmux socket, and the run's places. */
export interface JourneyProject {
  root: string;
  home: string;
  socket: string;
  taskKey: string;
  taskType: string;
  seq: string;
  /** Project-relative run directory. */
  run: string;
  manifest: string;
  teamState: string;
  cleanup(): void;
}

const TASK = { group: 'payments', id: 'refund-timeout' };
/** Every provider a journey may name; each gets the scripted CLI, replacing the bundled one. */
export const STUB_PROVIDERS = ['claude', 'codex', 'grok', 'antigravity', 'kimi'] as const;

/**
 * A fresh project with one `running` run, as the okstra runtime's `render-bundle` leaves it (that step is the
 * runtime's, not these tools': the journey plays it). Every worker's initial prompt tells it to heartbeat in its
 * audit sidecar (prompts/workers/audit-sidecar.md); the critic's names where its candidates go.
 */
export function newProject(spec: JourneyRunSpec): JourneyProject {
  const base = mkdtempSync(join(tmpdir(), `okstra-journey-${spec.leadRuntime}-`));
  const root = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(home, { recursive: true });
  for (const id of STUB_PROVIDERS) installStubProvider(home, id, PROVIDER_STUB, ['analysis', 'critic', 'report-writer', 'implementation', 'verification']);
  const seq = '001';
  const taskKey = `journey:${TASK.group}:${TASK.id}`;
  const taskRoot = `.okstra/tasks/${TASK.group}/${TASK.id}`;
  const run = `${taskRoot}/runs/${spec.taskType}${spec.stage ? `/stage-${spec.stage}` : ''}`;
  const suffix = `${spec.taskType}-${seq}`;
  const manifest = `${run}/manifests/run-manifest-${suffix}.json`;
  const teamState = `${run}/state/team-state-${suffix}.json`;
  const json = (rel: string, v: unknown) => write(join(root, rel), JSON.stringify(v, null, 2) + '\n');
  write(join(root, '.okstra/project.json'), JSON.stringify({ schemaVersion: '1.0', projectId: 'journey' }, null, 2) + '\n');
  json(`${taskRoot}/task-manifest.json`, {
    schemaVersion: '1.0',
    taskKey,
    projectId: 'journey',
    taskGroup: TASK.group,
    taskId: TASK.id,
    title: 'Refunds time out under load',
    createdAt: new Date(Date.now() - 3_600_000).toISOString(),
    workStatus: 'in-progress',
  });
  const head = { schemaVersion: '1.0', taskKey, taskType: spec.taskType, seq };
  json(teamState, { ...head, workers: spec.workers.map((w) => ({ workerId: w.id, provider: w.provider, role: w.role, status: 'pending', attempt: 0 })) });
  json(manifest, {
    ...head,
    ...(spec.stage ? { stage: spec.stage } : {}),
    status: 'running',
    startedAt: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    endedAt: null,
    teamStatePath: teamState,
    leadRuntime: spec.leadRuntime,
    terminalBackend: spec.terminalBackend,
    hostRuntime: spec.leadRuntime,
    leadAssignment: { role: 'Okstra lead', provider: spec.leadProvider, model: 'lead-model', executionValue: 'lead-model', runner: 'native-session' },
    workerAssignments: spec.workers.map((w) => ({
      workerId: w.id,
      role: w.role,
      provider: w.provider,
      model: w.model,
      executionValue: w.model,
      runner: w.runner,
    })),
    workerDispatches: [],
  });
  for (const w of spec.workers) {
    const sidecar = `${run}/worker-results/${w.id}-${suffix}.audit.md`;
    const lines = [
      `# ${w.role}: ${spec.taskType} ${seq}`,
      '',
      'Analyse why refunds time out under load. Your audit sidecar is ' +
        sidecar +
        ': append a `- PROGRESS: <RFC 3339 UTC> <phase> <what>` line when you start, at least every 5 minutes, and before you write your result.',
    ];
    if (/critic/i.test(w.role)) lines.push('', `CRITIC-RESULTS: ${run}/state/convergence-critic-results-${suffix}.json`);
    write(join(root, run, 'prompts', `${w.id}-prompt-${suffix}.md`), lines.join('\n') + '\n');
  }
  const socket = `okstra-journey-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  return {
    root,
    home,
    socket,
    taskKey,
    taskType: spec.taskType,
    seq,
    run,
    manifest,
    teamState,
    cleanup: () => {
      spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** The final report a writer (or the lead, after a failed writer) writes: frontmatter the run's, and data.json beside it. */
export function finalReport(p: JourneyProject, author: 'report-writer' | 'lead', agreed: readonly string[] = ['F-001']): { body: string; data: string } {
  const body = [
    '---',
    `taskKey: ${p.taskKey}`,
    `taskType: ${p.taskType}`,
    `seq: "${p.seq}"`,
    'approved: false',
    `reportAuthor: ${author}`,
    '---',
    '',
    '# Final report — refunds time out under load',
    '',
    '## 2. Findings',
    '',
    '- F-001 survived every re-verification: isExpired() compares a deadline in seconds with Date.now() in milliseconds,',
    '  so every refund older than a few seconds is treated as expired and retried until the gateway times out.',
    '- The converged findings and their votes are in the final convergence state of this run.',
    '',
  ].join('\n');
  const data = JSON.stringify(
    {
      schemaVersion: '2.0',
      frontmatter: { taskKey: p.taskKey, taskType: p.taskType, seq: p.seq, approved: false, reportAuthor: author },
      findings: agreed.map((id) => ({ id })),
    },
    null,
    2,
  );
  return { body, data: data + '\n' };
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
