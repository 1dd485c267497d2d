import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryIo } from '@okstra/cli-kit';
import { main } from 'okstra';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.js';
import { extractCommandLines, type CommandLine } from './markdown.js';

/**
 * The Claude Code adapter walked through on a copy of the sample project: the
 * harness runs, in the adapter's own order, exactly the fenced okstra command
 * lines `prompts/lead/adapters/claude-code.md` gives (placeholders filled in,
 * nothing added), while two stub native workers behave as workers do — one
 * heartbeats and delivers, one never heartbeats. The clock is the harness's,
 * so launch grace and the stall confirmation pass without real waiting.
 */
const ADAPTER = 'prompts/lead/adapters/claude-code.md';
const TASK = '.okstra/tasks/payments/refund-timeout';
const RUN = `${TASK}/runs/error-analysis`;
const SEQ = '002';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the sample project with a fresh error-analysis run 002: two native Claude rows, pending. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'okstra-claude-walk-'));
  dirs.push(root);
  cpSync(join(REPO_ROOT, 'examples/sample-project'), root, { recursive: true });
  const state = join(root, RUN, 'state');
  mkdirSync(state, { recursive: true });
  const rows = ['claude', 'claude-b'].map((w) => ({ workerId: w, provider: 'claude', role: 'Claude worker', status: 'pending', attempt: 0 }));
  const teamState = { schemaVersion: '1.0', taskKey: 'sample:payments:refund-timeout', taskType: 'error-analysis', seq: SEQ, workers: rows };
  writeFileSync(join(state, `team-state-error-analysis-${SEQ}.json`), JSON.stringify(teamState, null, 2) + '\n');
  for (const w of ['claude', 'claude-b']) writeFileSync(join(root, RUN, 'prompts', `${w}-prompt-error-analysis-${SEQ}.md`), `# ${w}\n`);
  return root;
}

/** The adapter's fenced command lines, in order, each named by what it does. */
function adapterLines(): Record<'record' | 'completed' | 'notRun' | 'probe' | 'timeout', CommandLine> {
  const fenced = extractCommandLines(readFileSync(join(REPO_ROOT, ADAPTER), 'utf8'), ADAPTER).filter((c) => c.origin === 'fence');
  const find = (what: string, test: (w: string[]) => boolean) => {
    const line = fenced.find((c) => test(c.words));
    if (!line) throw new Error(`${ADAPTER} has no fenced line that ${what}`);
    return line;
  };
  const status = (s: string) => (w: string[]) => w[1] === 'worker-state' && w[w.indexOf('--status') + 1] === s;
  return {
    record: find('records a native worker', (w) => status('in-progress')(w) && w.includes('--liveness-mode')),
    completed: find('records a completed worker', status('completed')),
    notRun: find('records a not-run worker', status('not-run')),
    probe: find('probes liveness', (w) => w[1] === 'worker-liveness'),
    timeout: find('records a stalled worker as timeout', status('timeout')),
  };
}

/** Fill the adapter's placeholders for one worker. */
function fill(words: string[], values: Record<string, string>): string[] {
  return words.slice(1).map((w) => w.replace(/<[^<>]+>/g, (p) => values[p] ?? p));
}

describe(`${ADAPTER}, walked through with stub native workers`, () => {
  it('records native rows, polls worker-liveness, ends on the documented verdicts', async () => {
    const root = project();
    const t0 = Date.parse('2026-12-01T10:00:00Z');
    let clock = t0;
    const run = async (words: string[]) => {
      // The stall confirmation waits on this clock: a wait advances it, nothing sleeps.
      const io = memoryIo({ cwd: root, now: () => new Date(clock), sleep: async (ms) => void (clock += ms) });
      const code = await main(words, io);
      return { code, stdout: io.out(), stderr: io.err() };
    };
    const base = { '<run>': RUN, '<type>': 'error-analysis', '<seq>': SEQ, '<team-state>': `${RUN}/state/team-state-error-analysis-${SEQ}.json` };
    const lines = adapterLines();
    expect(lines.record.line).toBeLessThan(lines.probe.line); // the row is recorded before the first poll
    const row = (w: string) => JSON.parse(readFileSync(join(root, base['<team-state>']), 'utf8')).workers.find((r: { workerId: string }) => r.workerId === w);

    // Start both native workers (host Agent(…), the harness) and record each row as the adapter says.
    for (const w of ['claude', 'claude-b']) {
      const r = await run(fill(lines.record.words, { ...base, '<worker>': w, '<model>': 'claude-opus-4-1' }));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(row(w)).toMatchObject({ status: 'in-progress', livenessMode: 'audit-heartbeat', attempt: 1 });
    }
    const sidecar = join(root, RUN, `worker-results/claude-error-analysis-${SEQ}.audit.md`);
    const beat = (at: number) => appendFileSync(sidecar, `- PROGRESS: ${new Date(at).toISOString()} round-1 reading src/refund.ts\n`);
    const probe = () => run(fill(lines.probe.words, { ...base, '<id-1>': 'claude', '<id-2>': 'claude-b' }));
    const verdicts = (stdout: string) =>
      Object.fromEntries(JSON.parse(stdout).workers.map((w: { workerId: string; verdict: string }) => [w.workerId, w.verdict]));

    // First poll, 30 s in: claude has heartbeated, claude-b is inside its launch grace.
    mkdirSync(join(root, RUN, 'worker-results'), { recursive: true });
    beat(t0 + 20_000);
    clock = t0 + 30_000;
    const first = await probe();
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(verdicts(first.stdout)).toEqual({ claude: 'live', 'claude-b': 'live' });

    // A later poll, past the 120 s launch grace: claude still beats, claude-b never wrote a heartbeat.
    // claude-b is a suspect; the probe re-reads after its 180 s confirm window (budgeted into the poll).
    beat(t0 + 150_000);
    clock = t0 + 200_000;
    const second = await probe();
    expect(second.code).toBe(1);
    expect(verdicts(second.stdout)).toEqual({ claude: 'live', 'claude-b': 'stalled' });
    expect(clock).toBe(t0 + 380_000);

    // The adapter's response to that verdict: record the terminal status with a reason.
    const timedOut = await run(fill(lines.timeout.words, { ...base, '<id>': 'claude-b', '<time>': new Date(t0).toISOString() }));
    expect(timedOut.code).toBe(0);
    expect(row('claude-b')).toMatchObject({ status: 'timeout', reason: expect.stringContaining('stalled') });

    // claude delivers its result; its end is recorded.
    writeFileSync(join(root, RUN, `worker-results/claude-error-analysis-${SEQ}.md`), '# claude\n');
    const done = await run(fill(lines.completed.words, { ...base, '<id>': 'claude' }));
    expect(done.code).toBe(0);
    expect(row('claude')).toMatchObject({ status: 'completed', reason: null });

    // A poll after the end judges nobody unhealthy: both rows are terminal.
    const last = await probe();
    expect(last.code).toBe(0);
  });

  it('its not-run line records a worker the lead decides not to run', async () => {
    const root = project();
    const io = memoryIo({ cwd: root });
    const words = adapterLines().notRun.words;
    const values = {
      '<team-state>': `${RUN}/state/team-state-error-analysis-${SEQ}.json`,
      '<id>': 'claude-b',
      '<why, in one line>': 'user removed it from the roster',
    };
    expect(await main(fill(words, values), io)).toBe(0);
    expect(JSON.parse(io.out()).row).toMatchObject({ status: 'not-run', reason: 'user removed it from the roster' });
  });
});
