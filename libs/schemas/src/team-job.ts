import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { NonEmptyString, Timestamp, WorkerId } from './common.js';
import { DispatchKind } from './jobs-file.js';
import { CaptureKind } from './worker-usage.js';
import { ProviderEnv } from './provider-manifest.js';
import { AnswerKind } from './answers.js';

/**
 * The okstra-generated job file one pane runs (`okstra-team exec --job
 * <file>`): everything the wrapper needs, already resolved by dispatch, so
 * the pane's argv carries nothing but this file's path. Paths are absolute;
 * `command` is the provider launch (executable + argv, placeholders filled).
 * `capture` says how the wrapper reads the provider's answer and usage
 * (absent = `none`); `lastMessagePath` is where a codex-style CLI writes its
 * last message (`--output-last-message`), null when the launch has none.
 * `structuredAnswer` (a schema-bound launch only; docs/providers.md
 * "Structured output"): the answer's kind and where the wrapper records the
 * object it read (`answerRecordPath`, beside the result).
 */
export const TeamJob = z.looseObject({
  schemaVersion: z.literal('1.0'),
  dispatchKind: DispatchKind,
  workerId: WorkerId,
  provider: NonEmptyString,
  role: NonEmptyString,
  model: NonEmptyString,
  projectRoot: NonEmptyString,
  teamStatePath: NonEmptyString,
  promptPath: NonEmptyString,
  resultPath: NonEmptyString,
  completionPaths: z.array(NonEmptyString).check(z.minLength(1)),
  promptDelivery: z.enum(['stdin', 'argument']),
  /** `env`: the provider manifest's `env`, set over the pane's environment for the CLI only. */
  command: z.object({ file: NonEmptyString, args: z.array(z.string()), env: z.optional(ProviderEnv) }),
  /** The row's `startedAt` set by this dispatch: the wrapper's transition applies only to it. */
  rowStartedAt: Timestamp,
  capture: z.optional(CaptureKind),
  lastMessagePath: z.optional(z.nullable(NonEmptyString)),
  structuredAnswer: z.optional(z.nullable(z.object({ kind: AnswerKind, recordPath: NonEmptyString }))),
});
export type TeamJob = z.infer<typeof TeamJob>;

export const teamJobArtifact = defineArtifact('team-job', ['1.0'], 'okstra-team exec job file', TeamJob);
