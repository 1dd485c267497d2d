import { describe, expect, it } from 'vitest';
import { createCapture } from './index.js';

const feed = (kind: 'claude-stream-json' | 'codex-jsonl', events: unknown[]) => {
  const c = createCapture(kind);
  const seen: Array<string | null> = [];
  for (const e of events) {
    c.push(JSON.stringify(e));
    seen.push(c.unreachable());
  }
  return { seen, last: c.lastEvent() };
};

const retry = (attempt: number, status: number | null) => ({
  type: 'system',
  subtype: 'api_retry',
  attempt,
  max_retries: 10,
  retry_delay_ms: 600,
  error_status: status,
  error: 'unknown',
  session_id: 's',
  uuid: 'u',
});

describe('Capture.unreachable: the provider’s own account that its model cannot be reached (the wrapper’s fail-fast rule)', () => {
  it('claude: api_retry without an HTTP status is unreachable; one with a status (429, 529) is the model answering; an assistant event clears it', () => {
    const { seen, last } = feed('claude-stream-json', [
      { type: 'system', subtype: 'init', session_id: 's', model: 'm', permissionMode: 'dontAsk', cwd: '/p' },
      retry(1, null),
      retry(2, 529),
      retry(3, null),
      { type: 'assistant', message: {} },
    ]);
    expect(seen).toEqual([null, 'API retry 1: no answer from the model (unknown)', null, 'API retry 3: no answer from the model (unknown)', null]);
    expect(last).toBe('assistant');
  });

  it('codex: "Reconnecting… waiting for network" is unreachable until an item or a completed turn; other errors are not', () => {
    const reconnect = { type: 'error', message: 'Reconnecting... waiting for network (Connection failed: error sending request)' };
    const { seen } = feed('codex-jsonl', [
      { type: 'thread.started', thread_id: 't' },
      { type: 'turn.started' },
      reconnect,
      { type: 'item.completed', item: { id: 'i', type: 'agent_message', text: 'x' } },
      { type: 'error', message: 'unexpected status 400 Bad Request' },
      reconnect,
      { type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
    ]);
    expect(seen).toEqual([null, null, reconnect.message, null, null, reconnect.message, null]);
  });

  it('a capture of kind none never says so', () => {
    const c = createCapture('none');
    c.push('{"type":"error","message":"Reconnecting..."}');
    expect([c.unreachable(), c.lastEvent()]).toEqual([null, null]);
  });
});
