import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readNewestHeartbeat } from './tail.js';
import { makeProject, sidecar, type TestProject } from './test-support/fixtures.js';

const now = new Date('2026-11-29T08:20:00Z');
const startedAt = new Date('2026-11-29T08:00:00Z');
let p: TestProject;
beforeEach(() => {
  p = makeProject();
});
afterEach(() => p.cleanup());

describe('readNewestHeartbeat', () => {
  it('returns the last column-0 heartbeat, ignoring quoted, indented and mid-line ones after it', async () => {
    const text =
      sidecar(['- PROGRESS: 2026-11-29T08:01:00Z round-1 reading', '- PROGRESS: 2026-11-29T08:06:00.5+01:00 round-1 tracing']) +
      '```\n- PROGRESS: 2026-11-29T08:19:00Z round-9 this one is inside a fence but still a heartbeat\n```\n' +
      '  - PROGRESS: 2026-11-29T08:19:30Z round-9 indented, not one\nSee PROGRESS: 2026-11-29T08:19:40Z x y\n';
    const f = p.write('a.audit.md', text);
    const hb = await readNewestHeartbeat(f, { notBefore: startedAt, now });
    expect(hb).toEqual({ at: new Date('2026-11-29T08:19:00Z'), phase: 'round-9', verb: 'this one is inside a fence but still a heartbeat', line: 0 });
  });

  it('reads CRLF sidecars and offset timestamps', async () => {
    const f = p.write('a.audit.md', sidecar(['- PROGRESS: 2026-11-29T09:10:00+01:00 round-1 reading'], { crlf: true }));
    expect((await readNewestHeartbeat(f, { notBefore: startedAt, now }))?.at.toISOString()).toBe('2026-11-29T08:10:00.000Z');
  });

  it('reads a last line without a trailing newline', async () => {
    const f = p.write('a.audit.md', 'prose\n- PROGRESS: 2026-11-29T08:02:00Z round-1 mid-write');
    expect((await readNewestHeartbeat(f, { now }))?.verb).toBe('mid-write');
  });

  it('treats heartbeats of an earlier dispatch (reused sidecar) as no signal', async () => {
    const earlier = ['- PROGRESS: 2026-11-29T07:10:00Z round-1 first dispatch', '- PROGRESS: 2026-11-29T07:15:00Z round-1 first dispatch again'];
    const f = p.write('a.audit.md', sidecar([], { earlier }));
    expect(await readNewestHeartbeat(f, { notBefore: startedAt, now })).toBeNull();
    expect((await readNewestHeartbeat(f, { now }))?.at.toISOString()).toBe('2026-11-29T07:15:00.000Z');
  });

  it('counts a heartbeat up to the 30 s skew allowance before startedAt, not one older', async () => {
    const f = p.write('a.audit.md', '- PROGRESS: 2026-11-29T07:59:31Z round-1 launched\n');
    expect(await readNewestHeartbeat(f, { notBefore: startedAt, now })).not.toBeNull();
    const g = p.write('b.audit.md', '- PROGRESS: 2026-11-29T07:59:29Z round-1 launched\n');
    expect(await readNewestHeartbeat(g, { notBefore: startedAt, now })).toBeNull();
  });

  it('skips a heartbeat stamped in the future beyond the allowance and falls back to the one before', async () => {
    const f = p.write('a.audit.md', sidecar(['- PROGRESS: 2026-11-29T08:05:00Z round-1 ok', '- PROGRESS: 2026-11-29T08:20:31Z round-1 from the future']));
    expect((await readNewestHeartbeat(f, { notBefore: startedAt, now }))?.verb).toBe('ok');
    const g = p.write('b.audit.md', sidecar(['- PROGRESS: 2026-11-29T08:05:00Z round-1 ok', '- PROGRESS: 2026-11-29T08:20:30Z round-1 slightly ahead']));
    expect((await readNewestHeartbeat(g, { notBefore: startedAt, now }))?.verb).toBe('slightly ahead');
  });

  it('returns null for a missing sidecar and refuses a directory', async () => {
    expect(await readNewestHeartbeat(p.root + '/nope.audit.md', { now })).toBeNull();
    await expect(readNewestHeartbeat(p.root, { now })).rejects.toThrow(/is a directory/);
  });

  it('refuses a FIFO without waiting for a writer', async () => {
    const fifo = p.root + '/fifo.audit.md';
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    await expect(readNewestHeartbeat(fifo, { now })).rejects.toThrow(/is not a regular file/);
  });

  it('finds a heartbeat straddling a 64 KiB chunk boundary, and multi-byte text around it', async () => {
    const hb = '- PROGRESS: 2026-11-29T08:07:00Z round-2 vérifie la file d’attente ✓\n';
    for (const pad of [10, 40, 65]) {
      const tail = 'é'.repeat(32 * 1024 - pad) + '\n'; // 64 KiB of 2-byte chars minus a little
      const f = p.write(`c${pad}.audit.md`, 'x\n'.repeat(50_000) + hb + tail);
      expect((await readNewestHeartbeat(f, { notBefore: startedAt, now }))?.verb).toBe('vérifie la file d’attente ✓');
    }
  });

  it('looks only at the last windowBytes of the file', async () => {
    const f = p.write('w.audit.md', '- PROGRESS: 2026-11-29T08:07:00Z round-2 far back\n' + 'x'.repeat(200_000) + '\n');
    expect(await readNewestHeartbeat(f, { now, windowBytes: 100_000 })).toBeNull();
    expect((await readNewestHeartbeat(f, { now, windowBytes: 300_000 }))?.verb).toBe('far back');
  });

  it('skips an earlier-dispatch line below a heartbeat of this dispatch instead of stopping at it', () => {
    // Before: the scan stopped at the 07:00 line and said "no heartbeat for this dispatch".
    const f = p.write('o.audit.md', '- PROGRESS: 2026-11-29T08:10:00Z round-1 x y\n- PROGRESS: 2026-11-29T07:00:00Z round-1 old\n');
    return expect(readNewestHeartbeat(f, { notBefore: startedAt, now }).then((hb) => hb?.at.toISOString())).resolves.toBe('2026-11-29T08:10:00.000Z');
  });

  it('takes the last line of this dispatch in file order, even when a line above it is stamped later', async () => {
    const f = p.write('r.audit.md', sidecar(['- PROGRESS: 2026-11-29T08:10:00Z round-1 later stamp', '- PROGRESS: 2026-11-29T08:04:00Z round-1 last line']));
    expect((await readNewestHeartbeat(f, { notBefore: startedAt, now }))?.verb).toBe('last line');
  });
});
