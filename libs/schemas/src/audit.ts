import * as z from './zod.js';
import { NonEmptyString, NonNegativeInt, PositiveInt } from './common.js';
import { defineArtifact } from './artifact.js';

/**
 * One run-audit violation (docs/run-audit.md "Output"): which invariant, which
 * run, a one-line message and the project-relative paths of the artifacts that
 * show it. `seq` is the zero-padded run seq, or null when the run-manifest name
 * itself could not be parsed; `stage` is the implementation stage (`stage-<N>/`
 * directory, else the run-manifest's `stage`), absent when the run has none.
 */
export const AuditViolation = z.looseObject({
  invariant: NonEmptyString,
  taskKey: NonEmptyString,
  taskType: NonEmptyString,
  seq: z.nullable(z.string()),
  stage: z.optional(PositiveInt),
  runDir: NonEmptyString,
  message: NonEmptyString,
  evidence: z.array(z.string()),
});
export type AuditViolation = z.infer<typeof AuditViolation>;

/**
 * One fact-table edge run-audit could not compare in a run (docs/run-audit.md "The fact graph"): one end is
 * recorded, the other (`missing`, `<artifact>#<path>`) is not; `key` is the worker or pane it was to be compared for.
 */
export const AuditUnchecked = z.looseObject({
  edge: NonEmptyString,
  key: z.optional(z.string()),
  missing: NonEmptyString,
  taskKey: NonEmptyString,
  taskType: NonEmptyString,
  seq: z.nullable(z.string()),
  stage: z.optional(PositiveInt),
  runDir: NonEmptyString,
});
export type AuditUnchecked = z.infer<typeof AuditUnchecked>;

/**
 * `okstra run-audit --json` output (seed 000 `/okstra-inspect` README row,
 * `run_audit.py` module row; docs/run-audit.md). `ok` is true exactly when
 * `violations` and `runsSkipped` are empty; `runsScanned` counts run-manifests found; `unchecked` lists the fact
 * edges that could not be compared because one end is not recorded (they are no violation).
 */
export const RunAuditReport = z.looseObject({
  ok: z.boolean(),
  projectRoot: NonEmptyString,
  runsScanned: NonNegativeInt,
  /** Places that may hold runs but could not be looked into; `ok` is false unless empty (absent in reports before 0.2). */
  runsSkipped: z.optional(z.array(z.looseObject({ path: NonEmptyString, reason: NonEmptyString }))),
  violations: z.array(AuditViolation),
  /** Fact-table edges left unchecked in the runs scanned, in scan order (absent from reports written before it). */
  unchecked: z.optional(z.array(AuditUnchecked)),
});
export type RunAuditReport = z.infer<typeof RunAuditReport>;

export const runAuditReportArtifact = defineArtifact('run-audit-report', ['1.0'], 'okstra run-audit --json output', RunAuditReport);

/**
 * One worker-audit-check failure (seed 000 0.161.0 `worker-audit-check` row;
 * docs/worker-audit-check.md): the worker, the rule id, the file and a message;
 * `citation` is the backticked `path:line` for `evidence-row-missing`.
 */
export const WorkerAuditFailure = z.looseObject({
  worker: NonEmptyString,
  rule: z.enum([
    'result-missing',
    'reading-confirmation-heading',
    'audit-sidecar-missing',
    'evidence-row-missing',
    'citation-not-found',
    'citation-out-of-range',
  ]),
  file: NonEmptyString,
  message: NonEmptyString,
  citation: z.optional(z.string()),
});
export type WorkerAuditFailure = z.infer<typeof WorkerAuditFailure>;

/**
 * One worker's citations as `worker-audit-check` checked them (docs/worker-audit-check.md "Citations
 * checked"): counts, and the citations that do not hold or that the worker's own tools never read.
 * `status` is `unchecked` (with `reason`) when the project has nothing to check against.
 */
export const WorkerCitations = z.looseObject({
  worker: NonEmptyString,
  status: z.enum(['checked', 'unchecked']),
  reason: z.optional(z.string()),
  cited: z.int(),
  exist: z.int(),
  inRange: z.int(),
  quoted: z.int(),
  match: z.int(),
  /** Read or searched by the worker's own tools; `unknown` without an evidence file (native-session workers). */
  read: z.union([z.int(), z.literal('unknown')]),
  holding: z.int(),
  notHolding: z.array(z.looseObject({ citation: z.string(), problem: z.string() })),
  notRead: z.array(z.string()),
});
export type WorkerCitations = z.infer<typeof WorkerCitations>;

/** `okstra worker-audit-check` output: `{ok, failures[], citations[]}`; exit 2 when failures is non-empty. */
export const WorkerAuditCheckReport = z.looseObject({
  ok: z.boolean(),
  failures: z.array(WorkerAuditFailure),
  citations: z.optional(z.array(WorkerCitations)),
});
export type WorkerAuditCheckReport = z.infer<typeof WorkerAuditCheckReport>;

export const workerAuditCheckArtifact = defineArtifact('worker-audit-check-report', ['1.0'], 'okstra worker-audit-check output', WorkerAuditCheckReport);
