import { describe, expect, it } from 'vitest';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { applyTransition, isRetryable, isStatusCurrent } from './transitions.js';
import { retryKindOf, roundOf } from './dispatch-kinds.js';

const T0 = new Date('2026-11-29T08:00:00.000Z');
const T1 = new Date('2026-11-29T08:05:00.000Z');
const row = (over: Partial<TeamStateRow> = {}): TeamStateRow =>
  ({ workerId: 'claude', provider: 'claude', role: 'analyser', status: 'pending', attempt: 0, ...over }) as TeamStateRow;

describe('applyTransition (docs/contracts.md §7)', () => {
  it('in-progress sets startedAt, clears endedAt and reason, counts the attempt', () => {
    const r = applyTransition(row({ endedAt: T0.toISOString(), reason: 'x' }), { status: 'in-progress', now: T1 });
    expect(r).toEqual({
      applied: true,
      row: {
        ...row(),
        status: 'in-progress',
        startedAt: T1.toISOString(),
        endedAt: null,
        reason: null,
        attempt: 1,
        failures: 0,
        wrapperPid: null,
        wrapperPidStartTime: null,
        providerPgid: null,
        providerPidStartTime: null,
      },
    });
  });

  it('re-dispatch of a terminal row: in-progress again with a new startedAt and attempt + 1', () => {
    const r = applyTransition(row({ status: 'timeout', attempt: 1, startedAt: T0.toISOString(), endedAt: T0.toISOString(), reason: 'stalled' }), {
      status: 'in-progress',
      now: T1,
    });
    expect(r.row).toMatchObject({ status: 'in-progress', attempt: 2, startedAt: T1.toISOString(), endedAt: null, reason: null });
  });

  it('attempt counts every dispatch of the run: initial 1, reverify-r1 2, its retry (reverify-r1-retry) 3; failures apart', () => {
    const initial = applyTransition(row(), { status: 'in-progress', now: T0, dispatchKind: 'initial' }).row;
    expect(initial).toMatchObject({ dispatchKind: 'initial', attempt: 1, failures: 0 });
    const done = applyTransition(initial, { status: 'completed', now: T0 }).row;
    expect(done.failures).toBe(0);
    const reverify = applyTransition(done, { status: 'in-progress', now: T1, dispatchKind: 'reverify-r1' }).row;
    expect(reverify).toMatchObject({ dispatchKind: 'reverify-r1', attempt: 2 });
    const timedOut = applyTransition(reverify, { status: 'timeout', reason: 'stalled', now: T1 }).row;
    expect(timedOut.failures).toBe(1);
    expect(isRetryable(timedOut)).toBe(true);
    const retry = applyTransition(timedOut, { status: 'in-progress', now: T1, dispatchKind: retryKindOf('reverify-r1') }).row;
    expect(retry).toMatchObject({ dispatchKind: 'reverify-r1-retry', attempt: 3, failures: 1 });
  });

  it("relaunchOf the row's own in-progress startedAt (a dispatch killed before it launched): the same attempt, a new startedAt", () => {
    const stuck = row({ status: 'in-progress', attempt: 2, failures: 1, startedAt: T0.toISOString(), dispatchKind: 'reverify-r2' });
    const r = applyTransition(stuck, { status: 'in-progress', now: T1, dispatchKind: 'reverify-r2', relaunchOf: T0.toISOString() }).row;
    expect(r).toMatchObject({ status: 'in-progress', attempt: 2, failures: 1, startedAt: T1.toISOString() });
    // Any other row (ended, or in-progress from another dispatch) is a new dispatch: attempt + 1.
    for (const other of [
      { ...stuck, status: 'error' as const },
      { ...stuck, startedAt: T1.toISOString() },
    ])
      expect(applyTransition(other, { status: 'in-progress', now: T1, relaunchOf: T0.toISOString() }).row.attempt).toBe(3);
  });

  it('retry accounting: the second failure of a worker is never retryable, whichever dispatch kinds the two came from', () => {
    const kinds: Array<[string, string]> = [
      ['initial', 'initial-retry'],
      ['initial', 'reverify-r1'],
      ['reverify-r1', 'reverify-r2'],
      ['reverify-r2', 'report-writer'],
    ];
    for (const [first, second] of kinds) {
      for (const [s1, s2] of [
        ['timeout', 'error'],
        ['error', 'not-run'],
        ['not-run', 'timeout'],
      ] as const) {
        let r = applyTransition(row(), { status: 'in-progress', now: T0, dispatchKind: first }).row;
        r = applyTransition(r, { status: s1, reason: 'x', now: T0 }).row;
        expect([first, s1, r.failures, isRetryable(r)]).toEqual([first, s1, 1, true]);
        r = applyTransition(r, { status: 'in-progress', now: T1, dispatchKind: second }).row;
        expect(r.failures).toBe(1);
        r = applyTransition(r, { status: s2, reason: 'y', now: T1 }).row;
        expect([second, s2, r.failures, isRetryable(r)]).toEqual([second, s2, 2, false]);
      }
    }
  });

  it('terminal sets endedAt and the reason; completed has none', () => {
    const base = row({ status: 'in-progress', startedAt: T0.toISOString(), attempt: 1 });
    expect(applyTransition(base, { status: 'error', reason: ' boom ', now: T1 }).row).toMatchObject({
      status: 'error',
      endedAt: T1.toISOString(),
      reason: 'boom',
    });
    expect(applyTransition(base, { status: 'completed', now: T1, model: 'opus' }).row).toMatchObject({
      status: 'completed',
      endedAt: T1.toISOString(),
      reason: null,
      model: 'opus',
    });
  });

  it.each(['timeout', 'error', 'not-run'] as const)('%s without a reason is refused', (status) => {
    expect(() => applyTransition(row(), { status, now: T1 })).toThrow(/requires a reason/);
    expect(() => applyTransition(row(), { status, reason: '  ', now: T1 })).toThrow(/requires a reason/);
  });

  it('a terminal row is not overwritten by another terminal transition', () => {
    const done = row({ status: 'completed', startedAt: T0.toISOString(), endedAt: T0.toISOString(), attempt: 1 });
    expect(applyTransition(done, { status: 'error', reason: 'late', now: T1 })).toEqual({ applied: false, row: done, skipped: 'terminal-row-kept' });
  });

  it('ifStartedAt leaves a re-dispatched row alone', () => {
    const redispatched = row({ status: 'in-progress', startedAt: T1.toISOString(), attempt: 2 });
    expect(applyTransition(redispatched, { status: 'completed', now: T1, ifStartedAt: T0.toISOString() })).toMatchObject({
      applied: false,
      skipped: 'stale-dispatch',
    });
  });
});

describe('isStatusCurrent / isRetryable', () => {
  it('a status file older than the row startedAt is ignored', () => {
    expect(isStatusCurrent('2026-11-29T08:00:00Z', '2026-11-29T08:05:00Z')).toBe(false);
    expect(isStatusCurrent('2026-11-29T08:05:00.001Z', '2026-11-29T08:05:00Z')).toBe(true);
    expect(isStatusCurrent(undefined, '2026-11-29T08:05:00Z')).toBe(false);
  });
  it('one retry per worker per run, on the failure count (never attempt)', () => {
    expect(isRetryable({ status: 'timeout', failures: 1 })).toBe(true);
    expect(isRetryable({ status: 'error', failures: 2 })).toBe(false);
    expect(isRetryable({ status: 'completed', failures: 1 })).toBe(false);
    expect(isRetryable({ status: 'error', failures: 1, attempt: 5 } as never)).toBe(true);
  });
  it('retry dispatch kinds: <kind>-retry, in the round of <kind>', () => {
    expect(['initial', 'reverify-r3', 'report-writer', 'initial-retry'].map(retryKindOf)).toEqual([
      'initial-retry',
      'reverify-r3-retry',
      'report-writer-retry',
      'initial-retry',
    ]);
    expect(['initial-retry', 'reverify-r3-retry', 'reverify-r3'].map(roundOf)).toEqual(['initial', 'reverify-r3', 'reverify-r3']);
  });
  it('a repair (repair-<kind>) is in the round of the kind it repairs (issue #25 item 4)', () => {
    expect(['repair-reverify-r3', 'repair-plan-verify', 'repair-reverify-r3-retry'].map(roundOf)).toEqual(['reverify-r3', 'plan-verify', 'reverify-r3']);
  });
});
