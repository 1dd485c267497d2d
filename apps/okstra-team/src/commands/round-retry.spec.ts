// issue 14: await answers for the round just dispatched; retry accounting across dispatch kinds (real tmux, real bins).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { team } from '../test-support/bin.js';
import { awaitJson, jobEntry, makeFixture, privateServer, runArgs as run, writeJobsFile, type Fixture } from '../test-support/fixture.js';

const socket = privateServer();

function jobsFile(f: Fixture, dispatchKind: string, jobs: Array<[string, string, string]>): string {
  const entries = jobs.map(([workerId, provider, role]) => jobEntry(f, workerId, provider, role));
  return writeJobsFile(f, `${dispatchKind}-jobs-error-analysis-001.json`, dispatchKind, entries);
}
const dispatch = (f: Fixture, file: string) => team(['dispatch', ...run(f), '--jobs-file', file], { env: f.env });

describe('await judges the round just dispatched', () => {
  it('after a reverify round in which every worker completed, await exits 0 although an earlier initial dispatch timed out', () => {
    const f = makeFixture(
      [
        { id: 'alpha', provider: 'stub-ok' },
        { id: 'beta', provider: 'stub-hang' },
      ],
      { socket },
    );
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    const initial = awaitJson(f, ['--deadline', '0.03']);
    expect(initial.code).toBe(1);
    expect(initial.doc.workers.map((w: any) => [w.workerId, w.status])).toEqual([
      ['alpha', 'completed'],
      ['beta', 'timeout'],
    ]);
    expect(dispatch(f, jobsFile(f, 'reverify-r1', [['alpha', 'stub-ok', 'worker-reverify-r1']])).code).toBe(0);
    const a = awaitJson(f);
    expect(a.code).toBe(0);
    expect(a.doc).toMatchObject({ allCompleted: true, round: 'reverify-r1', notJudged: [{ workerId: 'beta', dispatchKind: 'initial' }] });
    expect(a.doc.dispatch).toEqual([expect.stringMatching(/^alpha=completed:\d+$/)]);
    const reverify = f.manifest().workerDispatches.at(-1);
    expect(a.doc.judged).toEqual([{ workerId: 'alpha', dispatchKind: 'reverify-r1', startedAt: reverify.startedAt, jobPath: reverify.jobPath }]);
    // --dispatch-kind names the round: the initial one still has beta's timeout
    const old = awaitJson(f, ['--dispatch-kind', 'initial']);
    expect(old.code).toBe(1);
    expect(old.doc.judged.map((j: any) => [j.workerId, j.dispatchKind])).toEqual([['beta', 'initial']]);
    expect(old.doc.workers[0]).toMatchObject({ workerId: 'beta', status: 'timeout' });
    const none = team(['await', ...run(f), '--dispatch-kind', 'reverify-r9'], { env: f.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("okstra-team: --dispatch-kind: no worker's newest dispatch is of kind 'reverify-r9' (newest: alpha=reverify-r1, beta=initial)\n");
    expect(team(['teardown', ...run(f), '--force'], { env: f.env }).code).toBe(0);
  });
});

describe('retry accounting: one retry per worker per run, across every dispatch kind', () => {
  it('initial fails (retryable), initial-retry fails (not retryable); a third dispatch of any kind is refused', () => {
    const f = makeFixture(
      [
        { id: 'alpha', provider: 'stub-ok' },
        { id: 'beta', provider: 'stub-fail' },
      ],
      { socket },
    );
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    const first = awaitJson(f);
    expect(first.doc.workers.find((w: any) => w.workerId === 'beta')).toMatchObject({ status: 'error', attempt: 1, retryable: true });
    expect(f.row('beta')).toMatchObject({ failures: 1 });
    // a retry of a worker that completed is refused
    const noRetry = dispatch(f, jobsFile(f, 'initial-retry', [['alpha', 'stub-ok', 'analyser']]));
    expect(noRetry.code).toBe(2);
    expect(noRetry.stderr).toMatch(/jobs\[0\]\.workerId: 'initial-retry' is a retry, but worker 'alpha' has no failed dispatch to retry \(status completed\)/);
    // the retry: a fresh jobs file with dispatchKind initial-retry
    expect(dispatch(f, jobsFile(f, 'initial-retry', [['beta', 'stub-fail', 'analyser']])).code).toBe(0);
    const second = awaitJson(f);
    expect(second.code).toBe(1);
    expect(second.doc.round).toBe('initial');
    expect(second.doc.judged.map((j: any) => [j.workerId, j.dispatchKind])).toEqual([
      ['alpha', 'initial'],
      ['beta', 'initial-retry'],
    ]);
    expect(second.doc.workers.find((w: any) => w.workerId === 'beta')).toMatchObject({ status: 'error', attempt: 2, retryable: false });
    expect(f.row('beta')).toMatchObject({ failures: 2, dispatchKind: 'initial-retry' });
    for (const kind of ['initial-retry', 'reverify-r1']) {
      const again = dispatch(f, jobsFile(f, kind, [['beta', 'stub-fail', kind === 'reverify-r1' ? 'worker-reverify-r1' : 'analyser']]));
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/jobs\[0\]\.workerId: worker 'beta' is out of the run: it failed 2 times \(one retry per worker per run\)\n$/);
    }
    team(['teardown', ...run(f)], { env: f.env });
  });

  it('a failure in the initial round and one in reverify-r1: the second is never retryable', () => {
    const f = makeFixture([{ id: 'gamma', provider: 'stub-fail' }], { socket });
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    expect(awaitJson(f).doc.workers[0]).toMatchObject({ status: 'error', retryable: true });
    expect(dispatch(f, jobsFile(f, 'reverify-r1', [['gamma', 'stub-fail', 'worker-reverify-r1']])).code).toBe(0);
    const a = awaitJson(f);
    expect(a.doc.workers[0]).toMatchObject({ workerId: 'gamma', dispatchKind: 'reverify-r1', status: 'error', attempt: 2, retryable: false });
    expect(f.row('gamma').failures).toBe(2);
    team(['teardown', ...run(f)], { env: f.env });
  });
});

describe('a repair dispatch (repair-<kind>) is judged in the round of <kind> (issue #25 item 4)', () => {
  it('await after a repair of one worker judges the whole round, dispatch[] has every worker; failures stay 0; the refused answer is kept aside', () => {
    const f = makeFixture(
      [
        { id: 'alpha', provider: 'stub-ok' },
        { id: 'beta', provider: 'stub-ok' },
      ],
      { socket },
    );
    const round = [
      ['alpha', 'stub-ok', 'worker-reverify-r1'],
      ['beta', 'stub-ok', 'worker-reverify-r1'],
    ] as Array<[string, string, string]>;
    expect(dispatch(f, jobsFile(f, 'reverify-r1', round)).code).toBe(0);
    expect(awaitJson(f).code).toBe(0);
    const refused = readFileSync(f.result('beta'), 'utf8');
    expect(dispatch(f, jobsFile(f, 'repair-reverify-r1', [round[1]!])).code).toBe(0);
    for (const extra of [[], ['--dispatch-kind', 'reverify-r1']]) {
      const a = awaitJson(f, extra);
      expect(a.code, a.stderr).toBe(0);
      expect(a.doc).toMatchObject({ allCompleted: true, round: 'reverify-r1', notJudged: [] });
      expect(a.doc.judged.map((j: any) => [j.workerId, j.dispatchKind])).toEqual([
        ['alpha', 'reverify-r1'],
        ['beta', 'repair-reverify-r1'],
      ]);
      expect(a.doc.dispatch).toEqual([expect.stringMatching(/^alpha=completed:\d+$/), expect.stringMatching(/^beta=completed:\d+$/)]);
    }
    const only = awaitJson(f, ['--dispatch-kind', 'repair-reverify-r1']);
    expect(only.doc.judged.map((j: any) => j.workerId)).toEqual(['beta']);
    expect([f.row('alpha').failures, f.row('beta').failures]).toEqual([0, 0]);
    expect(f.row('beta')).toMatchObject({ dispatchKind: 'repair-reverify-r1', status: 'completed', attempt: 2 });
    expect(readFileSync(`${f.result('beta')}.attempt-1`, 'utf8')).toBe(refused);
    const second = dispatch(f, jobsFile(f, 'repair-reverify-r1', [round[1]!]));
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/jobs\[0\]\.workerId: worker 'beta' already had its repair 'repair-reverify-r1' \(one repair per worker per dispatch\)\n$/);
    team(['teardown', ...run(f), '--force'], { env: f.env });
  });
});
