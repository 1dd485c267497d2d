import { describe, expect, it } from 'vitest';
import type { WorkerDispatch } from '@okstra/schemas/run-manifest';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { ownerTag, planTeardown, type TeardownPane, type TeardownProbe } from './teardown-policy.js';

const OWNER = ownerTag('/work/copy-a', 'p:g:t/error-analysis-001');
const T0 = '2026-11-29T08:00:00.000Z';
const rec = (workerId: string, over: Partial<WorkerDispatch> = {}): WorkerDispatch =>
  ({ dispatchKind: 'initial', workerId, backend: 'tmux-pane', paneId: `%${workerId}`, tmuxSocket: '/s', startedAt: T0, ...over }) as WorkerDispatch;
const row = (workerId: string, over: Partial<TeamStateRow> = {}): TeamStateRow =>
  ({ workerId, provider: 'claude', role: 'analyser', status: 'completed', attempt: 1, startedAt: T0, ...over }) as TeamStateRow;
const pane = (id: string, over: Partial<TeardownPane> = {}): TeardownPane => ({
  paneId: id,
  dead: true,
  owner: OWNER,
  job: '',
  started: T0,
  sessionName: 's',
  ...over,
});

/** A fake machine: panes per socket, live pids and live groups. */
function probe(panes: Record<string, TeardownPane[]>, alive: { pids?: number[]; groups?: number[] } = {}): TeardownProbe & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async listPanes(socket) {
      asked.push(`list ${socket}`);
      return panes[socket ?? ''] ?? null;
    },
    async defaultSocket() {
      return '/default';
    },
    processAlive: (pid) => (alive.pids ?? []).includes(pid),
    groupAlive: (pgid) => (alive.groups ?? []).includes(pgid),
  };
}
const ids = (items: Array<{ record: WorkerDispatch }>) => items.map((i) => i.record.workerId);

describe('planTeardown: ownership, running workers, force (docs/team.md "teardown")', () => {
  it('the owner tag names the project root realpath and the run', () => {
    expect(ownerTag('/work/copy-a', 'p:g:t/error-analysis-001')).toMatch(/^okstra-[0-9a-f]{20}$/);
    expect(ownerTag('/work/copy-b', 'p:g:t/error-analysis-001')).not.toBe(OWNER);
    expect(ownerTag('/work/copy-a', 'p:g:t/error-analysis-002')).not.toBe(OWNER);
  });

  it('finished panes of this owner close; other owners’ panes are skipped; gone panes are done', async () => {
    const plan = await planTeardown(
      {
        owner: OWNER,
        records: [rec('a'), rec('b'), rec('c'), rec('d', { tornDownAt: T0 })],
        unrecorded: [],
        rows: [row('a'), row('b'), row('c')],
        force: false,
      },
      probe({ '/s': [pane('%a'), pane('%b', { owner: 'okstra-someone-else' }), pane('%d')] }),
    );
    expect(ids(plan.act)).toEqual(['a']);
    expect(plan.act[0]).toMatchObject({ pane: '%a', running: null, killGroup: null, markRow: null });
    expect(plan.skipped.map((s) => [s.record.workerId, s.reason, s.done])).toEqual([
      ['b', 'pane is not tagged for this run of this checkout', false],
      ['c', 'pane already gone', true],
    ]);
    expect(plan.running).toEqual([]);
  });

  it('a live pane, a live wrapper or a live provider group is running — whatever the row says — and left alone without force', async () => {
    const rows = [
      row('live', { status: 'timeout' }),
      row('group', { status: 'error', providerPgid: 700, providerPidStartTime: '9' }),
      row('cmux', { status: 'in-progress', wrapperPid: 800 }),
    ];
    // `group`: its pane is gone and no wrapper pid was recorded, so nothing says its wrapper died
    const records = [rec('live'), rec('group'), rec('cmux', { backend: 'cmux-pane', paneId: 'pane:2', surfaceId: 'surface:3' })];
    const machine = probe({ '/s': [pane('%live', { dead: false })] }, { pids: [800], groups: [700] });
    const plan = await planTeardown({ owner: OWNER, records, unrecorded: [], rows, force: false }, machine);
    expect(plan.act).toEqual([]);
    expect(plan.running.map((i) => [i.record.workerId, i.running])).toEqual([
      ['live', 'its pane %live still runs the wrapper'],
      ['group', 'its provider process group 700 is alive'],
      ['cmux', 'its wrapper process 800 is alive'],
    ]);
  });

  it('a provider group that outlived its wrapper (dead pane, dead recorded wrapper or subprocess pid) is an orphan: stopped without force, row untouched', async () => {
    const rows = [
      row('dead-pane', { status: 'error', providerPgid: 710 }),
      row('gone-pane', { status: 'in-progress', wrapperPid: 811, providerPgid: 711 }),
      row('sub', { status: 'in-progress', providerPgid: 712 }),
      row('cmux', { status: 'in-progress', wrapperPid: 813, providerPgid: 713 }),
    ];
    const records = [
      rec('dead-pane'),
      rec('gone-pane'),
      rec('sub', { backend: 'subprocess', paneId: null, pid: 812 }),
      rec('cmux', { backend: 'cmux-pane', paneId: 'pane:4', surfaceId: 'surface:5' }),
    ];
    const machine = probe({ '/s': [pane('%dead-pane')] }, { groups: [710, 711, 712, 713] });
    const plan = await planTeardown({ owner: OWNER, records, unrecorded: [], rows, force: false }, machine);
    expect(plan.running).toEqual([]);
    expect(plan.act.map((i) => [i.record.workerId, i.pane, i.killGroup?.pid ?? null, i.orphan, i.markRow])).toEqual([
      ['dead-pane', '%dead-pane', 710, 'its provider process group 710 outlived its wrapper', null],
      ['gone-pane', null, 711, 'its provider process group 711 outlived its wrapper', null],
      ['sub', null, 712, 'its provider process group 712 outlived its wrapper', null],
      ['cmux', 'surface:5', 713, 'its provider process group 713 outlived its wrapper', null],
    ]);
    // while the wrapper lives, its group is part of a running worker
    const live = await planTeardown(
      { owner: OWNER, records, unrecorded: [], rows, force: false },
      probe({ '/s': [pane('%dead-pane')] }, { pids: [811, 812, 813], groups: [711, 712, 713] }),
    );
    expect(live.running.map((i) => i.record.workerId)).toEqual(['gone-pane', 'sub', 'cmux']);
    expect(live.running.every((i) => i.orphan === null && /provider process group 71\d is alive$/.test(i.running!))).toBe(true);
  });

  it('--force stops them: pane, wrapper and group; only a non-terminal row is marked', async () => {
    const rows = [row('live', { status: 'timeout' }), row('busy', { status: 'in-progress', providerPgid: 701 })];
    const plan = await planTeardown(
      { owner: OWNER, records: [rec('live'), rec('busy')], unrecorded: [], rows, force: true },
      probe({ '/s': [pane('%live', { dead: false }), pane('%busy', { dead: false })] }, { groups: [701] }),
    );
    expect(plan.running).toEqual([]);
    expect(plan.act.map((i) => [i.record.workerId, i.pane, i.killGroup?.pid ?? null, i.markRow])).toEqual([
      ['live', '%live', null, null],
      ['busy', '%busy', 701, T0],
    ]);
  });

  it('a row’s recorded processes count only for the dispatch whose startedAt is the row’s', async () => {
    const older = rec('w', { startedAt: '2026-11-29T07:00:00.000Z', paneId: '%old' });
    const plan = await planTeardown(
      { owner: OWNER, records: [older], unrecorded: [], rows: [row('w', { status: 'in-progress', providerPgid: 702 })], force: false },
      probe({ '/s': [pane('%old')] }, { groups: [702] }),
    );
    expect(ids(plan.act)).toEqual(['w']);
  });

  it('adoption of an unrecorded dispatch needs owner, job file name and startedAt to match', async () => {
    const u = rec('x', { backend: 'subprocess', paneId: null, jobPath: 'r/state/team-jobs/initial-x-error-analysis-001.job.json' });
    const job = 'initial-x-error-analysis-001.job.json';
    const plan = await planTeardown(
      { owner: OWNER, records: [], unrecorded: [u], rows: [row('x')], force: false },
      probe({
        '': [
          pane('%mine', { job }),
          pane('%other-copy', { job, owner: ownerTag('/work/copy-b', 'p:g:t/error-analysis-001') }),
          pane('%older', { job, started: '2026-11-29T07:00:00.000Z' }),
          pane('%other-job', { job: 'initial-y-error-analysis-001.job.json' }),
        ],
      }),
    );
    expect(plan.act.map((i) => [i.record.paneId, i.adopted, i.record.tmuxSocket, i.record.backend])).toEqual([['%mine', true, '/default', 'tmux-pane']]);
  });

  it('a degraded subprocess that still runs is reported; finished, it is not listed', async () => {
    const plan = await planTeardown(
      {
        owner: OWNER,
        records: [
          rec('s1', { backend: 'subprocess', paneId: null, pid: 900, pidStartTime: '5' }),
          rec('s2', { backend: 'subprocess', paneId: null, pid: 901 }),
        ],
        unrecorded: [],
        rows: [row('s1'), row('s2')],
        force: false,
      },
      probe({}, { pids: [900] }),
    );
    expect(plan.running.map((i) => [i.record.workerId, i.running])).toEqual([['s1', 'its wrapper process 900 is alive']]);
    expect(plan.act).toEqual([]);
    expect(plan.skipped).toEqual([]);
  });
});
