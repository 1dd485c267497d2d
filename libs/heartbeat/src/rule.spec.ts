import { describe, expect, it } from 'vitest';
import { cadenceBreaches, DEFAULT_BUDGET, gapWouldStall, suspectAfter } from './rule.js';
import { sidecar } from './test-support/fixtures.js';

const startedAt = new Date('2026-11-29T08:00:00Z');
const at = (iso: string) => new Date(iso);
const hb = (time: string, phase = 'round-1') => `- PROGRESS: ${time} ${phase} checking src/queue.ts`;

describe('suspectAfter / gapWouldStall (the one rule)', () => {
  it('uses the launch grace before the first heartbeat and the idle budget after it', () => {
    expect(new Date(suspectAfter(startedAt, null, DEFAULT_BUDGET)).toISOString()).toBe('2026-11-29T08:02:00.000Z');
    expect(new Date(suspectAfter(startedAt, at('2026-11-29T08:01:00Z'), DEFAULT_BUDGET)).toISOString()).toBe('2026-11-29T08:07:00.000Z');
  });

  it('says a gap would stall only past budget + confirm window (360 + 180 s; 120 + 180 s at launch)', () => {
    const from = at('2026-11-29T08:01:00Z');
    expect(gapWouldStall(startedAt, from, at('2026-11-29T08:10:00Z'), DEFAULT_BUDGET)).toBe(false); // exactly 540 s
    expect(gapWouldStall(startedAt, from, at('2026-11-29T08:10:00.001Z'), DEFAULT_BUDGET)).toBe(true);
    expect(gapWouldStall(startedAt, null, at('2026-11-29T08:05:00Z'), DEFAULT_BUDGET)).toBe(false); // exactly 300 s
    expect(gapWouldStall(startedAt, null, at('2026-11-29T08:05:01Z'), DEFAULT_BUDGET)).toBe(true);
  });
});

describe('cadenceBreaches', () => {
  const window = { startedAt, endedAt: at('2026-11-29T08:30:00Z') };

  it('is empty for a worker that kept the 5-minute cadence (in a realistic sidecar)', () => {
    const text = sidecar(['08:01:00', '08:06:00', '08:11:00', '08:16:00', '08:21:00', '08:26:00'].map((t) => hb(`2026-11-29T${t}Z`)));
    expect(cadenceBreaches(text, window)).toEqual([]);
  });

  it('tolerates a late heartbeat the live probe would have waited out (8 min gap)', () => {
    const text = sidecar(['08:01:00', '08:09:00', '08:14:00', '08:19:00', '08:24:00', '08:29:00'].map((t) => hb(`2026-11-29T${t}Z`)));
    expect(cadenceBreaches(text, window)).toEqual([]);
  });

  it('flags a 10-minute silence, a silent start and a silent end, with the instants the probe says stalled', () => {
    const text = sidecar([hb('2026-11-29T08:06:00Z'), hb('2026-11-29T08:16:00.000+00:00'), hb('2026-11-29T08:20:00Z')], { crlf: true });
    expect(cadenceBreaches(text, window)).toEqual([
      {
        from: '2026-11-29T08:00:00.000Z',
        to: '2026-11-29T08:06:00.000Z',
        gapSeconds: 360,
        stalledFrom: '2026-11-29T08:02:00.000Z',
        stalledTo: '2026-11-29T08:03:00.000Z',
      },
      {
        from: '2026-11-29T08:06:00.000Z',
        to: '2026-11-29T08:16:00.000Z',
        gapSeconds: 600,
        stalledFrom: '2026-11-29T08:12:00.000Z',
        stalledTo: '2026-11-29T08:13:00.000Z',
      },
      {
        from: '2026-11-29T08:20:00.000Z',
        to: '2026-11-29T08:30:00.000Z',
        gapSeconds: 600,
        stalledFrom: '2026-11-29T08:26:00.000Z',
        stalledTo: '2026-11-29T08:27:00.000Z',
      },
    ]);
  });

  it('ignores heartbeats of an earlier dispatch, quoted ones and those after the window', () => {
    const earlier = [hb('2026-11-29T07:40:00Z'), hb('2026-11-29T07:50:00Z')];
    const text =
      sidecar([hb('2026-11-29T08:01:00Z'), hb('2026-11-29T08:40:00Z')], { earlier }) + '> - PROGRESS: 2026-11-29T08:20:00Z round-1 quoted, not a heartbeat\n';
    expect(cadenceBreaches(text, window)).toEqual([
      {
        from: '2026-11-29T08:01:00.000Z',
        to: '2026-11-29T08:30:00.000Z',
        gapSeconds: 1740,
        stalledFrom: '2026-11-29T08:07:00.000Z',
        stalledTo: '2026-11-29T08:27:00.000Z',
      },
    ]);
  });

  it("an earlier-dispatch line below this dispatch's heartbeats is skipped, not the end of the dispatch", () => {
    const text = [hb('2026-11-29T08:01:00Z'), hb('2026-11-29T07:10:00Z'), hb('2026-11-29T08:05:00Z'), hb('2026-11-29T07:20:00Z')].join('\n');
    expect(cadenceBreaches(text, { startedAt, endedAt: at('2026-11-29T08:12:00Z') })).toEqual([]);
  });

  it('reads the file in order: a line stamped older than the one above it moves the newest heartbeat back (as the live probe sees it)', () => {
    // 08:05 then a line stamped 08:01 written with it: from 08:05 on the newest heartbeat is 08:01, suspect after 08:07.
    const text = [hb('2026-11-29T08:05:00Z'), hb('2026-11-29T08:01:00Z'), hb('2026-11-29T08:12:00Z')].join('\n');
    expect(cadenceBreaches(text, { startedAt, endedAt: at('2026-11-29T08:20:00Z') })).toEqual([
      {
        from: '2026-11-29T08:01:00.000Z',
        to: '2026-11-29T08:12:00.000Z',
        gapSeconds: 660,
        stalledFrom: '2026-11-29T08:07:00.000Z',
        stalledTo: '2026-11-29T08:09:00.000Z',
      },
    ]);
    // in time order the same stamps leave no gap the probe would flag
    expect(
      cadenceBreaches([hb('2026-11-29T08:01:00Z'), hb('2026-11-29T08:05:00Z'), hb('2026-11-29T08:12:00Z')].join('\n'), {
        startedAt,
        endedAt: at('2026-11-29T08:20:00Z'),
      }),
    ).toEqual([]);
  });

  it('a row that ends inside the confirm window is no breach (the probe re-reads the row: completed)', () => {
    const text = hb('2026-11-29T08:01:00Z');
    expect(cadenceBreaches(text, { startedAt, endedAt: at('2026-11-29T08:10:00Z') })).toEqual([]); // suspect from 08:07, but 08:07 + 180 s = end
    expect(cadenceBreaches(text, { startedAt, endedAt: at('2026-11-29T08:10:01Z') })).toHaveLength(1);
  });

  it('reads offsets; an out-of-order line that leaves no probe-visible stall is no breach', () => {
    const text = [hb('2026-11-29T10:05:00+02:00'), hb('2026-11-29T08:01:00Z'), hb('2026-11-29T03:10:00-05:00')].join('\n');
    expect(cadenceBreaches(text, { startedAt, endedAt: at('2026-11-29T08:12:00Z') })).toEqual([]);
  });

  it('a worker with no heartbeat at all breaches from its start', () => {
    expect(cadenceBreaches('# sidecar\nno heartbeats\n', { startedAt, endedAt: at('2026-11-29T08:04:00Z') })).toEqual([]);
    expect(cadenceBreaches('# sidecar\nno heartbeats\n', { startedAt, endedAt: at('2026-11-29T08:06:00Z') })).toEqual([
      {
        from: '2026-11-29T08:00:00.000Z',
        to: '2026-11-29T08:06:00.000Z',
        gapSeconds: 360,
        stalledFrom: '2026-11-29T08:02:00.000Z',
        stalledTo: '2026-11-29T08:03:00.000Z',
      },
    ]);
  });
});
