import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN as teamBin, team } from '../test-support/bin.js';
import { makeFixture, privateSocket, removeFixtures, writeJsonFile, type Fixture } from '../test-support/fixture.js';
import { execStatusOf, STARTED, writeExecJob } from '../test-support/exec-job.js';

afterAll(removeFixtures);

const jobFor = writeExecJob;
const statusOf = execStatusOf;

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

  it('an earlier attempt’s result never completes this dispatch: it is moved aside to .attempt-<n> before the provider starts (issue 26.4)', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    mkdirSync(join(f.result('alpha'), '..'), { recursive: true });
    writeFileSync(f.result('alpha'), '# earlier findings\n');
    writeFileSync(`${f.result('alpha')}.attempt-1`, '# the first attempt\n');
    // Reads its prompt and exits 0, writing nothing — completed before the fix.
    const job = jobFor(f, { file: '/bin/sh', args: ['-c', 'cat > /dev/null'] });
    expect(team(['exec', '--job', job], { env: f.env }).code).toBe(1);
    expect(statusOf(f)).toMatchObject({ status: 'error', exitCode: 0, answer: null });
    expect(statusOf(f).reason).toMatch(/^exit 0 but result missing/);
    expect(existsSync(f.result('alpha'))).toBe(false);
    expect(readFileSync(`${f.result('alpha')}.attempt-2`, 'utf8')).toBe('# earlier findings\n');
    expect(readFileSync(`${f.result('alpha')}.attempt-1`, 'utf8')).toBe('# the first attempt\n');
    expect(f.row('alpha')).toMatchObject({ status: 'error' });
  });

  it('a completion path older than the dispatch does not count, even when it was not moved aside', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const stale = join(f.runDir, 'worker-results', 'alpha-data.json');
    // The provider itself puts an old file back (mtime before the row's start): not this dispatch's work.
    const job = jobFor(
      f,
      { file: '/bin/sh', args: ['-c', 'mkdir -p "$(dirname "$0")"; cat > "$0"; echo {} > "$1"; touch -d 2026-11-29T07:00:00Z "$1"', f.result('alpha'), stale] },
      { completionPaths: [f.result('alpha'), stale] },
    );
    expect(team(['exec', '--job', job], { env: f.env }).code).toBe(1);
    expect(statusOf(f)).toMatchObject({ status: 'error', reason: `exit 0 but result missing: ${stale}` });
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

  it("an earlier attempt that ends after its retry started never writes over the retry's status sidecar", () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    // The retry's wrapper started (and completed) after this first attempt's: teardown --force then stops the first.
    const retry = { schemaVersion: '1.0', workerId: 'alpha', dispatchKind: 'initial-retry', status: 'completed', exitCode: 0, signal: null };
    const times = { startedAt: '2099-01-01T00:00:00.000Z', endedAt: '2099-01-01T00:05:00.000Z', durationMs: 300000, reason: null };
    const statusFile = f.prompt('alpha').replace(/\.md$/, '.status.json');
    mkdirSync(join(statusFile, '..'), { recursive: true });
    writeFileSync(statusFile, JSON.stringify({ ...retry, ...times }, null, 2) + '\n');
    const before = readFileSync(statusFile, 'utf8');
    const job = jobFor(f, { file: '/bin/sh', args: ['-c', 'exit 3'] }, { rowStartedAt: '2026-11-29T07:00:00.000Z' });
    const r = team(['exec', '--job', job], { env: f.env });
    expect(r.code).toBe(1);
    expect(readFileSync(statusFile, 'utf8')).toBe(before);
    expect(r.stderr).toMatch(
      /a later dispatch's .*alpha-prompt-.*\.status\.json \(started 2099-01-01T00:00:00\.000Z\) is kept; this attempt's error is not written/,
    );
    expect(existsSync(`${statusFile}.lock`)).toBe(false);
    expect(f.row('alpha')).toMatchObject({ status: 'in-progress', startedAt: STARTED });
  });

  it('a provider that exits leaving a child on its stdout does not keep the wrapper waiting', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    const marker = `okstra-orphan-${process.pid}-${Date.now()}`;
    // The child inherits stdout and outlives the provider by a minute.
    const job = jobFor(f, {
      file: '/bin/sh',
      args: ['-c', `mkdir -p "$(dirname "$0")"; cat > "$0"; ${process.execPath} -e 'setTimeout(() => {}, 60000)' ${marker} & echo started`, f.result('alpha')],
    });
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
    const job = jobFor(f, {
      file: '/bin/sh',
      args: ['-c', `cat > /dev/null; ${process.execPath} -e 'setTimeout(() => {}, 60000)' ${marker} & echo working; wait`],
    });
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

  describe('the whole job file is validated before the provider starts (nothing written)', () => {
    const outside = mkdtempSync(join(tmpdir(), 'okstra-outside-'));
    afterAll(() => rmSync(outside, { recursive: true, force: true }));
    /** Run exec with a job altered by `over`; the provider would leave a marker file if it started. */
    function refused(over: (f: Fixture) => Record<string, unknown>, field: string) {
      const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
      const marker = join(outside, `started-${field.replace(/\W/g, '_')}-${Date.now()}`);
      const job = jobFor(f, { file: '/bin/sh', args: ['-c', 'touch "$0"', marker] }, over(f));
      const before = readFileSync(f.teamStatePath, 'utf8');
      const log = f.prompt('alpha').replace(/\.md$/, '.log');
      const hadLog = existsSync(log);
      const r = team(['exec', '--job', job], { env: f.env });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(`^okstra-team: ${job}: ${field.replace(/[[\]]/g, '\\$&')}: `));
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(log)).toBe(hadLog);
      expect(existsSync(f.prompt('alpha').replace(/\.md$/, '.status.json'))).toBe(false);
      if (existsSync(f.teamStatePath)) expect(readFileSync(f.teamStatePath, 'utf8')).toBe(before);
      return r;
    }

    it('a teamStatePath that does not exist', () => {
      refused((f) => ({ teamStatePath: join(f.runDir, 'state', 'no-such-team-state.json') }), 'teamStatePath');
    });
    it('a teamStatePath without a row for the worker', () => {
      const r = refused((f) => {
        const other = join(f.runDir, 'state', 'other-team-state.json');
        writeJsonFile(other, { ...f.teamState(), workers: [] });
        return { teamStatePath: other };
      }, 'teamStatePath');
      expect(r.stderr).toMatch(/no row for worker 'alpha'/);
    });
    it('a teamStatePath that is a directory', () => {
      refused((f) => ({ teamStatePath: join(f.runDir, 'state') }), 'teamStatePath');
    });
    it('a teamStatePath outside the project root', () => {
      refused((f) => {
        const copy = join(outside, 'team-state.json');
        writeFileSync(copy, readFileSync(f.teamStatePath));
        return { teamStatePath: copy };
      }, 'teamStatePath');
    });
    it('a promptPath outside the project root: no .log/.status.json written next to it', () => {
      const evil = join(outside, 'evil-prompt.md');
      writeFileSync(evil, 'prompt\n');
      refused(() => ({ promptPath: evil }), 'promptPath');
      expect(existsSync(join(outside, 'evil-prompt.log'))).toBe(false);
      expect(existsSync(join(outside, 'evil-prompt.status.json'))).toBe(false);
    });
    it('a relative promptPath climbing out of the root', () => {
      refused(() => ({ promptPath: '../../../etc/evil-prompt.md' }), 'promptPath');
    });
    it('a completion path outside the project root (/etc/passwd) is never "completed"', () => {
      refused(() => ({ completionPaths: ['/etc/passwd'] }), 'completionPaths[0]');
    });
    it('a resultPath outside the project root', () => {
      refused(() => ({ resultPath: join(outside, 'r.md') }), 'resultPath');
    });
    it('a prompt .log that is a symlink to a file outside: not followed, exit 2', () => {
      const target = join(outside, 'victim.txt');
      writeFileSync(target, 'keep me\n');
      refused((f) => {
        symlinkSync(target, f.prompt('alpha').replace(/\.md$/, '.log'));
        return {};
      }, 'promptPath');
      expect(readFileSync(target, 'utf8')).toBe('keep me\n');
    });
    it('a prompt that is a FIFO: exit 2 instead of blocking', () => {
      refused((f) => {
        rmSync(f.prompt('alpha'));
        expect(spawnSync('mkfifo', [f.prompt('alpha')]).status).toBe(0);
        return {};
      }, 'promptPath');
    });
    it('a completion path through a symlinked directory that leads outside', () => {
      refused((f) => {
        const link = join(f.root, '.okstra', 'outlink');
        mkdirSync(join(f.root, '.okstra'), { recursive: true });
        symlinkSync(outside, link);
        return { completionPaths: [join(link, 'passwd')] };
      }, 'completionPaths[0]');
    });
  });
});
