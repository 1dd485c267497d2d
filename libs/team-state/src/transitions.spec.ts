import { describe, expect, it } from 'vitest';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { applyTransition, isRetryable, isStatusCurrent } from './transitions.js';

const T0 = new Date('2026-11-29T08:00:00.000Z');
const T1 = new Date('2026-11-29T08:05:00.000Z');
const row = (over: Partial<TeamStateRow> = {}): TeamStateRow =>
  ({ workerId: 'claude', provider: 'claude', role: 'analyser', status: 'pending', attempt: 0, ...over }) as TeamStateRow;

describe('applyTransition (ARCHITECTURE.md §7)', () => {
  it('in-progress sets startedAt, clears endedAt and reason, counts the attempt', () => {
    const r = applyTransition(row({ endedAt: T0.toISOString(), reason: 'x' }), { status: 'in-progress', now: T1 });
    expect(r).toEqual({ applied: true, row: { ...row(), status: 'in-progress', startedAt: T1.toISOString(), endedAt: null, reason: null, attempt: 1 } });
  });

  it('re-dispatch of a terminal row: in-progress again with a new startedAt and attempt + 1', () => {
    const r = applyTransition(row({ status: 'timeout', attempt: 1, startedAt: T0.toISOString(), endedAt: T0.toISOString(), reason: 'stalled' }), {
      status: 'in-progress',
      now: T1,
    });
    expect(r.row).toMatchObject({ status: 'in-progress', attempt: 2, startedAt: T1.toISOString(), endedAt: null, reason: null });
  });

  it('attempt counts dispatches of one kind: a reverify dispatch after the initial one is attempt 1, its retry attempt 2', () => {
    const initial = applyTransition(row(), { status: 'in-progress', now: T0, dispatchKind: 'initial' }).row;
    expect(initial).toMatchObject({ dispatchKind: 'initial', attempt: 1 });
    const done = applyTransition(initial, { status: 'completed', now: T0 }).row;
    const reverify = applyTransition(done, { status: 'in-progress', now: T1, dispatchKind: 'reverify-r1' }).row;
    expect(reverify).toMatchObject({ dispatchKind: 'reverify-r1', attempt: 1 });
    const timedOut = applyTransition(reverify, { status: 'timeout', reason: 'stalled', now: T1 }).row;
    expect(isRetryable(timedOut)).toBe(true);
    const retry = applyTransition(timedOut, { status: 'in-progress', now: T1, dispatchKind: 'reverify-r1' }).row;
    expect(retry).toMatchObject({ dispatchKind: 'reverify-r1', attempt: 2 });
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
  it('one retry per worker', () => {
    expect(isRetryable({ status: 'timeout', attempt: 1 })).toBe(true);
    expect(isRetryable({ status: 'error', attempt: 2 })).toBe(false);
    expect(isRetryable({ status: 'completed', attempt: 1 })).toBe(false);
  });
});
