import { describe, expect, it } from 'vitest';
import { createCapture } from '@okstra/providers';
import { CLAUDE_ANSWER, CLAUDE_SESSION, claudeEmptyAnswer, claudeMaxTokens, claudeMaxTurns, claudeTranscript, claudeUnreachable } from './fixtures/claude.js';
import { CODEX_ANSWER, CODEX_THREAD, codexTranscript, codexUnreachable } from './fixtures/codex.js';

/** Feed a typed transcript to a capture as the CLI prints it: one JSON line per event, noise around it. */
function replay(
  kind: 'claude-stream-json' | 'codex-jsonl',
  events: unknown[],
  lastMessage: string | null = null,
  modelRequests?: (sessionId: string) => number | null,
) {
  const c = createCapture(kind);
  c.push('not json: a warning line');
  for (const e of events) c.push(JSON.stringify(e));
  c.push('{"truncated":');
  return c.finish({ lastMessage, jobModel: 'job-model', modelRequests });
}

describe('claude stream-json capture (typed by @anthropic-ai/claude-agent-sdk)', () => {
  it('the final result event gives the answer and the usage', () => {
    expect(replay('claude-stream-json', claudeTranscript)).toEqual({
      answer: { text: CLAUDE_ANSWER, source: 'claude-result' },
      providerError: null,
      endOfTurn: { source: 'claude-stream-json', signal: 'end-turn', event: 'result/success', stopReason: 'end_turn', errors: [] },
      usage: {
        source: 'claude-stream-json',
        model: 'claude-sonnet-5',
        sessionId: CLAUDE_SESSION,
        inputTokens: 1200,
        cachedInputTokens: 88000,
        cacheWriteInputTokens: 500,
        outputTokens: 3400,
        reasoningOutputTokens: null,
        costUsd: 0.4213,
        providerDurationMs: 61234,
        apiDurationMs: 58000,
        turns: 7,
      },
    });
  });
  it('an error result is no answer: its text is the provider error', () => {
    const r = replay('claude-stream-json', claudeUnreachable);
    expect(r.answer).toBeNull();
    expect(r.providerError).toBe('API Error: Unable to connect to API (ConnectionRefused)');
    expect(r.usage).toMatchObject({ sessionId: CLAUDE_SESSION, inputTokens: 0, costUsd: 0, turns: 1 });
    expect(r.endOfTurn).toEqual({
      source: 'claude-stream-json',
      signal: 'error',
      event: 'result/success',
      stopReason: 'end_turn',
      errors: ['API Error: Unable to connect to API (ConnectionRefused)'],
    });
  });
  it('the end-of-turn signal: max turns and max tokens are told by the result event, not by the answer', () => {
    expect(replay('claude-stream-json', claudeMaxTurns).endOfTurn).toEqual({
      source: 'claude-stream-json',
      signal: 'max-turns',
      event: 'result/error_max_turns',
      stopReason: 'tool_use',
      errors: ['Reached maximum number of turns (3)'],
    });
    const cut = replay('claude-stream-json', claudeMaxTokens);
    expect(cut.answer?.text).toContain('SURV');
    expect(cut.endOfTurn).toMatchObject({ signal: 'max-tokens', stopReason: 'max_tokens' });
    // A stream that stops before its result event (killed, crashed) has no signal.
    expect(replay('claude-stream-json', claudeTranscript.slice(0, 1)).endOfTurn).toMatchObject({ signal: 'none', event: null });
  });
  it('an empty result is an empty answer', () => {
    expect(replay('claude-stream-json', claudeEmptyAnswer).answer).toEqual({ text: '', source: 'claude-result' });
  });
  it('no events: no usage, no answer', () => {
    expect(replay('claude-stream-json', [])).toEqual({
      usage: null,
      answer: null,
      providerError: null,
      endOfTurn: { source: 'claude-stream-json', signal: 'none', event: null, stopReason: null, errors: [] },
    });
    expect(createCapture('none').finish({ lastMessage: null, jobModel: 'm' }).endOfTurn).toBeNull();
  });
});

describe('codex --json capture (typed by @openai/codex-sdk)', () => {
  it('usage sums every turn, turns = the model requests of its session record; the answer is the last-message file, else the last agent_message', () => {
    const fromItems = replay('codex-jsonl', codexTranscript, null, (id) => (id === CODEX_THREAD ? 5 : null));
    expect(fromItems).toEqual({
      answer: { text: CODEX_ANSWER, source: 'codex-last-message' },
      providerError: null,
      endOfTurn: { source: 'codex-jsonl', signal: 'end-turn', event: 'turn.completed', stopReason: null, errors: [] },
      usage: {
        source: 'codex-jsonl',
        model: 'job-model',
        sessionId: CODEX_THREAD,
        inputTokens: 10000,
        cachedInputTokens: 91000,
        cacheWriteInputTokens: 200,
        outputTokens: 2000,
        reasoningOutputTokens: 400,
        costUsd: null,
        providerDurationMs: null,
        apiDurationMs: null,
        turns: 5,
      },
    });
    // No session record (none found, or none asked for): the stream cannot tell how many requests there were.
    expect(replay('codex-jsonl', codexTranscript, null, () => null).usage?.turns).toBeNull();
    expect(replay('codex-jsonl', codexTranscript).usage?.turns).toBeNull();
    expect(replay('codex-jsonl', codexTranscript, 'from the file\n').answer).toEqual({ text: 'from the file\n', source: 'codex-last-message' });
  });
  it('a failed turn is the provider error; no completed turn means no token counts', () => {
    const r = replay('codex-jsonl', codexUnreachable);
    expect(r.answer).toBeNull();
    expect(r.providerError).toBe('stream disconnected before completion: Connection refused (os error 111)');
    expect(r.usage).toMatchObject({ sessionId: CODEX_THREAD, inputTokens: null, turns: null });
    expect(r.endOfTurn).toEqual({
      source: 'codex-jsonl',
      signal: 'error',
      event: 'turn.failed',
      stopReason: null,
      errors: [
        'Reconnecting... 2/5 (stream disconnected before completion: Connection refused (os error 111))',
        'stream disconnected before completion: Connection refused (os error 111)',
      ],
    });
    // Cut off before its turn ended: no signal, whatever the last agent message says.
    expect(replay('codex-jsonl', codexTranscript.slice(0, 5)).endOfTurn).toMatchObject({ signal: 'none', event: null });
  });
});
