// okstra-worker-liveness over the sample task: a fresh error-analysis run (seq 002)
// with three in-progress workers whose artifacts are written relative to now —
// claude heartbeats on cadence (live), codex went silent 9 minutes ago (stalled),
// gemini's CLI wrapper never wrote its .log/.status.json (did-not-launch).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const title = 'worker liveness: live, stalled, did-not-launch';

const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';
const TEAM_STATE = `${RUN}/state/team-state-error-analysis-002.json`;
const sidecar = (id) => `${RUN}/worker-results/${id}-error-analysis-002.audit.md`;
const prompt = (id) => `${RUN}/prompts/${id}-prompt-error-analysis-002.md`;
const EXPECTED = { claude: 'live', codex: 'stalled', gemini: 'did-not-launch' };

export default async function ({ workDir, run, log }) {
  const root = join(workDir, 'sample-project');
  const write = (rel, text) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  const ago = (min) => new Date(Date.now() - min * 60_000).toISOString();
  const beat = (min, phase, verb) => `- PROGRESS: ${ago(min)} ${phase} ${verb}`;
  const audit = (id, beats) =>
    [
      `# Audit sidecar — ${id} (error-analysis 002)`,
      '',
      'Heartbeat instruction: one PROGRESS: line at least every five minutes.',
      '',
      '## Evidence read',
      '',
      '| Citation | Note |',
      '| --- | --- |',
      '| `src/refunds/timeout.ts:88` | the retry window |',
      '',
      ...beats.flatMap((b) => [b, '', 'Notes: traced the refund worker queue.', '']),
    ].join('\n');
  const worker = (workerId, provider, startedMin, mode) => ({
    workerId,
    provider,
    role: 'analyser',
    model: 'default',
    status: 'in-progress',
    startedAt: ago(startedMin),
    endedAt: null,
    reason: null,
    attempt: 1,
    livenessMode: mode,
    auditSidecarPath: mode === 'audit-heartbeat' ? sidecar(workerId) : null,
    promptPath: prompt(workerId),
    resultPath: `${RUN}/worker-results/${workerId}-error-analysis-002.md`,
  });

  write(
    TEAM_STATE,
    JSON.stringify(
      {
        schemaVersion: '1.0',
        taskKey: 'sample:payments:refund-timeout',
        taskType: 'error-analysis',
        seq: '002',
        workers: [
          worker('claude', 'claude', 12, 'audit-heartbeat'),
          worker('codex', 'codex', 20, 'audit-heartbeat'),
          worker('gemini', 'gemini', 5, 'wrapper-status'),
        ],
      },
      null,
      2,
    ) + '\n',
  );
  for (const id of Object.keys(EXPECTED)) write(prompt(id), `# ${id} error-analysis prompt\n`);
  write(
    sidecar('claude'),
    audit('claude', [beat(11, 'round-1', 'reading the packet'), beat(6, 'round-1', 'tracing src/refunds/timeout.ts'), beat(1, 'round-1', 'writing findings')]),
  );
  write(
    sidecar('codex'),
    audit('codex', [
      beat(19, 'round-1', 'reading the packet'),
      beat(14, 'round-1', 'running the refund tests'),
      beat(9, 'round-1', 'bisecting the retry change'),
    ]),
  );

  const args = [...Object.keys(EXPECTED).flatMap((id) => ['--team-state', TEAM_STATE, '--worker', id]), '--stall-confirm', '0', '--json'];
  log(`  $ okstra worker-liveness ${args.join(' ')}   (cwd ${root})`);
  const r = run('okstra', ['worker-liveness', ...args], { cwd: root });
  if (r.code !== 1) return { ok: false, summary: `expected exit 1 (unhealthy workers), got ${r.code}: ${r.stderr.trim()}` };
  const { workers } = JSON.parse(r.stdout);
  for (const w of workers)
    log(`  ${w.workerId.padEnd(7)} ${w.verdict.padEnd(15)} ${w.reason ?? `newest heartbeat ${w.evidence.newestHeartbeatAt} (${w.evidence.ageSeconds} s ago)`}`);
  const got = Object.fromEntries(workers.map((w) => [w.workerId, w.verdict]));
  const ok = JSON.stringify(got) === JSON.stringify(EXPECTED);
  return { ok, summary: ok ? 'exit 1; claude live, codex stalled, gemini did-not-launch' : `unexpected verdicts ${JSON.stringify(got)}` };
}
