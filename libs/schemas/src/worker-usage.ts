import * as z from './zod.js';
import { NonNegativeInt } from './common.js';

/** The capture kinds that read the provider's output; `none` is the one more {@link CaptureKind}. */
const READING_CAPTURE_KINDS = ['claude-stream-json', 'codex-jsonl'] as const;

/**
 * How a provider's run is read by the wrapper (docs/providers.md "Capture"):
 * `claude-stream-json` — Claude Code `-p --output-format=stream-json` events on
 * stdout (the `system/init` event, `assistant` messages, the final `result`);
 * `codex-jsonl` — `codex exec --json` events on stdout (`thread.started`,
 * `turn.completed`, `turn.failed`, `error`, `item.completed`) plus the
 * `--output-last-message` file; `none` — nothing is read (exit code and
 * completion paths only).
 */
export const CaptureKind = z.enum([...READING_CAPTURE_KINDS, 'none']);
/** The capture kinds that read something (every {@link CaptureKind} but `none`). */
const ReadingCaptureKind = z.enum(READING_CAPTURE_KINDS);
export type CaptureKind = z.infer<typeof CaptureKind>;

const Count = z.nullable(NonNegativeInt);

/**
 * What a provider reported about one run, in one shape for every provider
 * (docs/providers.md "Usage"; the seeds' "collect usage before teardown").
 * Every field is what the CLI itself emitted, `null` when it emitted nothing
 * for it — never an estimate. Token counts are integers; `costUsd` in US
 * dollars as the CLI computed it; `providerDurationMs` / `apiDurationMs` in
 * ms as the CLI measured them (the wrapper's own wall time is the status
 * sidecar's `durationMs`).
 * - `inputTokens`: uncached input tokens (claude `usage.input_tokens`;
 *   codex `input_tokens` summed over turns);
 * - `cachedInputTokens`: input read from the prompt cache (claude
 *   `cache_read_input_tokens`; codex `cached_input_tokens`);
 * - `cacheWriteInputTokens`: input written to the cache (claude
 *   `cache_creation_input_tokens`; codex `cache_write_input_tokens`);
 * - `outputTokens`, `reasoningOutputTokens` (codex only);
 * - `model`: the model the CLI says it ran (claude `init.model`, the
 *   `modelUsage` keys), else null; `sessionId`: the id a resume needs
 *   (claude `session_id`; codex `thread_id`); `turns`: the model requests
 *   the CLI made and got answered (claude `num_turns`; codex the responses
 *   its session rollout records, null when that record is not found).
 */
export const WorkerUsage = z.object({
  source: ReadingCaptureKind,
  model: z.nullable(z.string()),
  sessionId: z.nullable(z.string()),
  inputTokens: Count,
  cachedInputTokens: Count,
  cacheWriteInputTokens: Count,
  outputTokens: Count,
  reasoningOutputTokens: Count,
  costUsd: z.nullable(z.number().check(z.gte(0))),
  providerDurationMs: Count,
  apiDurationMs: Count,
  turns: Count,
});
export type WorkerUsage = z.infer<typeof WorkerUsage>;

/**
 * The provider's own final answer as the wrapper saw it (docs/team.md "exec"):
 * `source` where it came from (`claude-result`: the final `result` event;
 * `codex-last-message`: the `--output-last-message` file, else the last
 * `agent_message` item); `chars` its length; `wroteResult` true when the
 * worker ended without its result file and the wrapper wrote this answer
 * there (atomically).
 */
export const ProviderAnswer = z.object({
  source: z.enum(['claude-result', 'codex-last-message']),
  chars: NonNegativeInt,
  wroteResult: z.boolean(),
});
export type ProviderAnswer = z.infer<typeof ProviderAnswer>;

/** How a provider's turn ended, normalized over providers (see {@link EndOfTurn}). */
export const END_OF_TURN_SIGNALS = ['end-turn', 'max-tokens', 'max-turns', 'refusal', 'error', 'none'] as const;
export const EndOfTurnSignal = z.enum(END_OF_TURN_SIGNALS);
export type EndOfTurnSignal = z.infer<typeof EndOfTurnSignal>;

/**
 * The provider's own end-of-turn signal as the wrapper read it from the
 * event stream (docs/team.md "exec", "End of turn"): what other readers judge a
 * truncated answer or a non-answer by, instead of the answer's language.
 * - `signal`: `end-turn` — the model finished its turn (claude `result/success`
 *   with `stop_reason` `end_turn`, `stop_sequence`, `tool_use` or none; codex
 *   `turn.completed`) — the only value that says the answer is whole;
 *   `max-tokens` — cut off by the output limit (claude `stop_reason:
 *   max_tokens`); `max-turns` — stopped by the turn limit (claude
 *   `result/error_max_turns`, `terminal_reason: max_turns`); `refusal`
 *   (claude `stop_reason: refusal`); `error` — the provider ended its turn in
 *   error (claude `is_error` or another error subtype; codex `turn.failed`);
 *   `none` — the stream ended with no terminal event (killed, crashed, cut off).
 * - `event`: the event the signal was read from (`result/success`,
 *   `result/error_max_turns`, `turn.completed`, `turn.failed`); null for `none`.
 * - `stopReason`: the provider's own word — claude's `stop_reason`, else its
 *   `terminal_reason`; null when it gave none (codex gives none).
 * - `errors`: the provider's error events, in order (claude result
 *   `errors[]`; codex `error` and `turn.failed` messages), each cut to 400
 *   characters, at most 10 (the last ones kept).
 */
export const EndOfTurn = z.object({
  source: ReadingCaptureKind,
  signal: EndOfTurnSignal,
  event: z.nullable(z.string()),
  stopReason: z.nullable(z.string()),
  errors: z.array(z.string()),
});
export type EndOfTurn = z.infer<typeof EndOfTurn>;
