import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN as teamBin, team } from '../test-support/bin.js';
import { makeFixture, privateSocket, removeFixtures, writeJsonFile, type Fixture } from '../test-support/fixture.js';

afterAll(removeFixtures);

const STARTED = '2026-11-29T08:00:00.000Z';
function jobFor(f: Fixture, command: { file: string; args: string[] }, over: Record<string, unknown> = {}): string {
  const state = f.teamState();
  state.workers[0] = { ...state.workers[0], status: 'in-progress', attempt: 1, startedAt: STARTED };
  writeJsonFile(f.teamStatePath, state);
  const path = join(f.runDir, 'state', 'team-jobs', 'initial-alpha.job.json');
  writeJsonFile(path, {
    schemaVersion: '1.0', dispatchKind: 'initial', workerId: 'alpha', provider: 'stub-ok', role: 'analyser', model: 'm',
    projectRoot: f.root, teamStatePath: f.teamStatePath, promptPath: f.prompt('alpha'), resultPath: f.result('alpha'),
    completionPaths: [f.result('alpha')], promptDelivery: 'stdin', command, rowStartedAt: STARTED, ...over,
  });
  return path;
}
const statusOf = (f: Fixture) => JSON.parse(readFileSync(f.prompt('alpha').replace(/\.md$/, '.status.json'), 'utf8'));

describe('okstra-team exec (the pane wrapper)', () => {
  it('feeds the prompt file on stdin and closes it; tees output to the .log; completed when the result exists', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const job = jobFor(f, { file: '/bin/sh', args: ['-c', 'mkdir -p "$(dirname "$0")"; cat > "$0"; echo wrote; echo note >&2', f.result('alpha')] });
    const r = team(['exec', '--job', job], { env: f.env });
    expect(r.code).toBe(0);
    expect(readFileSync(f.result('alpha'), 'utf8')).toBe(readFileSync(f.prompt('alpha'), 'utf8'));
    expect(readFileSync(f.prompt('alpha').replace(/\.md$/, '.log'), 'utf8')).toMatch(/^(wrote\nnote\n|note\nwrote\n)$/);
    const s = statusOf(f);
    expect(s).toMatchObject({ schemaVersion: '1.0', workerId: 'alpha', dispatchKind: 'initial', status: 'completed', exitCode: 0, signal: null, reason: null });
    expect(s.durationMs).toBe(Date.parse(s.endedAt) - Date.parse(s.startedAt));
    expect(f.row('alpha')).toMatchObject({ status: 'completed', startedAt: STARTED, endedAt: s.endedAt });
  });

  it('an executable that cannot start is an error saying so, not "result missing"', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const job = jobFor(f, { file: '/nonexistent/claude', args: [] });
    expect(team(['exec', '--job', job], { env: f.env }).code).toBe(1);
    expect(statusOf(f)).toMatchObject({ status: 'error', exitCode: null, reason: 'provider CLI did not start: /nonexistent/claude: ENOENT' });
    expect(f.row('alpha')).toMatchObject({ status: 'error', reason: 'provider CLI did not start: /nonexistent/claude: ENOENT' });
  });

  it('a job of an earlier dispatch writes its sidecar but leaves the re-dispatched row alone', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const job = jobFor(f, { file: '/bin/sh', args: ['-c', 'exit 3'] }, { rowStartedAt: '2026-11-29T07:00:00.000Z' });
    expect(team(['exec', '--job', job], { env: f.env }).code).toBe(1);
    expect(statusOf(f)).toMatchObject({ status: 'error', exitCode: 3, reason: 'exit 3 with no output' });
    expect(f.row('alpha')).toMatchObject({ status: 'in-progress', startedAt: STARTED });
  });

  it('a provider that exits leaving a child on its stdout does not keep the wrapper waiting', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const marker = `okstra-orphan-${process.pid}-${Date.now()}`;
    // The child inherits stdout and outlives the provider by a minute.
    const job = jobFor(f, { file: '/bin/sh', args: ['-c', `mkdir -p "$(dirname "$0")"; cat > "$0"; ${process.execPath} -e 'setTimeout(() => {}, 60000)' ${marker} & echo started`, f.result('alpha')] });
    const r = team(['exec', '--job', job], { env: f.env });
    expect(r.code).toBe(0);
    const s = statusOf(f);
    expect(s).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(s.durationMs).toBeLessThan(30_000);
    // the leftover child was ended with its group
    expect(spawnSync('pgrep', ['-f', marker]).status).toBe(1);
  });

  it('SIGHUP to the wrapper (its pane closed) ends the provider and all its children, and the row records it', async () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const marker = `okstra-hup-${process.pid}-${Date.now()}`;
    const job = jobFor(f, { file: '/bin/sh', args: ['-c', `cat > /dev/null; ${process.execPath} -e 'setTimeout(() => {}, 60000)' ${marker} & echo working; wait`] });
    const child = spawn(process.execPath, [teamBin, 'exec', '--job', job], { env: f.env, stdio: 'pipe' });
    await new Promise<void>((resolve) => child.stdout.on('data', (b: Buffer) => b.toString().includes('working') && resolve()));
    child.kill('SIGHUP');
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(statusOf(f)).toMatchObject({ status: 'error', signal: 'SIGHUP' });
    expect(f.row('alpha')).toMatchObject({ status: 'error' });
    expect(spawnSync('pgrep', ['-f', marker]).status).toBe(1);
  });

  it('an invalid job file: exit 2, nothing written', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const job = jobFor(f, { file: '/bin/true', args: [] }, { rowStartedAt: 'yesterday' });
    const r = team(['exec', '--job', job], { env: f.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^okstra-team: ${job}: rowStartedAt: `));
    expect(existsSync(f.prompt('alpha').replace(/\.md$/, '.status.json'))).toBe(false);
  });
});
