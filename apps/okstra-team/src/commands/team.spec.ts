import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { team } from '../test-support/bin.js';
import { isGroupAlive } from '@okstra/team-run';
import { awaitJson, makeFixture, panes, privateServer, runArgs as run, snapshotTexts as snapshot, tmux, waitFor } from '../test-support/fixture.js';

const socket = privateServer();
/** True while process group `pgid` has a member that is not a zombie (the backend's own /proc check). */
const groupAlive = (pgid: number) => isGroupAlive(pgid, null);

describe('okstra-team dispatch / await / teardown in a detached tmux session (real tmux, real bins)', () => {
  it('--dry-run prints the plan and changes nothing', () => {
    const f = makeFixture(
      [
        { id: 'alpha', provider: 'stub-ok' },
        { id: 'beta', provider: 'stub-fail' },
      ],
      { socket },
    );
    const before = snapshot(f.root);
    const r = team(['dispatch', ...run(f), '--dry-run'], { env: f.env });
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ dryRun: true, dispatchKind: 'initial', backend: 'tmux-pane' });
    expect(plan.jobs.map((j: any) => [j.workerId, j.provider, j.providerSource, j.title])).toEqual([
      ['alpha', 'stub-ok', 'user', 'analyser'],
      ['beta', 'stub-fail', 'user', 'analyser'],
    ]);
    expect(plan.jobs[0].command).toEqual([join(f.home, '.okstra/adapters/providers/stub-ok/run.sh'), 'stub-model', f.result('alpha')]);
    expect(snapshot(f.root)).toEqual(before);
    expect(panes(socket)).toEqual([]);
  });

  it("a run's first dispatch creates its team-state when the file does not exist yet", () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket });
    rmSync(f.teamStatePath);
    expect(team(['dispatch', ...run(f), '--dry-run'], { env: f.env }).code).toBe(0);
    expect(existsSync(f.teamStatePath)).toBe(false);
    const d = team(['dispatch', ...run(f)], { env: f.env });
    expect(d.stderr).toBe('okstra-team: alpha started\n');
    expect(d.code).toBe(0);
    const state = JSON.parse(readFileSync(f.teamStatePath, 'utf8'));
    expect(state).toMatchObject({ schemaVersion: '1.0', taskKey: 'sample:payments:refund-timeout', taskType: 'error-analysis', seq: '001' });
    expect(state.workers.map((w: any) => [w.workerId, w.dispatchKind, w.attempt])).toEqual([['alpha', 'initial', 1]]);
    expect(awaitJson(f).doc.workers[0]).toMatchObject({ workerId: 'alpha', status: 'completed' });
    team(['teardown', ...run(f)], { env: f.env });
  });

  it('ok / fail / no-result workers: panes tagged and titled, await reports each, teardown closes them once', async () => {
    const f = makeFixture(
      [
        { id: 'alpha', provider: 'stub-ok' },
        { id: 'beta', provider: 'stub-fail' },
        { id: 'gamma', provider: 'stub-noresult' },
      ],
      { socket },
    );
    const d = team(['dispatch', ...run(f)], { env: f.env });
    expect(d.stderr).toBe('okstra-team: alpha started\nokstra-team: beta started\nokstra-team: gamma started\n');
    expect(d.code).toBe(0);
    const records = f.manifest().workerDispatches;
    expect(records.map((r: any) => [r.workerId, r.backend, r.dispatchKind, r.degradedFrom])).toEqual([
      ['alpha', 'tmux-pane', 'initial', null],
      ['beta', 'tmux-pane', 'initial', null],
      ['gamma', 'tmux-pane', 'initial', null],
    ]);
    expect(f.row('alpha')).toMatchObject({
      status: expect.stringMatching(/in-progress|completed/),
      attempt: 1,
      startedAt: records[0].startedAt,
      livenessMode: 'audit-heartbeat',
    });
    const mine = panes(socket).filter((p) => records.some((r: any) => r.paneId === p.id));
    expect(mine).toHaveLength(3);
    for (const p of mine) expect(p).toMatchObject({ tag: 'sample:payments:refund-timeout/error-analysis-001', title: 'analyser', remain: 'on' });

    const a = awaitJson(f);
    expect(a.code).toBe(1);
    expect(a.doc.allCompleted).toBe(false);
    const byId = Object.fromEntries(a.doc.workers.map((w: any) => [w.workerId, w]));
    expect(byId.alpha).toMatchObject({ status: 'completed', reason: null, retryable: false, attempt: 1 });
    expect(byId.beta).toMatchObject({ status: 'error', reason: 'exit 1: stub-fail: authentication required', retryable: true });
    expect(byId.gamma.status).toBe('error');
    expect(byId.gamma.reason).toMatch(/^exit 0 but result missing: .*gamma-error-analysis-001\.md$/);
    expect(a.doc.dispatch).toEqual(a.doc.workers.map((w: any) => `${w.workerId}=${w.status}:${w.durationMs}`));
    expect(f.row('beta')).toMatchObject({ status: 'error', reason: 'exit 1: stub-fail: authentication required' });
    const status = JSON.parse(readFileSync(f.prompt('beta').replace(/\.md$/, '.status.json'), 'utf8'));
    expect(status).toMatchObject({ status: 'error', exitCode: 1, signal: null, workerId: 'beta' });
    expect(readFileSync(f.prompt('alpha').replace(/\.md$/, '.log'), 'utf8')).toBe('stub-ok: model stub-model\n');
    expect(readFileSync(f.result('alpha'), 'utf8')).toContain('# prompt for alpha');
    // the panes stay readable after their process ended (tmux marks a pane dead a moment after its process exits)
    await waitFor(() =>
      panes(socket)
        .filter((p) => mine.some((m) => m.id === p.id))
        .every((p) => p.dead),
    );
    expect(
      panes(socket)
        .filter((p) => mine.some((m) => m.id === p.id))
        .every((p) => p.dead),
    ).toBe(true);

    const dry = team(['teardown', ...run(f), '--dry-run', '--json'], { env: f.env });
    expect(JSON.parse(dry.stdout).closed).toHaveLength(3);
    expect(panes(socket).filter((p) => mine.some((m) => m.id === p.id))).toHaveLength(3);
    const t = team(['teardown', ...run(f), '--json'], { env: f.env });
    expect(t.code).toBe(0);
    expect(JSON.parse(t.stdout).closed.map((c: any) => c.workerId)).toEqual(['alpha', 'beta', 'gamma']);
    expect(panes(socket).filter((p) => mine.some((m) => m.id === p.id))).toEqual([]);
    expect(tmux(socket, ['has-session', '-t', `=${records[0].tmuxSession}`]).code).not.toBe(0);
    const again = team(['teardown', ...run(f), '--json'], { env: f.env });
    expect(JSON.parse(again.stdout)).toEqual({ closed: [], dryRun: false, running: [], skipped: [] });
    // without --json, a dry run with nothing to close says so on stdout (it printed nothing)
    expect(team(['teardown', ...run(f), '--dry-run'], { env: f.env })).toMatchObject({ code: 0, stdout: 'nothing would be closed\n', stderr: '' });
  });

  it('12 workers (more than an 80x24 window holds) all get panes and complete', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `w${String(i + 1).padStart(2, '0')}`);
    const f = makeFixture(
      ids.map((id) => ({ id, provider: 'stub-ok' })),
      { socket },
    );
    const d = team(['dispatch', ...run(f)], { env: f.env });
    expect(d.code).toBe(0);
    const records = f.manifest().workerDispatches;
    expect(records.filter((r: any) => r.backend === 'tmux-pane')).toHaveLength(12);
    expect(new Set(records.map((r: any) => r.paneId)).size).toBe(12);
    const mine = panes(socket).filter((p) => records.some((r: any) => r.paneId === p.id));
    expect(mine.map((p) => [p.tag, p.title, p.session])).toEqual(
      ids.map(() => ['sample:payments:refund-timeout/error-analysis-001', 'analyser', records[0].tmuxSession]),
    );
    const a = awaitJson(f);
    expect(a.code).toBe(0);
    expect(a.doc.workers.map((w: any) => w.status)).toEqual(ids.map(() => 'completed'));
    team(['teardown', ...run(f)], { env: f.env });
    expect(panes(socket).filter((p) => records.some((r: any) => r.paneId === p.id))).toEqual([]);
  });

  it('a hanging worker times out at --deadline and is retryable; await never re-dispatches', () => {
    const f = makeFixture([{ id: 'slow', provider: 'stub-hang' }], { socket });
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    const a = awaitJson(f, ['--deadline', '0.02']);
    expect(a.code).toBe(1);
    expect(a.doc.workers[0]).toMatchObject({ workerId: 'slow', status: 'timeout', reason: 'deadline of 0.02 min exceeded', retryable: true, attempt: 1 });
    expect(f.row('slow')).toMatchObject({ status: 'timeout', attempt: 1 });
    expect(f.manifest().workerDispatches).toHaveLength(1);
    // timed out by await, but its wrapper and provider still run: a round-boundary teardown leaves it alone (exit 1)
    const rec = f.manifest().workerDispatches[0];
    const t = team(['teardown', ...run(f), '--json'], { env: f.env });
    expect(t.code).toBe(1);
    expect(t.stderr).toBe('okstra-team: left 1 running worker(s) alone: slow (--force stops them)\n');
    expect(JSON.parse(t.stdout)).toMatchObject({ closed: [], running: [{ workerId: 'slow', paneId: rec.paneId }] });
    expect(JSON.parse(t.stdout).running[0].running).toMatch(/^its pane %\d+ still runs the wrapper; its provider process group \d+ is alive$/);
    expect(panes(socket).find((p) => p.id === rec.paneId)?.dead).toBe(false);
    const pgid = f.row('slow').providerPgid;
    expect(groupAlive(pgid)).toBe(true);
    // --force stops it; the row was terminal already, so it keeps its timeout
    const forced = team(['teardown', ...run(f), '--json', '--force'], { env: f.env });
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout).closed).toMatchObject([{ workerId: 'slow', paneId: rec.paneId }]);
    expect(panes(socket).some((p) => p.id === rec.paneId)).toBe(false);
    expect(groupAlive(pgid)).toBe(false);
    expect(f.row('slow')).toMatchObject({ status: 'timeout', reason: 'deadline of 0.02 min exceeded' });
  });

  it('teardown --force on a worker still in progress: stopped, its row error "torn down while running" (not SIGHUP)', async () => {
    const f = makeFixture([{ id: 'busy', provider: 'stub-hang' }], { socket });
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    await waitFor(() => Boolean(f.row('busy').providerPgid));
    const pgid = f.row('busy').providerPgid;
    const plain = team(['teardown', ...run(f), '--json'], { env: f.env });
    expect(plain.code).toBe(1);
    expect(f.row('busy')).toMatchObject({ status: 'in-progress' });
    const forced = team(['teardown', ...run(f), '--force'], { env: f.env });
    expect(forced.code).toBe(0);
    expect(groupAlive(pgid)).toBe(false);
    await new Promise((r) => setTimeout(r, 300)); // the wrapper's own late report must not win
    expect(f.row('busy')).toMatchObject({ status: 'error', reason: 'torn down while running' });
    expect(JSON.parse(team(['teardown', ...run(f), '--json'], { env: f.env }).stdout)).toEqual({ closed: [], dryRun: false, running: [], skipped: [] });
  });

  it('a completed worker whose pane (and its output) was lost is still completed', async () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket });
    team(['dispatch', ...run(f)], { env: f.env });
    const rec = f.manifest().workerDispatches[0];
    const statusPath = f.prompt('alpha').replace(/\.md$/, '.status.json');
    while (!existsSync(statusPath)) await new Promise((r) => setTimeout(r, 50));
    tmux(socket, ['kill-pane', '-t', rec.paneId]);
    const a = awaitJson(f);
    expect(a.code).toBe(0);
    expect(a.doc.workers[0]).toMatchObject({ workerId: 'alpha', status: 'completed' });
    expect(JSON.parse(team(['teardown', ...run(f), '--json'], { env: f.env }).stdout)).toMatchObject({
      closed: [],
      skipped: [{ reason: 'pane already gone' }],
    });
  });

  it('a pane killed before its wrapper wrote a status ends as error at once', async () => {
    const f = makeFixture([{ id: 'victim', provider: 'stub-hang' }], { socket });
    team(['dispatch', ...run(f)], { env: f.env });
    const rec = f.manifest().workerDispatches[0];
    await waitFor(() => Boolean(f.row('victim').providerPgid));
    // remain-on-exit keeps the pane; SIGKILL of the wrapper leaves it dead without a status sidecar
    const pid = tmux(socket, ['display-message', '-p', '-t', rec.paneId, '#{pane_pid}']).stdout.trim();
    process.kill(Number(pid), 'SIGKILL');
    const a = awaitJson(f);
    expect(a.code).toBe(1);
    expect(a.doc.workers[0].status).toBe('error');
    // tmux may report the pane dead before it has reaped the wrapper: the signal is then not known yet.
    expect(a.doc.workers[0].reason).toMatch(new RegExp(`^pane ${rec.paneId} exited( \\(signal 9\\))? without writing a status sidecar$`));
    expect(existsSync(f.prompt('victim').replace(/\.md$/, '.status.json'))).toBe(false);
    // the wrapper is gone but its provider's own process group lives on: an orphan, which a plain teardown stops (docs/team.md)
    const pgid = f.row('victim').providerPgid;
    expect(pgid).toBeGreaterThan(1);
    expect(groupAlive(pgid)).toBe(true);
    const dry = team(['teardown', ...run(f), '--dry-run'], { env: f.env });
    expect(dry).toMatchObject({ code: 0, stdout: `would close\tvictim\ttmux-pane\t${rec.paneId}\tits provider process group ${pgid} outlived its wrapper\n` });
    expect(groupAlive(pgid)).toBe(true);
    const t = team(['teardown', ...run(f), '--json'], { env: f.env });
    expect(t.code).toBe(0);
    expect(JSON.parse(t.stdout)).toMatchObject({
      closed: [{ workerId: 'victim', paneId: rec.paneId, orphan: `its provider process group ${pgid} outlived its wrapper` }],
      running: [],
    });
    expect(groupAlive(pgid)).toBe(false);
    expect(panes(socket).some((p) => p.id === rec.paneId)).toBe(false);
    expect(f.row('victim').status).toBe('error');
    expect(JSON.parse(team(['teardown', ...run(f), '--json'], { env: f.env }).stdout)).toEqual({ closed: [], dryRun: false, running: [], skipped: [] });
  });
});
