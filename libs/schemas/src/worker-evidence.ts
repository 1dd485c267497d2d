import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { NonNegativeInt, PositiveInt, Timestamp, WorkerId } from './common.js';

/**
 * How a worker's own tool reached a file: `read` — it opened the file (Claude Code `Read`, a
 * `cat`/`sed`/`head`/… command naming it); `searched` — a search ran over the file or a directory
 * holding it (`Grep`, `rg`, `grep`); `listed` — only its name was listed (`Glob`, `ls`, `find`).
 */
export const EvidenceHow = z.enum(['read', 'searched', 'listed']);
export type EvidenceHow = z.infer<typeof EvidenceHow>;

/** One file or directory a worker's tools reached, project-relative (POSIX separators; `.` is the root). */
export const EvidenceEntry = z.looseObject({
  path: z.string().check(z.minLength(1)),
  how: EvidenceHow,
  /** The provider's tool names that reached it (`Read`, `Grep`, `Bash`, `command`), sorted. */
  tools: z.array(z.string()),
  /** The line ranges a `Read` with offset/limit opened; absent when the whole file (or unknown). */
  lines: z.optional(z.array(z.tuple([PositiveInt, PositiveInt]))),
});
export type EvidenceEntry = z.infer<typeof EvidenceEntry>;

/**
 * `prompts/<worker>-prompt-<type>-<seq>.evidence.json`, beside the status sidecar: the files a
 * cli-wrapper worker's own tool events opened, searched or listed, written by `okstra-team exec`
 * from the provider's events (Claude Code stream-json `tool_use`; Codex `command_execution` items and
 * its session record's `exec_command` calls) when the provider ends (docs/providers.md "Evidence").
 * Only paths inside the project are entries; `outside` counts the others. Read by the citation
 * checker (libs/citations) for "was read" (docs/worker-audit-check.md "Citations checked").
 */
export const WorkerEvidence = z.looseObject({
  schemaVersion: z.literal('1.0'),
  workerId: WorkerId,
  /** The capture the events were read with (`claude-stream-json`, `codex-jsonl`). */
  source: z.string(),
  /** The dispatch's wrapper start: a later dispatch's record is never overwritten by an earlier one. */
  startedAt: Timestamp,
  entries: z.array(EvidenceEntry),
  /** Tool events that named a path outside the project (not recorded). */
  outside: NonNegativeInt,
});
export type WorkerEvidence = z.infer<typeof WorkerEvidence>;

export const workerEvidenceArtifact = defineArtifact('worker-evidence', ['1.0'], 'okstra-team exec per-worker evidence file', WorkerEvidence);
