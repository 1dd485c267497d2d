import * as z from '@okstra/schemas/zod';

/**
 * The Claude Code `-p --output-format=stream-json --verbose` events the
 * wrapper reads (docs/providers.md "Capture"), as declared by
 * `@anthropic-ai/claude-agent-sdk` (`SDKSystemMessage`, `SDKResultMessage`);
 * tools/provider-conformance checks these shapes against those declarations
 * at compile time and against the real CLI. Unread fields pass through.
 */
export const ClaudeInitEvent = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  session_id: z.string(),
  model: z.string(),
  permissionMode: z.string(),
  cwd: z.string(),
});
export type ClaudeInitEvent = z.infer<typeof ClaudeInitEvent>;

const Tokens = z.int().check(z.gte(0));

/** The final `result` event (`SDKResultSuccess` | `SDKResultError`). */
export const ClaudeResultEvent = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean(),
  /** Present on `subtype: 'success'` — the final answer text (or, with `is_error`, the error text). */
  result: z.optional(z.string()),
  /** Present on the error subtypes. */
  errors: z.optional(z.array(z.string())),
  /** The model's last stop reason (`end_turn`, `max_tokens`, `refusal`, …); read for the end-of-turn signal. */
  stop_reason: z.optional(z.nullable(z.string())),
  /** With `--json-schema`: the answer object the CLI validated against the schema (docs/providers.md "Structured output"). */
  structured_output: z.optional(z.unknown()),
  /** Why the turn loop ended (`completed`, `max_turns`, …; absent from older CLIs). */
  terminal_reason: z.optional(z.string()),
  session_id: z.string(),
  duration_ms: z.number().check(z.gte(0)),
  duration_api_ms: z.number().check(z.gte(0)),
  num_turns: z.int().check(z.gte(0)),
  total_cost_usd: z.number().check(z.gte(0)),
  usage: z.looseObject({
    input_tokens: Tokens,
    output_tokens: Tokens,
    cache_creation_input_tokens: Tokens,
    cache_read_input_tokens: Tokens,
  }),
  modelUsage: z.record(z.string(), z.looseObject({ outputTokens: z.number() })),
});
export type ClaudeResultEvent = z.infer<typeof ClaudeResultEvent>;

/**
 * `system/api_retry` (`SDKAPIRetryMessage`): Claude Code is retrying a model
 * request. `error_status: null` means no HTTP answer at all — the model
 * could not be reached (connection refused, DNS, TLS); the wrapper's
 * fail-fast rule reads it (docs/team.md "exec").
 */
export const ClaudeApiRetryEvent = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('api_retry'),
  attempt: z.number(),
  error_status: z.nullable(z.number()),
  error: z.string(),
});
export type ClaudeApiRetryEvent = z.infer<typeof ClaudeApiRetryEvent>;
