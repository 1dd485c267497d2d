import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { heartbeat, liveness, makeProject, row, sidecar, sidecarPath, TEAM_STATE } from './test-support/project.js';

/**
 * A real worker stand-in: after `delayMs`, appends a heartbeat stamped with
 * the current time every `everyMs`, `count` times (0 = until killed).
 */
const APPENDER = `
const [file, delayMs, everyMs, count] = process.argv.slice(1);
const { appendFileSync } = require('node:fs');
let n = 0;
setTimeout(function tick() {
  n += 1;
  appendFileSync(file, '- PROGRESS: ' + new Date().toISOString() + ' round-1 step ' + n + '\\n');
  if (Number(count) === 0 || n < Number(count)) setTimeout(tick, Number(everyMs));
}, Number(delayMs));
`;
function appender(file: string, delayMs: number, everyMs: number, count: number): ChildProcess {
  return spawn(process.execPath, ['-e', APPENDER, file, String(delayMs), String(everyMs), String(count)], { stdio: 'ignore' });
}

/** A lead stand-in: after `delayMs`, records the worker completed in team-state (temp file + rename, as okstra does). */
const COMPLETER = `
const [file, delayMs, workerId] = process.argv.slice(1);
const { readFileSync, writeFileSync, renameSync } = require('node:fs');
setTimeout(() => {
  const state = JSON.parse(readFileSync(file, 'utf8'));
  const row = state.workers.find((w) => w.workerId === workerId);
  row.status = 'completed';
  row.endedAt = new Date().toISOString();
  writeFileSync(file + '.tmp', JSON.stringify(state, null, 2) + '\\n');
  renameSync(file + '.tmp', file);
}, Number(delayMs));
`;

let p: ReturnType<typeof makeProject>;
let child: ChildProcess | undefined;
beforeEach(() => {
  p = makeProject();
});
afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill();
    await once(child, 'exit');
  }
  p.cleanup();
});

describe('--stall-confirm with a real worker process', () => {
  it('a worker that keeps appending is judged live after the re-read, not stalled', async () => {
    p.teamState([row('claude', 900)]);
    const file = p.write(sidecarPath('claude'), sidecar([heartbeat(800), heartbeat(400)]));
    // Its last heartbeat is past the 360 s budget: a suspect at the first read; the child resumes before the 2 s re-read.
    child = appender(file, 800, 200, 0);
    const r = await liveness(['--team-state', TEAM_STATE, '--worker', 'claude', '--stall-confirm', '2', '--json'], p.root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [w] = JSON.parse(r.stdout).workers;
    expect(w).toMatchObject({ verdict: 'live', healthy: true, reason: null });
    expect(Date.parse(w.evidence.newestHeartbeatAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a worker that stopped appending is confirmed stalled after the re-read', async () => {
    p.teamState([row('claude', 900)]);
    const file = p.write(sidecarPath('claude'), sidecar([heartbeat(400)]));
    child = appender(file, 0, 100, 3);
    await once(child, 'exit');
    await sleep(1100); // let its last heartbeat age past the 1 s budget used below
    const r = await liveness(['--team-state', TEAM_STATE, '--worker', 'claude', '--max-idle', '1', '--stall-confirm', '2'], p.root);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^claude {2}stalled {2}audit-heartbeat {2}newest heartbeat \S+ is \d+ s old \(budget 1 s\); not advanced after a 2 s re-read\n$/);
  });

  it('a worker whose row turns completed during the confirm window is reported completed, exit 0 (no retry spent on a finished worker)', async () => {
    p.teamState([row('claude', 900)]);
    p.write(sidecarPath('claude'), sidecar([heartbeat(800)]));
    child = spawn(process.execPath, ['-e', COMPLETER, join(p.root, TEAM_STATE), '700', 'claude'], { stdio: 'ignore' });
    const r = await liveness(['--team-state', TEAM_STATE, '--worker', 'claude', '--stall-confirm', '2', '--json'], p.root);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout).workers[0]).toMatchObject({ verdict: 'completed', healthy: true, reason: null });
  });
});
