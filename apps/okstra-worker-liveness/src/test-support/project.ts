import { makeTempProject, runBinAsync } from '@okstra/core/test-support';

/** The built bin; tests run it as a real child process. */
export const BIN = new URL('../../dist/bin.js', import.meta.url).pathname;

/** Run the real bin in `cwd`; resolves with its exit code and output (never rejects on a non-zero exit). */
export function liveness(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return runBinAsync(BIN, args, { cwd, env: { ...process.env, OKSTRA_DEBUG: '1' } }).then(({ code, stdout, stderr }) => ({ code, stdout, stderr }));
}

/** ISO-8601 UTC `seconds` from now (negative = in the past). */
export const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

/** A heartbeat line stamped `seconds` ago. */
export const heartbeat = (seconds: number, phase = 'round-1', verb = 'checking src/queue.ts') => `- PROGRESS: ${ago(seconds)} ${phase} ${verb}`;

export const RUN = '.okstra/tasks/bugs/queue-stall/runs/error-analysis';
export const TEAM_STATE = `${RUN}/state/team-state-error-analysis-001.json`;
export const sidecarPath = (id: string, run = RUN, seq = '001') => `${run}/worker-results/${id}-error-analysis-${seq}.audit.md`;
export const promptPath = (id: string, run = RUN, seq = '001') => `${run}/prompts/${id}-prompt-error-analysis-${seq}.md`;

/** A temp project root; `write` takes project-relative paths. */
export function makeProject() {
  const p = makeTempProject('okstra-liveness-');
  const write = (rel: string, text: string, mtime?: Date) => p.write(rel, text, mtime);
  return {
    root: p.root,
    write,
    teamState(workers: unknown[], rel = TEAM_STATE, seq = '001') {
      write(rel, JSON.stringify({ schemaVersion: '1.0', taskKey: 'sample:bugs:queue-stall', taskType: 'error-analysis', seq, workers }, null, 2) + '\n');
      return rel;
    },
    cleanup: p.cleanup,
  };
}

/** A team-state row as okstra-team writes it; `startedAgo` in seconds. */
export function row(workerId: string, startedAgo: number, over: Record<string, unknown> = {}, run = RUN, seq = '001') {
  return {
    workerId,
    provider: workerId,
    role: 'analyser',
    model: 'default',
    status: 'in-progress',
    startedAt: ago(startedAgo),
    endedAt: null,
    reason: null,
    attempt: 1,
    livenessMode: 'audit-heartbeat',
    auditSidecarPath: sidecarPath(workerId, run, seq),
    promptPath: promptPath(workerId, run, seq),
    resultPath: `${run}/worker-results/${workerId}-error-analysis-${seq}.md`,
    ...over,
  };
}

/** A realistic sidecar around the given heartbeat lines (prose, table, fence, mid-line PROGRESS:, a heartbeat without timestamp). */
export function sidecar(lines: string[], crlf = false): string {
  const text =
    [
      '# Audit sidecar',
      '',
      'I will emit a PROGRESS: line every five minutes.',
      '',
      '## Evidence read',
      '',
      '| Citation | Note |',
      '| --- | --- |',
      '| `src/queue.ts:42` | retry loop |',
      '',
      '```',
      `  ${heartbeat(0, 'quoted', 'inside a fence, indented')}`,
      '```',
      '- PROGRESS: round-1 no timestamp here',
      '',
      ...lines.flatMap((l, i) => [l, `Step ${i + 1} notes.`, '']),
    ].join('\n') + '\n';
  return crlf ? text.replace(/\n/g, '\r\n') : text;
}
