import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { ArtifactPath, NonEmptyString, NonNegativeInt, ProviderId, Seq, TaskKeyString, TaskType, Timestamp, WorkerId } from './common.js';
import { LIVENESS_MODES, WORKER_STATUSES } from './vocabulary.js';

/** Worker statuses ({@link WORKER_STATUSES}; terminality and reasons in `./vocabulary.ts`, docs/team.md). */
export const WorkerStatus = z.enum(WORKER_STATUSES);
export type WorkerStatus = z.infer<typeof WorkerStatus>;

/** Which artifact the liveness probe reads (docs/contracts.md §7). */
export const LivenessMode = z.enum(LIVENESS_MODES);
export type LivenessMode = z.infer<typeof LivenessMode>;

/**
 * One worker row of a team-state file (docs/contracts.md §7). Times are
 * ISO-8601 (okstra writes UTC); `attempt` counts dispatches (1 = first).
 * Paths are project-root-relative or absolute. Unknown keys are kept.
 */
export const TeamStateRow = z.looseObject({
  workerId: WorkerId,
  provider: ProviderId,
  role: NonEmptyString,
  model: z.optional(z.nullable(z.string())),
  status: WorkerStatus,
  startedAt: z.optional(z.nullable(Timestamp)),
  endedAt: z.optional(z.nullable(Timestamp)),
  reason: z.optional(z.nullable(z.string())),
  attempt: z._default(NonNegativeInt, 0),
  /** The dispatch kind of the row's current or last dispatch (`initial`, `reverify-r2`, …); `attempt` counts dispatches of this kind. */
  dispatchKind: z.optional(z.string()),
  livenessMode: z.optional(LivenessMode),
  auditSidecarPath: z.optional(z.nullable(ArtifactPath)),
  promptPath: z.optional(z.nullable(ArtifactPath)),
  resultPath: z.optional(z.nullable(ArtifactPath)),
  /**
   * okstra-team: failed dispatches (timeout / error / stalled / not-run) of this worker in this run, across every
   * dispatch kind — the retry budget's count (retry-budget.ts), kept apart from `attempt` (docs/team.md "Retry accounting").
   */
  failures: z.optional(NonNegativeInt),
  /** okstra-team: the current dispatch's wrapper process and its `/proc` start time (teardown's "still running" check). */
  wrapperPid: z.optional(z.nullable(z.int().check(z.positive()))),
  wrapperPidStartTime: z.optional(z.nullable(z.string())),
  /** okstra-team: the provider CLI's process group (its leader's pid) and the leader's `/proc` start time. */
  providerPgid: z.optional(z.nullable(z.int().check(z.positive()))),
  providerPidStartTime: z.optional(z.nullable(z.string())),
});
export type TeamStateRow = z.infer<typeof TeamStateRow>;

/** `state/team-state-<type>-<seq>.json`: the run's worker rows, one per worker id. */
export const TeamState = z
  .looseObject({
    schemaVersion: z.literal('1.0'),
    taskKey: z.optional(TaskKeyString),
    taskType: TaskType,
    seq: Seq,
    workers: z.array(TeamStateRow),
  })
  .check(
    z.superRefine((state, ctx) => {
      const seen = new Set<string>();
      state.workers.forEach((row, i) => {
        if (seen.has(row.workerId)) {
          ctx.addIssue({ code: 'custom', path: ['workers', i, 'workerId'], message: `duplicate worker id '${row.workerId}'` });
        }
        seen.add(row.workerId);
      });
    }),
  );
export type TeamState = z.infer<typeof TeamState>;

export const teamStateArtifact = defineArtifact('team-state', ['1.0'], 'okstra team-state file', TeamState);
