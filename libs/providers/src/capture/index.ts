import type { CaptureKind, ProviderAnswer, WorkerUsage } from '@okstra/schemas/worker-usage';
import { ClaudeInitEvent, ClaudeResultEvent } from './claude.js';
import { CodexEvent } from './codex.js';

export * from './claude.js';
export * from './codex.js';

/** What the wrapper read of one provider run (docs/providers.md "Capture"). */
export interface CaptureResult {
  /** What the provider reported about its run, in the one documented shape; null when it reported nothing. */
  usage: WorkerUsage | null;
  /** The provider's final answer; null when it gave none. An empty string is an answer that was empty. */
  answer: { text: string; source: ProviderAnswer['source'] } | null;
  /** The provider's own account of a failure (claude's error `result`, codex's `turn.failed`/`error`), else null. */
  providerError: string | null;
}

/** A line-by-line reader of a provider's stdout; `finish` is called once after the provider exits. */
export interface Capture {
  push(line: string): void;
  /**
   * @param end.lastMessage the text of the provider's last-message file
   *   (codex `--output-last-message`): a string when the file exists, null when not.
   * @param end.jobModel the job's model execution value, used when the CLI names no model.
   */
  finish(end: { lastMessage: string | null; jobModel: string }): CaptureResult;
}

/**
 * A capture for a provider's output format ({@link CaptureKind}): each stdout
 * line is parsed as JSON and checked against the event shapes the wrapper
 * reads; other lines and other events are skipped (a transcript is never
 * trusted to be well formed). Only the parsed state is kept, never the
 * transcript.
 */
export function createCapture(kind: CaptureKind): Capture {
  if (kind === 'claude-stream-json') return claudeCapture();
  if (kind === 'codex-jsonl') return codexCapture();
  return { push: () => undefined, finish: () => ({ usage: null, answer: null, providerError: null }) };
}

function parseLine(line: string): unknown {
  const t = line.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

function claudeCapture(): Capture {
  let init: ClaudeInitEvent | null = null;
  let result: ClaudeResultEvent | null = null;
  return {
    push(line) {
      const event = parseLine(line);
      const asInit = ClaudeInitEvent.safeParse(event);
      if (asInit.success) init = asInit.data;
      const asResult = ClaudeResultEvent.safeParse(event);
      if (asResult.success) result = asResult.data;
    },
    finish({ jobModel }) {
      const r = result as ClaudeResultEvent | null;
      const i = init as ClaudeInitEvent | null;
      if (!r && !i) return { usage: null, answer: null, providerError: null };
      const usage: WorkerUsage = {
        source: 'claude-stream-json',
        model: i?.model ?? Object.keys(r?.modelUsage ?? {})[0] ?? jobModel,
        sessionId: r?.session_id ?? i?.session_id ?? null,
        inputTokens: r?.usage.input_tokens ?? null,
        cachedInputTokens: r?.usage.cache_read_input_tokens ?? null,
        cacheWriteInputTokens: r?.usage.cache_creation_input_tokens ?? null,
        outputTokens: r?.usage.output_tokens ?? null,
        reasoningOutputTokens: null,
        costUsd: r?.total_cost_usd ?? null,
        providerDurationMs: r ? Math.round(r.duration_ms) : null,
        apiDurationMs: r ? Math.round(r.duration_api_ms) : null,
        turns: r?.num_turns ?? null,
      };
      if (!r) return { usage, answer: null, providerError: null };
      if (r.is_error || r.subtype !== 'success') {
        const text = [r.result, ...(r.errors ?? [])].filter((s): s is string => Boolean(s && s.trim())).join('; ');
        return { usage, answer: null, providerError: text || `result ${r.subtype}` };
      }
      return { usage, answer: r.result === undefined ? null : { text: r.result, source: 'claude-result' }, providerError: null };
    },
  };
}

function codexCapture(): Capture {
  let threadId: string | null = null;
  let turns = 0;
  const sums = { input: 0, cached: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  let lastAgentMessage: string | null = null;
  let failed: string | null = null;
  let lastError: string | null = null;
  return {
    push(line) {
      const parsed = CodexEvent.safeParse(parseLine(line));
      if (!parsed.success) return;
      const e = parsed.data;
      if (e.type === 'thread.started') threadId = e.thread_id;
      else if (e.type === 'turn.completed') {
        turns++;
        sums.input += e.usage.input_tokens;
        sums.cached += e.usage.cached_input_tokens;
        sums.cacheWrite += e.usage.cache_write_input_tokens ?? 0;
        sums.output += e.usage.output_tokens;
        sums.reasoning += e.usage.reasoning_output_tokens ?? 0;
      } else if (e.type === 'turn.failed') failed = e.error.message;
      else if (e.type === 'error') lastError = e.message;
      else if (e.item.type === 'agent_message' && typeof e.item.text === 'string') lastAgentMessage = e.item.text;
    },
    finish({ lastMessage, jobModel }) {
      const any = threadId !== null || turns > 0 || failed !== null || lastError !== null || lastAgentMessage !== null;
      const usage: WorkerUsage | null = any
        ? {
            source: 'codex-jsonl',
            model: jobModel,
            sessionId: threadId,
            inputTokens: turns > 0 ? sums.input : null,
            cachedInputTokens: turns > 0 ? sums.cached : null,
            cacheWriteInputTokens: turns > 0 ? sums.cacheWrite : null,
            outputTokens: turns > 0 ? sums.output : null,
            reasoningOutputTokens: turns > 0 ? sums.reasoning : null,
            costUsd: null,
            providerDurationMs: null,
            apiDurationMs: null,
            turns,
          }
        : null;
      // An empty last-message file (codex writes one when a run ends without a message) yields to the stream's last agent_message.
      const text = lastMessage !== null && lastMessage.trim() !== '' ? lastMessage : (lastAgentMessage ?? lastMessage);
      return {
        usage,
        answer: text === null ? null : { text, source: 'codex-last-message' },
        providerError: failed ?? (turns === 0 ? lastError : null),
      };
    },
  };
}
