import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { ArtifactPath, NonEmptyString, PositiveInt, ProviderId, Seq, TaskKeyString, TaskType, Timestamp, WorkerId } from './common.js';
import { DispatchKind } from './jobs-file.js';
import { REPORT_AUTHORS } from './vocabulary.js';

/** Run status (docs/contracts.md §4). */
export const RunStatus = z.enum(['running', 'completed', 'failed', 'aborted']);
export type RunStatus = z.infer<typeof RunStatus>;

/** How an assignment runs: inside the host session or through the provider's CLI wrapper (0.161.0 seed; docs/team.md "exec"). */
export const Runner = z.enum(['native-session', 'cli-wrapper']);

/** A lead or worker assignment: provider, model, its execution value, and runner. */
export const Assignment = z.looseObject({
  workerId: z.optional(WorkerId),
  role: NonEmptyString,
  provider: ProviderId,
  model: NonEmptyString,
  executionValue: NonEmptyString,
  runner: Runner,
});
export type Assignment = z.infer<typeof Assignment>;

/** Where a worker pane lives; `subprocess` is the degraded, pane-less wrapper. */
export const DispatchBackend = z.enum(['tmux-pane', 'cmux-pane', 'subprocess']);

/**
 * One `workerDispatches[]` record (docs/contracts.md §7, okstra-team issue):
 * what was started where, and — when a pane could not be created — what it
 * degraded from and why.
 */
export const WorkerDispatch = z.looseObject({
  dispatchKind: DispatchKind,
  workerId: WorkerId,
  backend: DispatchBackend,
  paneId: z.optional(z.nullable(z.string())),
  startedAt: Timestamp,
  degradedFrom: z.optional(z.nullable(z.enum(['tmux-pane', 'cmux-pane']))),
  reason: z.optional(z.nullable(z.string())),
  pid: z.optional(z.nullable(z.int())),
  promptPath: z.optional(ArtifactPath),
  jobsFile: z.optional(z.nullable(ArtifactPath)),
  /** okstra-team: the okstra-generated job file the wrapper ran (`exec --job`). */
  jobPath: z.optional(ArtifactPath),
  /** okstra-team: `/proc` start time of `pid` (degraded subprocess), so a recycled pid is not taken for the wrapper. */
  pidStartTime: z.optional(z.nullable(z.string())),
  /** okstra-team: the tmux server socket path and session of a `tmux-pane` dispatch. */
  tmuxSocket: z.optional(z.nullable(z.string())),
  tmuxSession: z.optional(z.nullable(z.string())),
  /** okstra-team: true when the pane lives in a detached session okstra created (removed with its last pane). */
  sessionCreated: z.optional(z.boolean()),
  /** okstra-team: the cmux surface of a `cmux-pane` dispatch. */
  surfaceId: z.optional(z.nullable(z.string())),
  /** okstra-team: when teardown closed this pane (a second teardown skips it). */
  tornDownAt: z.optional(z.nullable(Timestamp)),
  /**
   * okstra-team: `starting` — written by dispatch before it starts the worker
   * (record before act; replaced by the record of what started); `not-started`
   * — dispatch failed before starting it (`reason` says why). Absent: the
   * worker was started as recorded (docs/team.md "dispatch").
   */
  phase: z.optional(z.enum(['starting', 'not-started'])),
});
export type WorkerDispatch = z.infer<typeof WorkerDispatch>;

/**
 * `manifests/run-manifest-<type>-<seq>.json` (docs/contracts.md §4). Times are
 * ISO-8601 UTC; `endedAt` is null while running. Unknown keys are kept.
 */
export const RunManifest = z.looseObject({
  schemaVersion: z.literal('1.0'),
  taskKey: TaskKeyString,
  taskType: TaskType,
  seq: Seq,
  stage: z.optional(z.nullable(PositiveInt)),
  status: RunStatus,
  startedAt: Timestamp,
  endedAt: z.optional(z.nullable(Timestamp)),
  teamStatePath: ArtifactPath,
  reportAuthor: z.optional(z.nullable(z.enum(REPORT_AUTHORS))),
  leadRuntime: NonEmptyString,
  terminalBackend: z._default(z.enum(['tmux-pane', 'cmux-pane', 'none']), 'none'),
  hostRuntime: NonEmptyString,
  leadAssignment: Assignment,
  workerAssignments: z.array(Assignment),
  workerDispatches: z._default(z.array(WorkerDispatch), []),
  /**
   * The project commit the run's workers read (`git rev-parse HEAD` when the run started), when
   * the project is a git repository: citations are checked against it, not the working tree
   * (docs/worker-audit-check.md "Citations checked"). Absent: the working tree.
   */
  sourceCommit: z.optional(z.nullable(z.string().check(z.regex(/^[0-9a-fA-F]{7,64}$/, 'expected a git commit SHA')))),
});
export type RunManifest = z.infer<typeof RunManifest>;

export const runManifestArtifact = defineArtifact('run-manifest', ['1.0'], 'okstra run-manifest', RunManifest);
