import { makeTempProject } from '@okstra/core/test-support';

import { join } from 'node:path';

/** A throwaway project with one error-analysis run (seq 001), in the §4 layout. */
export interface TestProject {
  root: string;
  runRel: string;
  teamStatePath: string;
  /** Write a file given project-relative; creates directories. */
  write(rel: string, text: string, mtime?: Date): string;
  writeTeamState(workers: unknown[], extra?: Record<string, unknown>): void;
  cleanup(): void;
}

export function makeProject(): TestProject {
  const p = makeTempProject('okstra-heartbeat-');
  const runRel = '.okstra/tasks/bugs/queue-stall/runs/error-analysis';
  const teamStateRel = join(runRel, 'state/team-state-error-analysis-001.json');
  return {
    root: p.root,
    runRel,
    teamStatePath: join(p.root, teamStateRel),
    write: (rel, text, mtime) => p.write(rel, text, mtime),
    writeTeamState(workers, extra = {}) {
      p.write(teamStateRel, JSON.stringify({ schemaVersion: '1.0', taskType: 'error-analysis', seq: '001', workers, ...extra }, null, 2));
    },
    cleanup: p.cleanup,
  };
}

/** A team-state row with the fields okstra-team writes; override any. */
export function row(workerId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const runRel = '.okstra/tasks/bugs/queue-stall/runs/error-analysis';
  return {
    workerId,
    provider: workerId === 'codex' ? 'codex' : 'claude',
    role: 'analyser',
    model: 'opus',
    status: 'in-progress',
    startedAt: '2026-11-29T08:00:00.000Z',
    endedAt: null,
    reason: null,
    attempt: 1,
    livenessMode: 'audit-heartbeat',
    auditSidecarPath: `${runRel}/worker-results/${workerId}-error-analysis-001.audit.md`,
    promptPath: `${runRel}/prompts/${workerId}-prompt-error-analysis-001.md`,
    resultPath: `${runRel}/worker-results/${workerId}-error-analysis-001.md`,
    ...over,
  };
}

/**
 * An audit sidecar as a worker really writes it: prose, an evidence table, a
 * fenced code block quoting a heartbeat, `PROGRESS:` mid-line, a line without
 * timestamp, and the given heartbeat lines (full lines) interleaved.
 */
export function sidecar(heartbeats: string[], opts: { crlf?: boolean; earlier?: string[] } = {}): string {
  const parts = [
    '# Audit sidecar — claude (error-analysis 001)',
    '',
    ...(opts.earlier ?? []),
    'Reading the task packet first; the lead asked for a PROGRESS: line every 5 minutes.',
    '',
    '## Evidence read',
    '',
    '| Citation | Why |',
    '| --- | --- |',
    '| `src/queue.ts:42` | the retry loop |',
    '| `- PROGRESS: 2026-11-29T09:59:00Z table-cell not a heartbeat` | quoted |',
    '',
    '```text',
    '  - PROGRESS: 2026-11-29T09:59:00Z fenced-indented not a heartbeat',
    '```',
    '- PROGRESS: phase-1 forgot the timestamp',
    '* PROGRESS: 2026-11-29T09:59:00Z wrong-bullet not a heartbeat',
  ];
  heartbeats.forEach((hb, i) => {
    parts.push(hb, '', `Notes after step ${i + 1}: checked \`src/worker.ts:${10 + i}\`.`, '');
  });
  parts.push('Still working — see PROGRESS: above.', '');
  return parts.join(opts.crlf ? '\r\n' : '\n');
}

/** A fake clock whose `sleep` advances time and runs a hook (no real waiting). */
export function fakeClock(start: string, onSleep?: (ms: number) => void) {
  let t = new Date(start).getTime();
  const sleeps: number[] = [];
  return {
    now: () => new Date(t),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
      onSleep?.(ms);
    },
    sleeps,
    advance: (s: number) => {
      t += s * 1000;
    },
  };
}
