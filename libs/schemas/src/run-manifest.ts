import { z } from 'zod';
import { defineArtifact } from './artifact.js';
import { ArtifactPath, ProviderId, Seq, TaskKeyString, TaskType, Timestamp, WorkerId } from './common.js';
import { DispatchKind } from './jobs-file.js';
import { REPORT_AUTHORS } from './vocabulary.js';

/** Run status (docs/contracts.md §4). */
export const RunStatus = z.enum(['running', 'completed', 'failed', 'aborted']);
export type RunStatus = z.infer<typeof RunStatus>;

/** How an assignment runs: inside the host session or through the provider's CLI wrapper (0.161.0 seed; docs/team.md "exec"). */
export const Runner = z.enum(['native-session', 'cli-wrapper']);

/** A lead or worker assignment: provider, model, its execution value, and runner. */
export const Assignment = z.looseObject({
  workerId: WorkerId.optional(),
  role: z.string().min(1),
  provider: ProviderId,
  model: z.string().min(1),
  executionValue: z.string().min(1),
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
  paneId: z.string().nullable().optional(),
  startedAt: Timestamp,
  degradedFrom: z.enum(['tmux-pane', 'cmux-pane']).nullable().optional(),
  reason: z.string().nullable().optional(),
  pid: z.number().int().nullable().optional(),
  promptPath: ArtifactPath.optional(),
  jobsFile: ArtifactPath.nullable().optional(),
  /** okstra-team: the okstra-generated job file the wrapper ran (`exec --job`). */
  jobPath: ArtifactPath.optional(),
  /** okstra-team: `/proc` start time of `pid` (degraded subprocess), so a recycled pid is not taken for the wrapper. */
  pidStartTime: z.string().nullable().optional(),
  /** okstra-team: the tmux server socket path and session of a `tmux-pane` dispatch. */
  tmuxSocket: z.string().nullable().optional(),
  tmuxSession: z.string().nullable().optional(),
  /** okstra-team: true when the pane lives in a detached session okstra created (removed with its last pane). */
  sessionCreated: z.boolean().optional(),
  /** okstra-team: the cmux surface of a `cmux-pane` dispatch. */
  surfaceId: z.string().nullable().optional(),
  /** okstra-team: when teardown closed this pane (a second teardown skips it). */
  tornDownAt: Timestamp.nullable().optional(),
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
  stage: z.number().int().min(1).nullable().optional(),
  status: RunStatus,
  startedAt: Timestamp,
  endedAt: Timestamp.nullable().optional(),
  teamStatePath: ArtifactPath,
  reportAuthor: z.enum(REPORT_AUTHORS).nullable().optional(),
  leadRuntime: z.string().min(1),
  terminalBackend: z.enum(['tmux-pane', 'cmux-pane', 'none']).default('none'),
  hostRuntime: z.string().min(1),
  leadAssignment: Assignment,
  workerAssignments: z.array(Assignment),
  workerDispatches: z.array(WorkerDispatch).default([]),
});
export type RunManifest = z.infer<typeof RunManifest>;

export const runManifestArtifact = defineArtifact('run-manifest', ['1.0'], 'okstra run-manifest', RunManifest);
