import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { NonNegativeInt, Timestamp, WorkerId } from './common.js';
import { DispatchKind } from './jobs-file.js';
import { EndOfTurn, ProviderAnswer, WorkerUsage } from './worker-usage.js';

/**
 * `prompts/<worker>-prompt-<type>-<seq>.status.json`, written atomically by
 * `okstra-team exec` when the provider CLI ends (docs/contracts.md §4, §7).
 * `status` is the wrapper's verdict: `completed` only for exit 0 with every
 * required completion path present. Times ISO-8601 UTC; `durationMs` in ms.
 * `usage` is what the provider reported about its run ({@link WorkerUsage},
 * null when its capture read nothing); `answer` its final answer as captured
 * ({@link ProviderAnswer}, null when it gave none); `endOfTurn` the
 * provider's own end-of-turn signal ({@link EndOfTurn}, null when its
 * capture reads no events). All three are absent in sidecars written before
 * they existed (docs/team.md "exec").
 */
export const WrapperStatus = z.looseObject({
  schemaVersion: z.literal('1.0'),
  workerId: WorkerId,
  dispatchKind: DispatchKind,
  status: z.enum(['completed', 'error']),
  exitCode: z.nullable(z.int()),
  signal: z.nullable(z.string()),
  startedAt: Timestamp,
  endedAt: Timestamp,
  durationMs: NonNegativeInt,
  reason: z.nullable(z.string()),
  usage: z.optional(z.nullable(WorkerUsage)),
  answer: z.optional(z.nullable(ProviderAnswer)),
  endOfTurn: z.optional(z.nullable(EndOfTurn)),
});
export type WrapperStatus = z.infer<typeof WrapperStatus>;

export const wrapperStatusArtifact = defineArtifact('wrapper-status', ['1.0'], 'okstra-team exec status sidecar', WrapperStatus);
