import { afterAll, describe, expect, it } from 'vitest';
import { team } from '../test-support/bin.js';
import { makeFixture, privateSocket, removeFixtures } from '../test-support/fixture.js';
import { execStatusOf, writeExecJob } from '../test-support/exec-job.js';

afterAll(removeFixtures);

/** A stub provider printing these stdout lines (one JSON event each), then exiting `code`. */
const printing = (lines: unknown[], code = 0) => ({
  file: '/bin/sh',
  args: ['-c', `cat > /dev/null; printf '%s\\n' "$@"; exit ${code}`, 'stub', ...lines.map((l) => JSON.stringify(l))],
});

const claudeResult = (over: Record<string, unknown>) => ({
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: '# answer',
  session_id: 's',
  duration_ms: 1,
  duration_api_ms: 1,
  num_turns: 1,
  total_cost_usd: 0,
  usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  modelUsage: {},
  stop_reason: 'end_turn',
  ...over,
});

describe('okstra-team exec records the provider’s end-of-turn signal in the status sidecar (`endOfTurn`)', () => {
  const cases: Array<[string, unknown[], number, 'claude-stream-json' | 'codex-jsonl', Record<string, unknown>]> = [
    ['claude: a finished turn', [claudeResult({})], 0, 'claude-stream-json', { signal: 'end-turn', event: 'result/success', stopReason: 'end_turn' }],
    ['claude: cut off by the output limit', [claudeResult({ stop_reason: 'max_tokens' })], 0, 'claude-stream-json', { signal: 'max-tokens' }],
    [
      'claude: stopped by the turn limit',
      [
        claudeResult({
          subtype: 'error_max_turns',
          is_error: true,
          result: undefined,
          errors: ['Reached maximum number of turns (2)'],
          stop_reason: 'tool_use',
        }),
      ],
      1,
      'claude-stream-json',
      { signal: 'max-turns', event: 'result/error_max_turns', errors: ['Reached maximum number of turns (2)'] },
    ],
    ['claude: killed before its result event', [{ type: 'assistant' }], 143, 'claude-stream-json', { signal: 'none', event: null }],
    [
      'codex: a completed turn',
      [
        { type: 'thread.started', thread_id: 't' },
        { type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1 } },
      ],
      0,
      'codex-jsonl',
      { signal: 'end-turn', event: 'turn.completed' },
    ],
    [
      'codex: a failed turn',
      [
        { type: 'error', message: 'Reconnecting... 1/5' },
        { type: 'turn.failed', error: { message: 'boom' } },
      ],
      1,
      'codex-jsonl',
      { signal: 'error', event: 'turn.failed', errors: ['Reconnecting... 1/5', 'boom'] },
    ],
  ];
  for (const [name, lines, code, capture, expected] of cases)
    it(name, () => {
      const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
      team(['exec', '--job', writeExecJob(f, printing(lines, code), { capture })], { env: f.env });
      expect(execStatusOf(f).endOfTurn).toMatchObject({ source: capture, ...expected });
    });

  it('a provider whose capture reads no events records endOfTurn null', () => {
    const f = makeFixture([{ id: 'alpha', provider: 'stub-ok' }], { socket: privateSocket() });
    team(['exec', '--job', writeExecJob(f, printing([claudeResult({})]))], { env: f.env });
    expect(execStatusOf(f)).toHaveProperty('endOfTurn', null);
  });
});
