import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { memoryIo } from '@okstra/cli-kit';
import { main } from '../main.js';
import { team } from '../test-support/bin.js';
import { processStartTime } from '@okstra/team-run';
import { makeFixture, privateSocket, rel, removeFixtures, writeJsonFile, type Fixture } from '../test-support/fixture.js';

// Workers whose wrapper is a live process that never writes anything: only
// libs/heartbeat's verdicts can end their wait before the deadline.
const children: ChildProcess[] = [];
afterAll(() => {
  children.forEach((c) => c.kill('SIGKILL'));
  removeFixtures();
});

function startStandIn(): { pid: number; pidStartTime: string } {
  const c = spawn('sleep', ['600'], { stdio: 'ignore' });
  children.push(c);
  return { pid: c.pid!, pidStartTime: processStartTime(c.pid!)! };
}

function fakeDispatch(f: Fixture, workerId: string, row: Record<string, unknown>): void {
  const startedAt = new Date(Date.now() - 10_000).toISOString();
  const state = f.teamState();
  state.workers = state.workers.map((w: any) => (w.workerId === workerId ? { ...w, status: 'in-progress', attempt: 1, startedAt, ...row } : w));
  writeJsonFile(f.teamStatePath, state);
  const manifest = f.manifest();
  manifest.workerDispatches.push({
    dispatchKind: 'initial',
    workerId,
    backend: 'subprocess',
    paneId: null,
    startedAt,
    degradedFrom: 'tmux-pane',
    reason: 'test',
    ...startStandIn(),
  });
  writeJsonFile(f.manifestPath, manifest);
}

const run = (f: Fixture) => ['--project-root', f.root, '--run-manifest', f.manifestPath, '--json'];

describe('await ends a wait early through libs/heartbeat', () => {
  it('no wrapper log or status after the launch grace → error did-not-launch', () => {
    const f = makeFixture([{ id: 'ghost', provider: 'stub-ok' }], { socket: privateSocket(), env: { OKSTRA_LIVENESS_LAUNCH_GRACE_S: '1' } });
    fakeDispatch(f, 'ghost', { livenessMode: 'wrapper-status', promptPath: rel(f, f.prompt('ghost')) });
    const a = team(['await', ...run(f)], { env: f.env });
    expect(a.code).toBe(1);
    const w = JSON.parse(a.stdout).workers[0];
    expect(w).toMatchObject({ workerId: 'ghost', status: 'error', retryable: true });
    expect(w.reason).toMatch(/^did-not-launch: neither .*ghost-prompt-error-analysis-001\.log nor .*\.status\.json appeared/);
    expect(f.row('ghost')).toMatchObject({ status: 'error', reason: w.reason });
  });

  it("progress: on a TTY one live line (steps and the workers' times), elsewhere one plain line per step; --quiet: none", async () => {
    const f = makeFixture([{ id: 'ghost', provider: 'stub-ok' }], { socket: privateSocket(), env: { OKSTRA_LIVENESS_LAUNCH_GRACE_S: '1' } });
    fakeDispatch(f, 'ghost', { livenessMode: 'wrapper-status', promptPath: rel(f, f.prompt('ghost')) });
    let err = '';
    const io = memoryIo({ env: f.env, cwd: f.root, stderr: { write: (s: string) => ((err += s), true), isTTY: true } });
    expect(await main(['await', ...run(f)], io)).toBe(1);
    const shown = err.split('\r\x1b[K').filter(Boolean);
    expect(shown[0]).toBe('okstra-team: awaiting 1 worker(s): ghost');
    expect(shown.at(-1)).toBe('okstra-team: ghost error (1 of 1 ended)\n');
    expect(shown.slice(1, -1).every((l) => /^okstra-team: ghost \d+s$/.test(l))).toBe(true);
    const plain = team(['await', ...run(f)], { env: f.env });
    expect(plain.stderr).toBe('okstra-team: awaiting 1 worker(s): ghost\nokstra-team: ghost error (1 of 1 ended)\n');
    expect(team(['await', ...run(f), '--quiet'], { env: f.env }).stderr).toBe('');
  });

  it('a heartbeat older than the idle budget (confirmed on re-read) → timeout stalled', () => {
    const f = makeFixture([{ id: 'sleepy', provider: 'stub-ok' }], {
      socket: privateSocket(),
      env: { OKSTRA_LIVENESS_MAX_IDLE_S: '2', OKSTRA_LIVENESS_STALL_CONFIRM_S: '0.2' },
    });
    const audit = f.result('sleepy').replace(/\.md$/, '.audit.md');
    fakeDispatch(f, 'sleepy', { livenessMode: 'audit-heartbeat', auditSidecarPath: rel(f, audit), promptPath: rel(f, f.prompt('sleepy')) });
    mkdirSync(dirname(audit), { recursive: true });
    writeFileSync(audit, `- PROGRESS: ${new Date(Date.now() - 5_000).toISOString().replace(/\.\d+Z$/, 'Z')} round-1 reading src/refund.ts\n`);
    const a = team(['await', ...run(f)], { env: f.env });
    expect(a.code).toBe(1);
    const w = JSON.parse(a.stdout).workers[0];
    expect(w).toMatchObject({ workerId: 'sleepy', status: 'timeout', retryable: true });
    expect(w.reason).toMatch(/^stalled: newest heartbeat .* is \d+ s old \(budget 2 s\)/);
  });

  it('no dispatch recorded → exit 2; a bad --deadline → exit 2', () => {
    const f = makeFixture([{ id: 'idle', provider: 'stub-ok' }], { socket: privateSocket() });
    const r = team(['await', ...run(f)], { env: f.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `okstra-team: ${f.manifestPath}: workerDispatches: no workerDispatches to await and no native worker recorded (run okstra team dispatch first)\n`,
    );
    expect(team(['await', ...run(f), '--deadline', 'soon'], { env: f.env }).stderr).toBe(
      "okstra-team: --deadline expects a positive number of minutes, got 'soon'\n",
    );
  });
});
