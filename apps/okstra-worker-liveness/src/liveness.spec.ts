import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ago, heartbeat, liveness, makeProject, promptPath, row, RUN, sidecar, sidecarPath, TEAM_STATE } from './test-support/project.js';

let p: ReturnType<typeof makeProject>;
beforeEach(() => {
  p = makeProject();
});
afterEach(() => p.cleanup());

const pair = (...ids: string[]) => ids.flatMap((id) => ['--team-state', TEAM_STATE, '--worker', id]);
const wrapper = (id: string, startedAgo: number, over = {}) => row(id, startedAgo, { livenessMode: 'wrapper-status', auditSidecarPath: null, ...over });

describe('okstra-worker-liveness (real bin): verdicts', () => {
  it('judges live, stalled, did-not-launch and terminal workers, exit 1, one aligned line each', async () => {
    p.teamState([
      row('claude', 600),
      row('codex', 900),
      wrapper('gemini', 300),
      wrapper('qwen', 300),
      row('opencode', 3600, { status: 'completed', endedAt: ago(60) }),
    ]);
    p.write(sidecarPath('claude'), sidecar([heartbeat(400), heartbeat(100)], true));
    p.write(sidecarPath('codex'), sidecar([heartbeat(800), heartbeat(500)]));
    p.write(promptPath('qwen').replace(/\.md$/, '.log'), 'qwen starting\n');
    const r = await liveness([...pair('claude', 'codex', 'gemini', 'qwen', 'opencode'), '--stall-confirm', '0'], p.root);
    expect([r.code, r.stderr]).toEqual([1, '']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      ['claude', 'live', 'audit-heartbeat'],
      ['codex', 'stalled', 'audit-heartbeat'],
      ['gemini', 'did-not-launch', 'wrapper-status'],
      ['qwen', 'live', 'wrapper-status'],
      ['opencode', 'completed', 'audit-heartbeat'],
    ]);
    const detailColumn = new Set(lines.map((l) => /^(\S+ +){3}/.exec(l)![0].length));
    expect(detailColumn.size).toBe(1);
    expect(lines[1]).toMatch(/newest heartbeat \S+ is 50\d s old \(budget 360 s\)$/);
    expect(lines[2]).toContain(
      `neither ${promptPath('gemini').replace(/\.md$/, '.log')} nor ${promptPath('gemini').replace(/\.md$/, '.status.json')} appeared`,
    );
  });

  it('--json prints one document with per-worker evidence; exit 0 when all are healthy', async () => {
    p.teamState([row('claude', 600), wrapper('codex', 60), row('gemini', 3600, { status: 'error', reason: 'did-not-launch' })]);
    const beatAt = ago(100);
    p.write(sidecarPath('claude'), sidecar([`- PROGRESS: ${beatAt} round-2 reading the logs`]));
    const r = await liveness([...pair('claude', 'codex', 'gemini'), '--json'], p.root);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['checkedAt', 'healthy', 'workers']);
    expect(doc.healthy).toBe(true);
    const [claude, codex, gemini] = doc.workers;
    expect(claude).toMatchObject({
      teamStatePath: join(p.root, TEAM_STATE), // absolute (README)
      workerId: 'claude',
      mode: 'audit-heartbeat',
      verdict: 'live',
      healthy: true,
      reason: null,
      evidence: { artifact: sidecarPath('claude') },
    });
    expect(claude.evidence.newestHeartbeatAt).toBe(beatAt);
    expect(claude.evidence.ageSeconds).toBe(Math.floor((Date.parse(doc.checkedAt) - Date.parse(beatAt)) / 1000));
    expect(codex).toEqual({
      teamStatePath: join(p.root, TEAM_STATE), // absolute (README)
      workerId: 'codex',
      mode: 'wrapper-status',
      verdict: 'live',
      healthy: true,
      reason: null,
      evidence: { newestHeartbeatAt: null, ageSeconds: null, artifact: promptPath('codex').replace(/\.md$/, '.log') },
    });
    expect(gemini).toEqual({
      teamStatePath: join(p.root, TEAM_STATE), // absolute (README)
      workerId: 'gemini',
      mode: 'audit-heartbeat',
      verdict: 'error',
      healthy: true,
      reason: null,
      evidence: { newestHeartbeatAt: null, ageSeconds: null, artifact: null },
    });
  });

  it("does not count an earlier dispatch's heartbeats nor one stamped in the future", async () => {
    p.teamState([row('claude', 200, { attempt: 2 }), row('codex', 30), row('gemini', 400)]);
    p.write(sidecarPath('claude'), sidecar([heartbeat(1200), heartbeat(900), heartbeat(600)])); // first dispatch
    p.write(sidecarPath('codex'), sidecar([heartbeat(1200)])); // earlier dispatch, but inside codex's launch grace
    const lastValid = ago(390);
    p.write(sidecarPath('gemini'), sidecar([`- PROGRESS: ${lastValid} round-1 before the clock jump`, heartbeat(-120, 'round-1', 'clock ahead')]));
    const r = await liveness([...pair('claude', 'codex', 'gemini'), '--stall-confirm', '0', '--json'], p.root);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.workers.map((w: { verdict: string }) => w.verdict)).toEqual(['stalled', 'live', 'stalled']);
    expect(doc.workers[0].reason).toMatch(/^no heartbeat for this dispatch 20\d s after startedAt \S+ \(launch grace 120 s\)$/);
    expect(doc.workers[1].evidence.newestHeartbeatAt).toBeNull();
    expect(doc.workers[2].evidence.newestHeartbeatAt).toBe(lastValid);
  });

  it('honours --max-idle and --launch-grace', async () => {
    p.teamState([row('claude', 600), wrapper('codex', 200)]);
    p.write(sidecarPath('claude'), sidecar([heartbeat(100)]));
    const tight = await liveness([...pair('claude', 'codex'), '--max-idle', '60', '--launch-grace', '100', '--stall-confirm', '0'], p.root);
    expect(tight.stdout).toMatch(/^claude +stalled .*\(budget 60 s\)$/m);
    expect(tight.stdout).toMatch(/^codex +did-not-launch .*\(launch grace 100 s\)$/m);
    const loose = await liveness([...pair('claude', 'codex'), '--launch-grace', '300'], p.root);
    expect(loose.code).toBe(0);
  });

  it('accepts several team-state files in one call and names them on each line', async () => {
    const run2 = `${RUN.replace('error-analysis', 'implementation-planning')}`;
    const other = `${run2}/state/team-state-error-analysis-002.json`;
    p.teamState([row('claude', 60)]);
    p.teamState([row('claude', 60, {}, run2, '002')], other, '002');
    const r = await liveness(['--team-state', TEAM_STATE, '--worker', 'claude', `--team-state=${other}`, '--worker=claude'], p.root);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `claude  live  audit-heartbeat  no heartbeat yet, within launch grace (${sidecarPath('claude')})  [${join(p.root, TEAM_STATE)}]\n` +
        `claude  live  audit-heartbeat  no heartbeat yet, within launch grace (${sidecarPath('claude', run2, '002')})  [${join(p.root, other)}]\n`,
    );
  });
});

describe('okstra-worker-liveness (real bin): a pending worker is reported, not a reason to judge nobody', () => {
  const SAMPLE = new URL('../../../examples/sample-project/', import.meta.url).pathname;
  const SAMPLE_TS = '.okstra/tasks/payments/refund-timeout/runs/error-analysis/state/team-state-error-analysis-001.json';

  it('the sample run: the pending report writer is not-dispatched, the others judged, exit 0', async () => {
    const r = await liveness(['--team-state', SAMPLE_TS, '--worker', 'report-writer', '--team-state', SAMPLE_TS, '--worker', 'claude', '--json'], SAMPLE);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const doc = JSON.parse(r.stdout);
    expect(doc.healthy).toBe(true);
    expect(doc.workers.map((w: { workerId: string; verdict: string; healthy: boolean }) => [w.workerId, w.verdict, w.healthy])).toEqual([
      ['report-writer', 'not-dispatched', true],
      ['claude', 'completed', true],
    ]);
    const human = await liveness(['--team-state', SAMPLE_TS, '--worker', 'report-writer'], SAMPLE);
    expect(human).toEqual({
      code: 0,
      stderr: '',
      stdout: 'report-writer  not-dispatched  wrapper-status  pending in team-state: not dispatched yet, not judged\n',
    });
  });

  it('a pending worker is left out of the exit code: a stalled one still makes it 1', async () => {
    p.teamState([row('claude', 900), row('report-writer', 0, { status: 'pending', startedAt: null, attempt: 0 })]);
    p.write(sidecarPath('claude'), sidecar([heartbeat(800)]));
    const r = await liveness([...pair('report-writer', 'claude'), '--stall-confirm', '0', '--json'], p.root);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).workers.map((w: { verdict: string }) => w.verdict)).toEqual(['not-dispatched', 'stalled']);
  });
});

describe('okstra-worker-liveness (real bin): bad input exits 2 with one line, nothing on stdout', () => {
  it.each([
    [
      'an unpaired --team-state',
      ['--team-state', TEAM_STATE],
      `--team-state ${TEAM_STATE} has no paired --worker (pairs are --team-state <path> --worker <id>)`,
    ],
    [
      'a --worker first',
      ['--worker', 'claude', '--team-state', TEAM_STATE],
      '--worker claude has no preceding --team-state (pairs are --team-state <path> --worker <id>)',
    ],
    [
      'flags grouped instead of paired',
      ['--team-state', TEAM_STATE, '--team-state', TEAM_STATE, '--worker', 'claude', '--worker', 'codex'],
      `--team-state ${TEAM_STATE} has no paired --worker (pairs are --team-state <path> --worker <id>)`,
    ],
    [
      'a trailing --team-state',
      [...pair('claude'), '--team-state', TEAM_STATE],
      `--team-state ${TEAM_STATE} has no paired --worker (pairs are --team-state <path> --worker <id>)`,
    ],
    ['no selector', [], 'at least one --team-state <path> --worker <id> pair is required'],
    ['a negative --max-idle', [...pair('claude'), '--max-idle', '-1'], "--max-idle expects a non-negative number of seconds, got '-1'"],
    ['a non-numeric --stall-confirm', [...pair('claude'), '--stall-confirm', 'soon'], "--stall-confirm expects a non-negative number of seconds, got 'soon'"],
    ['an unknown worker', pair('nobody'), `${TEAM_STATE}: workers: no worker 'nobody' (workers: claude, codex, gemini)`],
    ['a duplicate selector', pair('claude', 'claude'), `${TEAM_STATE}: worker 'claude' is selected twice`],
    ['a row without startedAt', pair('codex'), `${TEAM_STATE}: workers[1].startedAt: worker 'codex' is in-progress but has no startedAt`],
    [
      'a row without its artifact path',
      pair('gemini'),
      `${TEAM_STATE}: workers[2].auditSidecarPath: worker 'gemini' has livenessMode audit-heartbeat but no auditSidecarPath`,
    ],
    ['a missing team-state file', ['--team-state', 'nope.json', '--worker', 'claude'], 'nope.json: file not found'],
    // `--team-state "$TS"` with TS unset: was "okstra-worker-liveness: is not a regular file" (the cwd, unnamed).
    ['an empty --team-state', ['--team-state', '', '--worker', 'claude'], "--team-state is an empty path: give the team-state file's path"],
  ])('%s', async (_name, args, message) => {
    p.teamState([row('claude', 60), row('codex', 60, { startedAt: null }), row('gemini', 60, { auditSidecarPath: null })]);
    const r = await liveness(args, p.root);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `okstra-worker-liveness: ${message}\n` });
  });

  it('an unknown livenessMode names the row', async () => {
    p.teamState([row('claude', 60, { livenessMode: 'pane-scrape' })]);
    const r = await liveness(pair('claude'), p.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^okstra-worker-liveness: ${TEAM_STATE}: workers\\[0\\]\\.livenessMode: .*\\n$`));
  });
});

describe('okstra-worker-liveness (real bin): budget flags are bounded decimal seconds', () => {
  it.each([
    ['--stall-confirm', '2200000', "--stall-confirm is at most 86400 seconds, got '2200000'"],
    ['--stall-confirm', '86400.5', "--stall-confirm is at most 86400 seconds, got '86400.5'"],
    ['--max-idle', '1e9', "--max-idle expects a non-negative number of seconds, got '1e9'"],
    ['--max-idle', '0x10', "--max-idle expects a non-negative number of seconds, got '0x10'"],
    ['--max-idle', ' 5', "--max-idle expects a non-negative number of seconds, got ' 5'"],
    ['--launch-grace', '90000', "--launch-grace is at most 86400 seconds, got '90000'"],
    ['--launch-grace', 'Infinity', "--launch-grace expects a non-negative number of seconds, got 'Infinity'"],
  ])('%s %j is refused, naming the flag, before anything is read', async (flag, value, message) => {
    p.teamState([row('claude', 3600)]);
    p.write(sidecarPath('claude'), sidecar([heartbeat(3000)]));
    const r = await liveness([...pair('claude'), `${flag}=${value}`], p.root);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `okstra-worker-liveness: ${message}\n` });
  });

  it('86400 is accepted (the documented maximum)', async () => {
    p.teamState([row('claude', 60)]);
    p.write(sidecarPath('claude'), sidecar([heartbeat(10)]));
    const r = await liveness([...pair('claude'), '--stall-confirm', '86400', '--max-idle', '86400', '--launch-grace', '0.5'], p.root);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('okstra-worker-liveness (real bin): artifacts must really be inside the project and regular files', () => {
  let outside: string;
  beforeEach(() => {
    outside = mkdtempSync(join(tmpdir(), 'okstra-outside-'));
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));
  const link = (target: string, rel: string) => {
    mkdirSync(dirname(join(p.root, rel)), { recursive: true });
    symlinkSync(target, join(p.root, rel));
  };
  const mkfifo = (rel: string) => {
    mkdirSync(dirname(join(p.root, rel)), { recursive: true });
    expect(spawnSync('mkfifo', [join(p.root, rel)]).status).toBe(0);
  };

  it('an auditSidecarPath that is a symlink to a file outside the root: exit 2 naming the row and field', async () => {
    writeFileSync(join(outside, 'outside.md'), sidecar([heartbeat(10)]));
    link(join(outside, 'outside.md'), '.okstra/r/outlink');
    p.teamState([row('claude', 60, { auditSidecarPath: '.okstra/r/outlink' })]);
    const r = await liveness(pair('claude'), p.root);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^okstra-worker-liveness: ${TEAM_STATE}: workers\\[0\\]\\.auditSidecarPath: .*outside the project root.*\\n$`));
  });

  it('an auditSidecarPath under a symlinked directory leading outside (file not there yet): exit 2', async () => {
    link(outside, '.okstra/r/outdir');
    p.teamState([row('claude', 60, { auditSidecarPath: '.okstra/r/outdir/claude.audit.md' })]);
    const r = await liveness(pair('claude'), p.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/workers\[0\]\.auditSidecarPath: .*outside the project root/);
  });

  it('a symlink inside the root to a file inside the root is still judged', async () => {
    p.write(`${RUN}/worker-results/real.audit.md`, sidecar([heartbeat(10)]));
    link(join(p.root, RUN, 'worker-results', 'real.audit.md'), sidecarPath('claude'));
    p.teamState([row('claude', 60)]);
    const r = await liveness([...pair('claude'), '--json'], p.root);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).workers[0].verdict).toBe('live');
  });

  it('a wrapper .status.json beside promptPath that links outside: exit 2 naming promptPath', async () => {
    writeFileSync(join(outside, 'status.json'), '{}');
    link(join(outside, 'status.json'), promptPath('gemini').replace(/\.md$/, '.status.json'));
    p.teamState([wrapper('gemini', 600)]);
    const r = await liveness(pair('gemini'), p.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^okstra-worker-liveness: ${TEAM_STATE}: workers\\[0\\]\\.promptPath: .*outside the project root`));
  });

  it('a FIFO as auditSidecarPath: exit 2 naming the row field, no hang', async () => {
    mkfifo(sidecarPath('claude'));
    p.teamState([row('claude', 60)]);
    const r = await liveness(pair('claude'), p.root);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `okstra-worker-liveness: ${TEAM_STATE}: workers[0].auditSidecarPath: '${join(p.root, sidecarPath('claude'))}' is not a regular file\n`,
    });
  });

  it('a FIFO as the wrapper .log: exit 2 naming promptPath', async () => {
    mkfifo(promptPath('gemini').replace(/\.md$/, '.log'));
    p.teamState([wrapper('gemini', 600)]);
    const r = await liveness(pair('gemini'), p.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/workers\[0\]\.promptPath: .* is not a regular file\n$/);
  });

  it('a FIFO as the team-state file: exit 2 naming it, no hang', async () => {
    mkfifo(TEAM_STATE);
    const r = await liveness(pair('claude'), p.root);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^okstra-worker-liveness: ${TEAM_STATE}: .*not a regular file\\n$`));
  });
});

describe('okstra-worker-liveness (real bin): livenessMode of terminal rows', () => {
  it('a terminal row without livenessMode reports mode null', async () => {
    const { livenessMode: _omit, ...noMode } = row('claude', 60, { status: 'completed' });
    p.teamState([noMode]);
    const r = await liveness([...pair('claude'), '--json'], p.root);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).workers[0]).toMatchObject({ mode: null, verdict: 'completed' });
  });

  it('livenessMode: null is not a row shape (docs: omit the key); exit 2 naming the field', async () => {
    p.teamState([row('claude', 60, { status: 'completed', livenessMode: null })]);
    const r = await liveness(pair('claude'), p.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^okstra-worker-liveness: ${TEAM_STATE}: workers\\[0\\]\\.livenessMode: `));
  });
});
