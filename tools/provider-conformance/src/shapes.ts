// Compile-time conformance (run by this package's `test`: tsc --noEmit
// first): every event the providers' SDKs declare for the kinds the wrapper
// reads is accepted by libs/providers' zod shapes, field for field.
import type { SDKAPIRetryMessage, SDKResultMessage, SDKSystemMessage } from '@anthropic-ai/claude-agent-sdk';
import type { ItemCompletedEvent, ThreadErrorEvent, ThreadStartedEvent, TurnCompletedEvent, TurnFailedEvent } from '@openai/codex-sdk';
import type {
  ClaudeApiRetryEvent,
  ClaudeInitEvent,
  ClaudeResultEvent,
  CodexError,
  CodexItemCompleted,
  CodexThreadStarted,
  CodexTurnCompleted,
  CodexTurnFailed,
} from '@okstra/providers';
import type * as z from '@okstra/schemas/zod';

type Accepts<Shape, Declared extends z.input<Shape & z.ZodMiniType>> = Declared;

export type Conformance = [
  Accepts<typeof ClaudeInitEvent, SDKSystemMessage>,
  Accepts<typeof ClaudeResultEvent, SDKResultMessage>,
  Accepts<typeof ClaudeApiRetryEvent, SDKAPIRetryMessage>,
  Accepts<typeof CodexThreadStarted, ThreadStartedEvent>,
  Accepts<typeof CodexTurnCompleted, TurnCompletedEvent>,
  Accepts<typeof CodexTurnFailed, TurnFailedEvent>,
  Accepts<typeof CodexError, ThreadErrorEvent>,
  Accepts<typeof CodexItemCompleted, ItemCompletedEvent>,
];
