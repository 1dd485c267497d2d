import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeWorkers } from './probe.js';
import { cadenceBreaches } from './rule.js';
import { fakeClock, makeProject, row, sidecar, type TestProject } from './test-support/fixtures.js';

let p: TestProject;
beforeEach(() => {
  p = makeProject();
});
afterEach(() => p.cleanup());

const hb = (time: string) => `- PROGRESS: ${time} round-1 checking src/queue.ts`;
const sidecarOf = (id: string) => `${p.runRel}/worker-results/${id}-error-analysis-001.audit.md`;
const promptOf = (id: string) => `${p.runRel}/prompts/${id}-prompt-error-analysis-001`;
const sel = (...ids: string[]) => ids.map((workerId) => ({ teamStatePath: p.teamStatePath, workerId }));

describe('probeWorkers — audit-heartbeat', () => {
  it('judges a worker with a fresh heartbeat live, with its evidence', async () => {
    p.writeTeamState([row('claude')]);
    p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:01:00Z'), hb('2026-11-29T08:06:10.5+00:00')]));
    const clock = fakeClock('2026-11-29T08:10:00Z');
    expect(await probeWorkers(sel('claude'), clock)).toEqual([
      {
        teamStatePath: p.teamStatePath,
        workerId: 'claude',
        mode: 'audit-heartbeat',
        verdict: 'live',
        healthy: true,
        reason: null,
        evidence: { newestHeartbeatAt: '2026-11-29T08:06:10.500Z', ageSeconds: 229, artifact: sidecarOf('claude') },
      },
    ]);
    expect(clock.sleeps).toEqual([]);
  });

  it('confirms a budget breach with one re-read after half the budget and reports stalled', async () => {
    p.writeTeamState([row('claude')]);
    p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:01:00Z')], { crlf: true }));
    const clock = fakeClock('2026-11-29T08:07:01Z');
    const [r] = await probeWorkers(sel('claude'), clock);
    expect(clock.sleeps).toEqual([180_000]);
    expect(r).toMatchObject({ verdict: 'stalled', healthy: false, evidence: { newestHeartbeatAt: '2026-11-29T08:01:00.000Z', ageSeconds: 541 } });
    expect(r.reason).toBe('newest heartbeat 2026-11-29T08:01:00.000Z is 541 s old (budget 360 s); not advanced after a 180 s re-read');
  });

  it('reports live when the suspect appends a heartbeat during the confirm window', async () => {
    p.writeTeamState([row('claude')]);
    const file = p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:01:00Z')]));
    const clock = fakeClock('2026-11-29T08:07:30Z', () => p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:01:00Z'), hb('2026-11-29T08:08:00Z')])));
    const [r] = await probeWorkers(sel('claude'), clock);
    expect(file).toContain('claude');
    expect(r).toMatchObject({ verdict: 'live', healthy: true, reason: null, evidence: { newestHeartbeatAt: '2026-11-29T08:08:00.000Z', ageSeconds: 150 } });
  });

  it('confirms every suspect in ONE shared wait', async () => {
    const ids = ['claude', 'codex', 'gemini', 'qwen'];
    p.writeTeamState(ids.map((id) => row(id)));
    for (const id of ids) p.write(sidecarOf(id), sidecar([hb('2026-11-29T08:01:00Z')]));
    const clock = fakeClock('2026-11-29T08:20:00Z', () => p.write(sidecarOf('gemini'), sidecar([hb('2026-11-29T08:22:00Z')])));
    const results = await probeWorkers(sel(...ids), clock);
    expect(clock.sleeps).toEqual([180_000]);
    expect(results.map((r) => [r.workerId, r.verdict])).toEqual([
      ['claude', 'stalled'],
      ['codex', 'stalled'],
      ['gemini', 'live'],
      ['qwen', 'stalled'],
    ]);
  });

  it('with --stall-confirm 0 reports the breach at once, without waiting', async () => {
    p.writeTeamState([row('claude')]);
    p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:01:00Z')]));
    const clock = fakeClock('2026-11-29T08:07:01Z');
    const [r] = await probeWorkers(sel('claude'), { ...clock, stallConfirmS: 0 });
    expect(clock.sleeps).toEqual([]);
    expect(r.reason).toBe('newest heartbeat 2026-11-29T08:01:00.000Z is 361 s old (budget 360 s)');
  });

  it('defaults the confirm window to half a custom --max-idle', async () => {
    p.writeTeamState([row('claude')]);
    p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:01:00Z')]));
    const clock = fakeClock('2026-11-29T08:03:00Z');
    expect((await probeWorkers(sel('claude'), { ...clock, maxIdleS: 100 }))[0].verdict).toBe('stalled');
    expect(clock.sleeps).toEqual([50_000]);
  });

  it('anchors the launch grace at startedAt: no sidecar yet is live inside it, stalled past it', async () => {
    p.writeTeamState([row('claude')]);
    expect((await probeWorkers(sel('claude'), fakeClock('2026-11-29T08:02:00Z')))[0]).toMatchObject({
      verdict: 'live',
      evidence: { newestHeartbeatAt: null, ageSeconds: null },
    });
    const [r] = await probeWorkers(sel('claude'), { ...fakeClock('2026-11-29T08:02:01Z'), stallConfirmS: 0 });
    expect(r.verdict).toBe('stalled');
    expect(r.reason).toBe('no heartbeat for this dispatch 121 s after startedAt 2026-11-29T08:00:00.000Z (launch grace 120 s)');
  });

  it("treats an earlier dispatch's heartbeats as no signal (reused sidecar), judged from this startedAt", async () => {
    p.writeTeamState([row('claude', { startedAt: '2026-11-29T08:00:00Z', attempt: 2 })]);
    p.write(sidecarOf('claude'), sidecar([], { earlier: [hb('2026-11-29T07:40:00Z'), hb('2026-11-29T07:45:00Z')] }));
    expect((await probeWorkers(sel('claude'), fakeClock('2026-11-29T08:01:00Z')))[0].verdict).toBe('live');
    const [r] = await probeWorkers(sel('claude'), fakeClock('2026-11-29T08:03:00Z'));
    expect(r).toMatchObject({ verdict: 'stalled', evidence: { newestHeartbeatAt: null } });
  });

  it('agrees with cadenceBreaches: the probe polled every 10 s says stalled exactly when the gap is a breach (gaps off the 10 s grid)', async () => {
    p.writeTeamState([row('claude')]);
    for (const gap of [300, 540, 565, 600]) {
      const first = new Date('2026-11-29T08:01:00Z').getTime();
      const next = new Date(first + gap * 1000);
      const all = [hb('2026-11-29T08:01:00Z'), hb(next.toISOString())];
      const visible = (t: number) => all.filter((_, i) => i === 0 || next.getTime() <= t);
      let stalled = false;
      for (let t = first + 10_000; t < next.getTime(); t += 10_000) {
        p.write(sidecarOf('claude'), sidecar(visible(t)));
        const clock = fakeClock(new Date(t).toISOString(), () => p.write(sidecarOf('claude'), sidecar(visible(clock.now().getTime()))));
        if ((await probeWorkers(sel('claude'), clock))[0].verdict === 'stalled') stalled = true;
      }
      const breaches = cadenceBreaches(sidecar(all), { startedAt: new Date('2026-11-29T08:00:00Z'), endedAt: next });
      expect([gap, stalled]).toEqual([gap, breaches.length > 0]);
    }
  });
});

describe('probeWorkers — wrapper-status', () => {
  const wrapperRow = (id: string, over = {}) => row(id, { livenessMode: 'wrapper-status', auditSidecarPath: null, ...over });

  it('is live once the wrapper .log or .status.json exists, and names the artifact', async () => {
    p.writeTeamState([wrapperRow('codex'), wrapperRow('gemini')]);
    p.write(`${promptOf('codex')}.md`, '# prompt');
    p.write(`${promptOf('codex')}.log`, 'starting codex\n', new Date('2026-11-29T08:00:20Z'));
    p.write(`${promptOf('gemini')}.status.json`, '{"status":"completed"}', new Date('2026-11-29T08:09:00Z'));
    const results = await probeWorkers(sel('codex', 'gemini'), fakeClock('2026-11-29T08:10:00Z'));
    expect(results.map((r) => [r.verdict, r.healthy, r.mode, r.evidence.artifact])).toEqual([
      ['live', true, 'wrapper-status', `${promptOf('codex')}.log`],
      ['live', true, 'wrapper-status', `${promptOf('gemini')}.status.json`],
    ]);
  });

  it('is live inside the launch grace and did-not-launch past it, without a confirm wait', async () => {
    p.writeTeamState([wrapperRow('codex')]);
    expect((await probeWorkers(sel('codex'), fakeClock('2026-11-29T08:02:00Z')))[0].verdict).toBe('live');
    const clock = fakeClock('2026-11-29T08:02:05Z');
    const [r] = await probeWorkers(sel('codex'), clock);
    expect(clock.sleeps).toEqual([]);
    expect(r).toMatchObject({ verdict: 'did-not-launch', healthy: false, evidence: { artifact: `${promptOf('codex')}.log`, newestHeartbeatAt: null } });
    expect(r.reason).toBe(
      `neither ${promptOf('codex')}.log nor ${promptOf('codex')}.status.json appeared 125 s after startedAt 2026-11-29T08:00:00.000Z (launch grace 120 s)`,
    );
  });

  it('ignores wrapper artifacts left by an earlier dispatch', async () => {
    p.writeTeamState([wrapperRow('codex', { attempt: 2 })]);
    p.write(`${promptOf('codex')}.log`, 'first attempt\n', new Date('2026-11-29T07:30:00Z'));
    p.write(`${promptOf('codex')}.status.json`, '{}', new Date('2026-11-29T07:50:00Z'));
    expect((await probeWorkers(sel('codex'), fakeClock('2026-11-29T08:05:00Z')))[0].verdict).toBe('did-not-launch');
  });
});

describe('probeWorkers — terminal rows and several files', () => {
  it("reports a terminal row's status as its healthy verdict without reading artifacts", async () => {
    p.writeTeamState([
      row('claude', { status: 'completed', endedAt: '2026-11-29T08:20:00Z' }),
      row('codex', { status: 'error', reason: 'did-not-launch', livenessMode: 'wrapper-status' }),
      row('gemini', { status: 'not-run', startedAt: null, reason: 'provider missing', livenessMode: undefined }),
      row('qwen', { status: 'timeout', reason: 'stalled twice' }),
    ]);
    const results = await probeWorkers(sel('claude', 'codex', 'gemini', 'qwen'), fakeClock('2026-11-29T09:00:00Z'));
    expect(results.map((r) => [r.workerId, r.verdict, r.healthy, r.mode, r.evidence.artifact])).toEqual([
      ['claude', 'completed', true, 'audit-heartbeat', null],
      ['codex', 'error', true, 'wrapper-status', null],
      ['gemini', 'not-run', true, null, null],
      ['qwen', 'timeout', true, 'audit-heartbeat', null],
    ]);
  });
});

describe('probeWorkers — invalid input names the row', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['no startedAt', { startedAt: null }, /workers\[0\]\.startedAt: worker 'claude' is in-progress but has no startedAt/],
    ['no livenessMode', { livenessMode: undefined }, /workers\[0\]\.livenessMode: worker 'claude' is in-progress but has no livenessMode/],
    ['unknown livenessMode', { livenessMode: 'tmux-pane' }, /workers\[0\]\.livenessMode/],
    ['no auditSidecarPath', { auditSidecarPath: null }, /workers\[0\]\.auditSidecarPath: .*no auditSidecarPath/],
    ['no promptPath', { livenessMode: 'wrapper-status', promptPath: null }, /workers\[0\]\.promptPath: .*no promptPath/],
    ['a path escaping the root', { auditSidecarPath: '../../etc/passwd' }, /workers\[0\]\.auditSidecarPath: '..\/..\/etc\/passwd' escapes the project root/],
  ];
  it.each(cases)('refuses %s', async (_name, over, message) => {
    p.writeTeamState([row('claude', over)]);
    const err = await probeWorkers(sel('claude'), fakeClock('2026-11-29T08:10:00Z')).catch((e) => e);
    expect(err).toMatchObject({ name: 'InputError', exitCode: 2, file: p.teamStatePath });
    expect(err.toLine()).toMatch(message);
  });

  it('refuses an unknown worker, an unknown schemaVersion, a missing file and a duplicate selector', async () => {
    p.writeTeamState([row('claude')]);
    await expect(probeWorkers(sel('nobody'), fakeClock('2026-11-29T08:10:00Z'))).rejects.toThrow("no worker 'nobody' (workers: claude)");
    await expect(probeWorkers(sel('claude', 'claude'), fakeClock('2026-11-29T08:10:00Z'))).rejects.toThrow("worker 'claude' is selected twice");
    await expect(probeWorkers([{ teamStatePath: p.root + '/missing.json', workerId: 'claude' }], {})).rejects.toThrow('file not found');
    p.writeTeamState([row('claude')], { schemaVersion: '9.9' });
    await expect(probeWorkers(sel('claude'), {})).rejects.toThrow(/unsupported schemaVersion "9.9"/);
  });
});

describe('probeWorkers — a pending row, and rows re-read after the confirm window', () => {
  it('reports a pending worker as not-dispatched (healthy, out of the exit code) and judges the others', async () => {
    p.writeTeamState([row('claude'), row('report-writer', { status: 'pending', startedAt: null, attempt: 0, livenessMode: 'wrapper-status' }), row('codex')]);
    p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:06:00Z')]));
    const results = await probeWorkers(sel('claude', 'report-writer', 'codex'), { ...fakeClock('2026-11-29T08:08:00Z'), stallConfirmS: 0 });
    expect(results.map((r) => [r.workerId, r.verdict, r.healthy, r.mode])).toEqual([
      ['claude', 'live', true, 'audit-heartbeat'],
      ['report-writer', 'not-dispatched', true, 'wrapper-status'],
      ['codex', 'stalled', false, 'audit-heartbeat'],
    ]);
    expect(results[1]).toMatchObject({ reason: null, evidence: { newestHeartbeatAt: null, ageSeconds: null, artifact: null } });
  });

  it('a worker whose row turned completed during the confirm window is completed, not stalled', async () => {
    p.writeTeamState([row('claude')]);
    p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:01:00Z')]));
    const clock = fakeClock('2026-11-29T08:07:30Z', () => p.writeTeamState([row('claude', { status: 'completed', endedAt: '2026-11-29T08:09:00Z' })]));
    const [r] = await probeWorkers(sel('claude'), clock);
    expect(clock.sleeps).toEqual([180_000]);
    expect(r).toMatchObject({ verdict: 'completed', healthy: true, reason: null });
  });

  it('after the re-read, evidence and reason name the same (re-read) heartbeat, even when it is older', async () => {
    p.writeTeamState([row('claude')]);
    p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:01:00Z')]));
    // During the window the worker appends a line stamped earlier: the newest heartbeat (last line of this dispatch) moves back.
    const clock = fakeClock('2026-11-29T08:07:30Z', () => p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:01:00Z'), hb('2026-11-29T07:59:45Z')])));
    const [r] = await probeWorkers(sel('claude'), clock);
    expect(r).toMatchObject({ verdict: 'stalled', evidence: { newestHeartbeatAt: '2026-11-29T07:59:45.000Z', ageSeconds: 645 } });
    expect(r.reason).toBe('newest heartbeat 2026-11-29T07:59:45.000Z is 645 s old (budget 360 s); not advanced after a 180 s re-read');
  });

  it('a heartbeat of this dispatch above an older dispatch line keeps the worker live (the scan does not stop there)', async () => {
    p.writeTeamState([row('claude')]);
    p.write(sidecarOf('claude'), sidecar([hb('2026-11-29T08:05:00Z'), hb('2026-11-29T07:30:00Z')]));
    const [r] = await probeWorkers(sel('claude'), fakeClock('2026-11-29T08:08:00Z'));
    expect(r).toMatchObject({ verdict: 'live', evidence: { newestHeartbeatAt: '2026-11-29T08:05:00.000Z' } });
  });
});

describe('probeWorkers — budget bounds', () => {
  it.each([
    [{ stallConfirmS: 2_200_000 }, /stallConfirmS must be a number of seconds in \[0, 86400\], got 2200000/],
    [{ maxIdleS: -1 }, /maxIdleS/],
    [{ launchGraceS: Number.NaN }, /launchGraceS/],
    [{ maxIdleS: 200_000 }, /maxIdleS/],
  ])('refuses %j before reading or waiting', async (over, message) => {
    p.writeTeamState([row('claude')]);
    const clock = fakeClock('2026-11-29T08:10:00Z');
    await expect(probeWorkers(sel('claude'), { ...clock, ...over })).rejects.toThrow(message);
    expect(clock.sleeps).toEqual([]);
  });
});

describe('probeWorkers — a startedAt in the future (FUTURE_START_TOLERANCE_S)', () => {
  // A launch stamped 2 h ahead with no artifact at all must not hide as `live` until then (issue 29).
  it.each([
    ['audit-heartbeat', 'stalled', {}],
    ['wrapper-status', 'did-not-launch', { livenessMode: 'wrapper-status', auditSidecarPath: null }],
  ])('%s: 2 h ahead with no artifact is %s, unhealthy, naming the skew; 5 min ahead is still within the tolerance', async (_mode, verdict, over) => {
    p.writeTeamState([row('claude', { ...over, startedAt: '2026-11-29T10:00:00.000Z' }), row('codex', { ...over, startedAt: '2026-11-29T08:05:00.000Z' })]);
    const clock = fakeClock('2026-11-29T08:00:00Z');
    const [ahead, within] = await probeWorkers(sel('claude', 'codex'), clock);
    expect(ahead).toMatchObject({ verdict, healthy: false });
    expect(ahead!.reason).toBe(
      'startedAt 2026-11-29T10:00:00.000Z is 7200 s in the future (tolerance 300 s): a skewed clock or a launch that never happened; not judged live',
    );
    expect(within).toMatchObject({ verdict: 'live', healthy: true });
    expect(clock.sleeps).toEqual([]);
  });
});
