import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexHomeOf, codexModelRequests } from './codex-session.js';

const home = mkdtempSync(join(tmpdir(), 'okstra-codex-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const THREAD = '01a234ea-b2fe-7fe1-9e73-a2bde97d6681';

/** A rollout line as codex 0.171.0 writes it. */
const record = (thread: string, response: string) =>
  JSON.stringify({
    timestamp: '2026-12-02T04:02:06.591Z',
    type: 'token_usage_record',
    payload: { thread_id: thread, turn_id: 't', response_id: response, usage: {} },
  });

describe('codex model requests from its session rollout', () => {
  it('counts the distinct responses of the thread; other threads, other lines and junk are not requests', () => {
    const day = join(home, 'sessions', '2026', '12', '02');
    mkdirSync(day, { recursive: true });
    writeFileSync(
      join(day, `rollout-2026-12-02T04-02-06-${THREAD}.jsonl`),
      [
        JSON.stringify({ type: 'session_meta', payload: { id: THREAD } }),
        record(THREAD, 'resp_1'),
        JSON.stringify({ type: 'event_msg', payload: { type: 'token_count', info: null } }),
        record(THREAD, 'resp_6'),
        record(THREAD, 'resp_6'),
        record('another-thread', 'resp_9'),
        '{"type":"token_usage_record", truncated',
        record(THREAD, 'resp_8'),
      ].join('\n'),
    );
    mkdirSync(join(home, 'sessions', '2026', '11', '30'), { recursive: true });
    expect(codexModelRequests(home, THREAD)).toBe(3);
  });

  it('no rollout of that thread, or no sessions directory: unknown (null)', () => {
    expect(codexModelRequests(home, 'no-such-thread')).toBeNull();
    expect(codexModelRequests(join(home, 'absent'), THREAD)).toBeNull();
  });

  it('CODEX_HOME, else $HOME/.codex', () => {
    expect(codexHomeOf({ CODEX_HOME: '/c', HOME: '/h' })).toBe('/c');
    expect(codexHomeOf({ HOME: '/h' })).toBe('/h/.codex');
    expect(codexHomeOf({})).toBeNull();
  });
});
