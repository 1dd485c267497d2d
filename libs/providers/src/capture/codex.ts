import * as z from '@okstra/schemas/zod';

/**
 * The `codex exec --json` events the wrapper reads (docs/providers.md
 * "Capture"), as declared by `@openai/codex-sdk` (`ThreadEvent`):
 * `thread.started` (the session id), `turn.completed` (token usage),
 * `turn.failed` and `error` (why a run failed), `item.completed` with an
 * `agent_message` item (the answer when no last-message file was written).
 * tools/provider-conformance checks these shapes against those declarations.
 */
export const CodexThreadStarted = z.looseObject({ type: z.literal('thread.started'), thread_id: z.string() });

const Tokens = z.int().check(z.gte(0));

export const CodexTurnCompleted = z.looseObject({
  type: z.literal('turn.completed'),
  usage: z.looseObject({
    input_tokens: Tokens,
    cached_input_tokens: Tokens,
    /** Declared by codex-sdk 0.163; older CLIs omit it. */
    cache_write_input_tokens: z.optional(Tokens),
    output_tokens: Tokens,
    reasoning_output_tokens: z.optional(Tokens),
  }),
});

export const CodexTurnFailed = z.looseObject({ type: z.literal('turn.failed'), error: z.looseObject({ message: z.string() }) });

export const CodexError = z.looseObject({ type: z.literal('error'), message: z.string() });

export const CodexItemCompleted = z.looseObject({
  type: z.literal('item.completed'),
  item: z.looseObject({ id: z.string(), type: z.string(), text: z.optional(z.string()) }),
});

/** One event of those the wrapper reads; anything else is skipped. */
export const CodexEvent = z.discriminatedUnion('type', [CodexThreadStarted, CodexTurnCompleted, CodexTurnFailed, CodexError, CodexItemCompleted]);
export type CodexEvent = z.infer<typeof CodexEvent>;
