import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BIN, team } from '../test-support/bin.js';
import {
  installCmuxStub,
  jobEntry,
  makeFixture,
  panes,
  pathWithoutTmux,
  privateServer,
  runArgs as run,
  tmux,
  waitFor,
  writeJobsFile,
  writeJsonFile,
  type Fixture,
} from '../test-support/fixture.js';

const socket = privateServer();

const jobsFile = writeJobsFile;

/**
 * What a dispatch leaves when it is SIGKILLed (or its disk fills) after it
 * started its panes, before it recorded them: the `starting` records it wrote
 * before acting (docs/team.md "dispatch"), the rows in-progress, the panes
 * running. Made deterministically: a real dispatch runs, then its records are
 * put back to their `starting` form, once two panes of the run are dead.
 */
async function killDispatchBeforeRecording(f: Fixture): Promise<void> {
  expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
  await waitFor(() => panes(socket).filter((p) => p.tag === 'sample:payments:refund-timeout/error-analysis-001' && p.dead).length >= 2);
  const manifest = f.manifest();
  const starting = (r: any) => {
    const { dispatchKind, workerId, startedAt, promptPath, jobsFile, jobPath } = r;
    return { dispatchKind, workerId, backend: 'tmux-pane', paneId: null, startedAt, promptPath, jobsFile, jobPath, phase: 'starting' };
  };
  writeJsonFile(f.manifestPath, { ...manifest, workerDispatches: manifest.workerDispatches.map(starting) });
}
const job = (f: Fixture, workerId: string, provider: string, role: string) => jobEntry(f, workerId, provider, role);

describe('dispatch input validation (exit 2, nothing written)', () => {
  it('refuses a jobs-file path escaping the root, a dispatchKind mismatch, a role the provider lacks, an unsafe worker id', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket });
    const before = readFileSync(f.teamStatePath, 'utf8');
    const outside = team(['dispatch', ...run(f), '--jobs-file', join(f.root, '..', 'jobs.json')], { env: f.env });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/^okstra-team: --jobs-file: '.*jobs\.json' escapes the project root/);

    const escaping = jobsFile(f, 'reverify-jobs-r1-error-analysis-001.json', 'reverify-r1', [
      { ...job(f, 'alpha', 'stub-ok', 'worker-reverify-r1'), resultPath: '../../../../../../../etc/x.md' },
    ]);
    const e = team(['dispatch', ...run(f), '--jobs-file', escaping], { env: f.env });
    expect(e.code).toBe(2);
    expect(e.stderr).toBe(`okstra-team: ${escaping}: jobs[0].resultPath: '../../../../../../../etc/x.md' escapes the project root ${f.root}\n`);

    const good = jobsFile(f, 'reverify-jobs-r2-error-analysis-001.json', 'reverify-r2', [job(f, 'alpha', 'stub-ok', 'worker-reverify-r2')]);
    const mismatch = team(['dispatch', ...run(f), '--jobs-file', good, '--dispatch-kind', 'reverify-r3'], { env: f.env });
    expect(mismatch.stderr).toBe(`okstra-team: ${good}: dispatchKind: --dispatch-kind 'reverify-r3' does not match the file's dispatchKind 'reverify-r2'\n`);
    expect(mismatch.code).toBe(2);

    const writer = jobsFile(f, 'report-writer-jobs-error-analysis-001.json', 'report-writer', [job(f, 'alpha', 'grok', 'report-writer')]);
    const role = team(['dispatch', ...run(f), '--jobs-file', writer], { env: f.env });
    expect(role.code).toBe(2);
    expect(role.stderr).toBe(
      `okstra-team: ${writer}: jobs[0].role: provider 'grok' cannot take role 'report-writer' (needs report-writer; grok is read-only)\n`,
    );

    const evil = jobsFile(f, 'reverify-jobs-r4-error-analysis-001.json', 'reverify-r4', [
      { ...job(f, 'alpha', 'stub-ok', 'worker-reverify-r4'), workerId: "a b';$(touch x)" },
    ]);
    const id = team(['dispatch', ...run(f), '--jobs-file', evil], { env: f.env });
    expect(id.code).toBe(2);
    expect(id.stderr).toMatch(/jobs\[0\]\.workerId: expected a worker id of letters, digits/);

    // a provider manifest inside the project is never loaded
    for (const at of [join(f.root, '.okstra', 'adapters', 'providers', 'evil'), join(f.root, 'adapters', 'providers', 'evil')]) {
      writeJsonFile(join(at, 'provider.json'), {
        schemaVersion: '1.0',
        id: 'evil',
        executable: '/bin/sh',
        argv: ['-c', 'touch pwned'],
        capabilities: ['analysis'],
      });
    }
    const local = jobsFile(f, 'reverify-jobs-r5-error-analysis-001.json', 'reverify-r5', [job(f, 'alpha', 'evil', 'worker-reverify-r5')]);
    const evilProvider = team(['dispatch', ...run(f), '--jobs-file', local], { env: f.env, cwd: f.root });
    expect(evilProvider.code).toBe(2);
    expect(evilProvider.stderr).toBe(
      `okstra-team: ${local}: jobs[0].provider: unknown provider 'evil' (known: antigravity, claude, codex, grok, kimi, stub-fail, stub-hang, stub-noresult, stub-ok, stub-slow)\n`,
    );

    expect(readFileSync(f.teamStatePath, 'utf8')).toBe(before);
    expect(f.manifest().workerDispatches).toEqual([]);
    expect(existsSync(join(f.runDir, 'state', 'team-jobs'))).toBe(false);
  });
});

describe('dispatch environments (real tmux on a private socket)', () => {
  it('inside $TMUX (80x24): 8 workers go into two new okstra windows of the current session; the lead and a foreign pane are left alone', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `w${i + 1}`);
    const f = makeFixture(
      ids.map((id) => ({ id, provider: 'stub-ok' })),
      { socket },
    );
    tmux(socket, ['new-session', '-d', '-s', 'lead', '-x', '80', '-y', '24', '--', 'sleep', '600']);
    const lead = tmux(socket, ['display-message', '-p', '-t', '=lead:', '#{pane_id}\t#{socket_path}\t#{pid}\t#{session_id}']).stdout.trim().split('\t');
    const foreign = tmux(socket, ['split-window', '-d', '-t', lead[0]!, '-P', '-F', '#{pane_id}', '--', 'sleep', '600']).stdout.trim();
    const env: NodeJS.ProcessEnv = { ...f.env, TMUX: `${lead[1]},${lead[2]},${lead[3]!.slice(1)}`, TMUX_PANE: lead[0] };
    delete env.OKSTRA_TMUX_SOCKET;
    const current = () => tmux(socket, ['display-message', '-p', '-t', '=lead:', '#{window_id} #{pane_id} #{pane_width}x#{pane_height}']).stdout;
    const before = current();
    const d = team(['dispatch', ...run(f)], { env });
    expect(d.code).toBe(0);
    expect(current()).toBe(before);
    const records = f.manifest().workerDispatches;
    expect(records.map((r: any) => [r.backend, r.tmuxSession, r.sessionCreated])).toEqual(ids.map(() => ['tmux-pane', 'lead', false]));
    const windowOf = new Map(
      tmux(socket, ['list-panes', '-a', '-F', '#{pane_id} #{window_name}'])
        .stdout.trim()
        .split('\n')
        .map((l) => l.split(' ') as [string, string]),
    );
    const windows = records.map((r: any) => windowOf.get(r.paneId));
    expect(new Set(windows).size).toBe(2);
    expect(windows.filter((w: string | undefined) => w === windows[0])).toHaveLength(6);
    expect(team(['await', ...run(f)], { env }).code).toBe(0);
    const t = team(['teardown', ...run(f), '--json'], { env });
    expect(JSON.parse(t.stdout).closed).toHaveLength(8);
    const left = panes(socket).map((p) => p.id);
    expect(left).toEqual(expect.arrayContaining([lead[0], foreign]));
    expect(left.some((id) => records.some((r: any) => r.paneId === id))).toBe(false);
    expect(tmux(socket, ['has-session', '-t', '=lead']).code).toBe(0);
  });

  it('teardown never closes a recorded pane id that is not tagged for this run', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket });
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    const rec = f.manifest().workerDispatches[0];
    tmux(socket, ['set-option', '-p', '-t', rec.paneId, '@okstra-owner', 'someone-else']);
    const t = team(['teardown', ...run(f), '--json'], { env: f.env });
    expect(JSON.parse(t.stdout)).toMatchObject({ closed: [], skipped: [{ workerId: 'alpha', reason: 'pane is not tagged for this run of this checkout' }] });
    expect(panes(socket).some((p) => p.id === rec.paneId)).toBe(true);
    tmux(socket, ['kill-pane', '-t', rec.paneId]);
  });

  it('tmux missing from PATH: each job degrades to a detached wrapper subprocess, recorded with degradedFrom and the reason', () => {
    const f = makeFixture(
      [
        { id: 'alpha', provider: 'stub-ok' },
        { id: 'beta', provider: 'stub-fail' },
      ],
      { socket },
    );
    const env = { ...f.env, PATH: pathWithoutTmux(dirname(f.root)) };
    const d = team(['dispatch', ...run(f)], { env });
    expect(d.code).toBe(0);
    expect(d.stderr).toContain('alpha: no tmux-pane (tmux not found on PATH); running the wrapper as a detached subprocess');
    const records = f.manifest().workerDispatches;
    expect(records.map((r: any) => [r.workerId, r.backend, r.degradedFrom, r.reason, typeof r.pid])).toEqual([
      ['alpha', 'subprocess', 'tmux-pane', 'tmux not found on PATH', 'number'],
      ['beta', 'subprocess', 'tmux-pane', 'tmux not found on PATH', 'number'],
    ]);
    const a = team(['await', ...run(f), '--json'], { env });
    expect(a.code).toBe(1);
    expect(JSON.parse(a.stdout).workers.map((w: any) => [w.workerId, w.status])).toEqual([
      ['alpha', 'completed'],
      ['beta', 'error'],
    ]);
    expect(JSON.parse(team(['teardown', ...run(f), '--json'], { env }).stdout).closed).toEqual([]);
  });

  it("a project path with spaces, quotes, ';' and '$(…)' reaches the wrapper as argv, never a shell", () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket, rootName: `proj it's "x"; $(touch pwned) ` });
    const d = team(['dispatch', ...run(f)], { env: f.env });
    expect(d.code).toBe(0);
    expect(f.manifest().workerDispatches[0].backend).toBe('tmux-pane');
    expect(team(['await', ...run(f)], { env: f.env }).code).toBe(0);
    expect(readFileSync(f.result('alpha'), 'utf8')).toContain('$(rm -rf /)');
    expect(existsSync(join(dirname(f.root), 'pwned'))).toBe(false);
    expect(existsSync(join(f.root, 'pwned'))).toBe(false);
    team(['teardown', ...run(f)], { env: f.env });
  });

  it('cmux-pane: one exec of the wrapper per split, single-quoted; teardown closes the recorded surfaces', () => {
    const f = makeFixture(
      [
        { id: 'alpha', provider: 'stub-ok' },
        { id: 'beta', provider: 'stub-ok' },
      ],
      { socket, terminalBackend: 'cmux-pane' },
    );
    const cmux = installCmuxStub(dirname(f.root));
    const env = { ...f.env, PATH: `${cmux.binDir}:${f.env.PATH}`, CMUX_SURFACE_ID: 'surface:1', CMUX_WORKSPACE_ID: 'workspace:1' };
    expect(team(['dispatch', ...run(f)], { env }).code).toBe(0);
    const records = f.manifest().workerDispatches;
    expect(records.map((r: any) => [r.backend, r.paneId, r.surfaceId])).toEqual([
      ['cmux-pane', 'pane:2', 'surface:11'],
      ['cmux-pane', 'pane:3', 'surface:12'],
    ]);
    const jobPath = (w: string) => join(f.runDir, 'state', 'team-jobs', `initial-${w}-error-analysis-001.job.json`);
    expect(cmux.calls()).toEqual([
      ['--json', 'new-split', 'right', '--surface', 'surface:1', '--command', `exec '${process.execPath}' '${BIN}' 'exec' '--job' '${jobPath('alpha')}'`],
      ['--json', 'new-split', 'down', '--surface', 'surface:11', '--command', `exec '${process.execPath}' '${BIN}' 'exec' '--job' '${jobPath('beta')}'`],
    ]);
    expect(team(['await', ...run(f)], { env }).code).toBe(0);
    expect(team(['teardown', ...run(f)], { env }).code).toBe(0);
    expect(cmux.calls().slice(2)).toEqual([
      ['close-surface', '--surface', 'surface:11'],
      ['close-surface', '--surface', 'surface:12'],
    ]);
    team(['teardown', ...run(f)], { env });
    expect(cmux.calls()).toHaveLength(4);
  });

  it('cmux-pane with a project path holding spaces, quotes and $(…): typed as single-quoted words, not degraded', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket, terminalBackend: 'cmux-pane', rootName: `my proj it's $(touch pwned) #x;` });
    const cmux = installCmuxStub(dirname(f.root));
    const env = { ...f.env, PATH: `${cmux.binDir}:${f.env.PATH}`, CMUX_SURFACE_ID: 'surface:1' };
    const d = team(['dispatch', ...run(f), '--quiet'], { env }); // --quiet: stderr holds only what went wrong
    expect([d.code, d.stderr]).toEqual([0, '']);
    expect(f.manifest().workerDispatches).toMatchObject([{ backend: 'cmux-pane', degradedFrom: null, surfaceId: 'surface:11' }]);
    const jobPath = join(f.runDir, 'state', 'team-jobs', 'initial-alpha-error-analysis-001.job.json');
    const q = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;
    expect(cmux.calls()[0]).toEqual([
      '--json',
      'new-split',
      'right',
      '--surface',
      'surface:1',
      '--command',
      `exec ${[process.execPath, BIN, 'exec', '--job', jobPath].map(q).join(' ')}`,
    ]);
    expect(team(['await', ...run(f)], { env }).code).toBe(0);
    expect(existsSync(join(f.root, 'pwned'))).toBe(false);
    expect(existsSync(join(dirname(f.root), 'pwned'))).toBe(false);
    expect(team(['teardown', ...run(f)], { env }).code).toBe(0);
  });

  it('two checkouts of one project dispatch the same run: teardown in A (after an interrupted dispatch) never touches B’s pane', async () => {
    const a = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket, rootName: 'copy-a' });
    const b = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket, rootName: 'copy-b', env: { STUB_OK_SLEEP: '0' } });
    // B: dispatched and finished — its pane is closable for B, never for A
    expect(team(['dispatch', ...run(b)], { env: b.env }).code).toBe(0);
    const bPane = b.manifest().workerDispatches[0].paneId;
    await waitFor(() => b.row('alpha').status === 'completed');
    // A: dispatch killed after its pane started, before it recorded workerDispatches
    await killDispatchBeforeRecording(a);
    const owners = tmux(socket, ['list-panes', '-a', '-F', '#{pane_id} #{@okstra-owner} #{@okstra-root}']).stdout;
    expect(owners).toContain(`${bPane} okstra-`);
    const t = team(['teardown', ...run(a), '--json'], { env: a.env });
    expect(t.code).toBe(0);
    const closed = JSON.parse(t.stdout).closed;
    expect(closed).toHaveLength(1);
    expect(closed[0].paneId).not.toBe(bPane);
    expect(panes(socket).some((p) => p.id === bPane)).toBe(true);
    expect(JSON.parse(team(['teardown', ...run(b), '--json'], { env: b.env }).stdout).closed).toMatchObject([{ paneId: bPane }]);
  });

  it('cmux-pane with no cmux on PATH: the job degrades to a subprocess and still completes', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket, terminalBackend: 'cmux-pane' });
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    expect(f.manifest().workerDispatches).toMatchObject([
      { workerId: 'alpha', backend: 'subprocess', degradedFrom: 'cmux-pane', reason: 'cmux not found on PATH' },
    ]);
    expect(team(['await', ...run(f)], { env: f.env }).code).toBe(0);
  });
});

describe('SIGKILL mid-way: a rerun of await picks up from the artifacts', () => {
  // The dispatch's step trace seam (OKSTRA_STEP_KILL_AT, docs/environment.md): 2 = its `starting`
  // records written, 3 = its rows set in-progress — both before any pane starts.
  it.each([
    ['after its starting records', 2],
    ['after its rows, before any pane', 3],
  ])('dispatch killed %s launched nothing: a second dispatch starts each worker once, replacing its record', (_, step) => {
    const f = makeFixture(
      [
        { id: 'alpha', provider: 'stub-ok' },
        { id: 'beta', provider: 'stub-ok' },
      ],
      { socket },
    );
    const killed = team(['dispatch', ...run(f)], { env: { ...f.env, OKSTRA_STEP_KILL_AT: String(step) } });
    expect(killed.code).toBe(128);
    expect(f.manifest().workerDispatches.map((r: any) => [r.workerId, r.phase])).toEqual([
      ['alpha', 'starting'],
      ['beta', 'starting'],
    ]);
    expect(panes(socket).filter((p) => p.tag === 'sample:payments:refund-timeout/error-analysis-001')).toEqual([]);
    const again = team(['dispatch', ...run(f), '--quiet'], { env: f.env });
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(f.manifest().workerDispatches.map((r: any) => [r.workerId, r.phase ?? 'started'])).toEqual([
      ['alpha', 'started'],
      ['beta', 'started'],
    ]);
    const a = team(['await', ...run(f), '--json'], { env: f.env });
    expect(JSON.parse(a.stdout).workers.map((w: any) => [w.workerId, w.status, w.attempt])).toEqual([
      ['alpha', 'completed', 1],
      ['beta', 'completed', 1],
    ]);
    team(['teardown', ...run(f)], { env: f.env });
  });

  it('await killed while a worker runs; the rerun reports it and nothing is dispatched twice', async () => {
    const f = makeFixture([{ id: 'slow', provider: 'stub-slow' }], { socket });
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    const child = spawn(process.execPath, [BIN, 'await', ...run(f)], { env: f.env, stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 600));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(f.row('slow')).toMatchObject({ status: 'in-progress', attempt: 1 });
    const a = team(['await', ...run(f), '--json'], { env: f.env });
    expect(a.stdout + a.stderr).toContain('"status": "completed"');
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).workers).toMatchObject([{ workerId: 'slow', status: 'completed', attempt: 1 }]);
    expect(f.manifest().workerDispatches).toHaveLength(1);
    team(['teardown', ...run(f)], { env: f.env });
  });

  it('dispatch killed before it recorded workerDispatches: await still judges the rows it set in-progress', async () => {
    const f = makeFixture(
      [
        { id: 'alpha', provider: 'stub-ok' },
        { id: 'beta', provider: 'stub-fail' },
      ],
      { socket },
    );
    await killDispatchBeforeRecording(f);
    const before = f.manifest().workerDispatches;
    expect(before.map((r: any) => [r.workerId, r.phase])).toEqual([
      ['alpha', 'starting'],
      ['beta', 'starting'],
    ]);
    // While a row is still in-progress for that `starting` record, a second dispatch would run two copies: refused, nothing written.
    const state = readFileSync(f.teamStatePath, 'utf8');
    const rows = JSON.parse(state);
    Object.assign(rows.workers[0], { status: 'in-progress', endedAt: null, reason: null });
    writeJsonFile(f.teamStatePath, rows);
    const again = team(['dispatch', ...run(f)], { env: f.env });
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining("worker 'alpha' may still run from a dispatch at")]);
    expect(f.manifest().workerDispatches).toEqual(before);
    writeFileSync(f.teamStatePath, state);
    const a = team(['await', ...run(f), '--json'], { env: f.env });
    expect(JSON.parse(a.stdout).workers.map((w: any) => [w.workerId, w.status, w.attempt])).toEqual([
      ['alpha', 'completed', 1],
      ['beta', 'error', 1],
    ]);
    expect(a.code).toBe(1);
    expect(f.manifest().workerDispatches).toEqual(before);
    // teardown adopts the two tagged panes through their job files, records and closes them; the second is a no-op
    const t = team(['teardown', ...run(f), '--json'], { env: f.env });
    expect(JSON.parse(t.stdout).closed.map((c: any) => c.workerId)).toEqual(['alpha', 'beta']);
    expect(panes(socket).filter((x) => x.tag === 'sample:payments:refund-timeout/error-analysis-001')).toEqual([]);
    // The adopted records take the `starting` records' places: one record per dispatch, as if it had recorded them.
    expect(f.manifest().workerDispatches.map((r: any) => [r.workerId, r.backend, r.phase ?? 'started', Boolean(r.tornDownAt)])).toEqual([
      ['alpha', 'tmux-pane', 'started', true],
      ['beta', 'tmux-pane', 'started', true],
    ]);
    expect(JSON.parse(team(['teardown', ...run(f), '--json'], { env: f.env }).stdout).closed).toEqual([]);
  });
});
