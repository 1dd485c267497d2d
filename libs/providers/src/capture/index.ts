import type { CaptureKind, EndOfTurn, ProviderAnswer, WorkerUsage } from '@okstra/schemas/worker-usage';
import { claudeEndOfTurn, codexEndOfTurn, ErrorEvents } from './end-of-turn.js';
import { ClaudeApiRetryEvent, ClaudeInitEvent, ClaudeResultEvent } from './claude.js';
import { CodexEvent } from './codex.js';

export * from './claude.js';
export * from './codex.js';
export * from './codex-session.js';
export * from './end-of-turn.js';

/** What the wrapper read of one provider run (docs/providers.md "Capture"). */
export interface CaptureResult {
  /** What the provider reported about its run, in the one documented shape; null when it reported nothing. */
  usage: WorkerUsage | null;
  /** The provider's final answer; null when it gave none. An empty string is an answer that was empty. */
  answer: { text: string; source: ProviderAnswer['source'] } | null;
  /** The provider's own account of a failure (claude's error `result`, codex's `turn.failed`/`error`), else null. */
  providerError: string | null;
  /** How the provider said its turn ended (docs/team.md "End of turn"); null for capture `none`, which reads no events. */
  endOfTurn: EndOfTurn | null;
  /** claude with `--json-schema`: the result event's `structured_output` (absent when it gave none). Codex's object is its final answer's text. */
  structuredOutput?: unknown;
}

/** A line-by-line reader of a provider's stdout; `finish` is called once after the provider exits. */
export interface Capture {
  push(line: string): void;
  /**
   * The provider's own words when the latest event about its model link says
   * the model cannot be reached (claude `api_retry` without an HTTP status;
   * codex `error` "Reconnecting… / Connection failed / error sending
   * request"); null once an event shows the model answering (or before any
   * link event). The wrapper's fail-fast rule (docs/team.md "exec") reads it.
   */
  unreachable(): string | null;
  /** The type (and subtype) of the last event read, e.g. `assistant`, `system/api_retry`, `item.completed`; null before any. */
  lastEvent(): string | null;
  /**
   * @param end.lastMessage the text of the provider's last-message file
   *   (codex `--output-last-message`): a string when the file exists, null when not.
   * @param end.jobModel the job's model execution value, used when the CLI names no model.
   * @param end.modelRequests how many model requests the CLI's own session
   *   record shows for a session id (codex: {@link codexModelRequests}), null
   *   when it cannot tell; absent = unknown. Codex's `turns` comes from it.
   */
  finish(end: { lastMessage: string | null; jobModel: string; modelRequests?: (sessionId: string) => number | null }): CaptureResult;
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
  return {
    push: () => undefined,
    unreachable: () => null,
    lastEvent: () => null,
    finish: () => ({ usage: null, answer: null, providerError: null, endOfTurn: null }),
  };
}

/** `type` (and `/subtype`) of a parsed event, for {@link Capture.lastEvent}. */
function eventName(event: unknown): string | null {
  if (typeof event !== 'object' || event === null) return null;
  const e = event as { type?: unknown; subtype?: unknown };
  if (typeof e.type !== 'string') return null;
  return typeof e.subtype === 'string' ? `${e.type}/${e.subtype}` : e.type;
}

/** Codex `error` messages that mean the model endpoint could not be reached (0.171.0 wording). */
const CODEX_UNREACHABLE = /Reconnecting|waiting for network|Connection failed|error sending request|Connection refused|failed to connect|stream disconnected/i;

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
  let unreachable: string | null = null;
  let last: string | null = null;
  return {
    unreachable: () => unreachable,
    lastEvent: () => last,
    push(line) {
      const event = parseLine(line);
      last = eventName(event) ?? last;
      const retry = ClaudeApiRetryEvent.safeParse(event);
      if (retry.success)
        unreachable = retry.data.error_status === null ? `API retry ${retry.data.attempt}: no answer from the model (${retry.data.error})` : null;
      else if (last === 'assistant' || last === 'stream_event' || last === 'result/success') unreachable = null;
      const asInit = ClaudeInitEvent.safeParse(event);
      if (asInit.success) init = asInit.data;
      const asResult = ClaudeResultEvent.safeParse(event);
      if (asResult.success) result = asResult.data;
    },
    finish({ jobModel }) {
      const r = result as ClaudeResultEvent | null;
      const i = init as ClaudeInitEvent | null;
      const endOfTurn = claudeEndOfTurn(r);
      if (!r && !i) return { usage: null, answer: null, providerError: null, endOfTurn };
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
      if (!r) return { usage, answer: null, providerError: null, endOfTurn };
      if (r.is_error || r.subtype !== 'success') {
        const text = [r.result, ...(r.errors ?? [])].filter((s): s is string => Boolean(s && s.trim())).join('; ');
        return { usage, answer: null, providerError: text || `result ${r.subtype}`, endOfTurn };
      }
      return {
        usage,
        answer: r.result === undefined ? null : { text: r.result, source: 'claude-result' },
        providerError: null,
        endOfTurn,
        ...(r.structured_output !== undefined ? { structuredOutput: r.structured_output } : {}),
      };
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
  let unreachable: string | null = null;
  let last: string | null = null;
  /** The last turn-ending event read (`turn.completed` or `turn.failed`), for the end-of-turn signal. */
  let ended: 'turn.completed' | 'turn.failed' | null = null;
  const errors = new ErrorEvents();
  return {
    unreachable: () => unreachable,
    lastEvent: () => last,
    push(line) {
      const event = parseLine(line);
      last = eventName(event) ?? last;
      // Any item or completed turn is the model answering.
      if (last === 'item.started' || last === 'item.updated' || last === 'item.completed' || last === 'turn.completed') unreachable = null;
      const parsed = CodexEvent.safeParse(event);
      if (!parsed.success) return;
      const e = parsed.data;
      if (e.type === 'error' && CODEX_UNREACHABLE.test(e.message)) unreachable = e.message;
      if (e.type === 'error' || e.type === 'turn.failed') errors.add(e.type === 'error' ? e.message : e.error.message);
      if (e.type === 'turn.completed' || e.type === 'turn.failed') ended = e.type;
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
    finish({ lastMessage, jobModel, modelRequests }) {
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
            // Model requests, as claude's num_turns: the stream has one turn.completed per exec turn, however many requests it made.
            turns: threadId !== null && modelRequests ? modelRequests(threadId) : null,
          }
        : null;
      // An empty last-message file (codex writes one when a run ends without a message) yields to the stream's last agent_message.
      const text = lastMessage !== null && lastMessage.trim() !== '' ? lastMessage : (lastAgentMessage ?? lastMessage);
      return {
        usage,
        answer: text === null ? null : { text, source: 'codex-last-message' },
        providerError: failed ?? (turns === 0 ? lastError : null),
        endOfTurn: codexEndOfTurn(ended, errors.list()),
      };
    },
  };
}
