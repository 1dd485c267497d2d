/**
 * The fact graph (issue #38; docs/run-audit.md "The fact graph"): every fact a seed-named artifact records that
 * another artifact — or another field or record of the same one — records too, where each copy lives, which copy
 * is authoritative, and how the two must relate. The checks (checks/facts.ts) and the mutation generator
 * (test-support/mutants/edges.ts) both read this table; docs/run-audit.md renders it (facts/render.ts, kept in
 * sync by facts.spec.ts). An end is `<artifact>#<path>` (facts/path.ts); the first end is the authoritative copy.
 */
import type { InvariantId } from '../invariants.js';

/** The artifacts ends live in, with where each lives (libs/paths builds every name). */
export const FACT_ARTIFACTS = {
  'run-manifest': 'manifests/run-manifest-<type>-<seq>.json',
  'team-state': 'state/team-state-<type>-<seq>.json',
  'status-sidecar': "prompts/<worker>-prompt-<type>-<seq>.status.json, the row's current dispatch's only",
  'report-writer-jobs': 'state/report-writer-jobs-<type>-<seq>.json',
  'reverify-jobs': 'state/reverify-jobs-r<N>-<type>-<seq>.json',
  'report-data': 'reports/final-report-<type>-<seq>.data.json',
  report: 'reports/final-report-<type>-<seq>.md (frontmatter, `## 1. Clarification Items`, text)',
  'convergence-groups': 'state/convergence-groups-<type>-<seq>.json',
  'convergence-plan': 'state/convergence-plan-r<N>-<type>-<seq>.json',
  'convergence-final': 'state/convergence-final-<type>-<seq>.json',
  'audit-sidecar': "the row's auditSidecarPath (`- PROGRESS:` heartbeats)",
  'worker-result': "the completed row's resultPath, else worker-results/<worker>-<type>-<seq>.md",
  'errors-log': '<task-root>/errors-*.jsonl',
  'plan-items': 'state/plan-items-<type>-<seq>.json',
  carry: 'runs/implementation/carry/stage-<N>.json',
} as const;
export type FactArtifact = keyof typeof FACT_ARTIFACTS;

/**
 * How two ends relate. Keyed ends are compared key by key (a worker id, a pane); an unkeyed end (`''`) holds
 * for every key of the other.
 * - `equal`: the same value (`normalize`); `same-instant`: the same instant.
 * - `subset`: every value of the second end is one of the first's; `covers`: every value of the first is one of the second's.
 * - `not-before` / `not-after`: the second end's instant is not before / after the first's (`toleranceS`).
 * - `path-names-key`: the second end is a path whose file name names the first end's worker.
 * - `in-run`: the second end is a path inside the run's directory.
 * - `one-owner`: no two keys hold one value at once (a pane is one worker's until it is torn down).
 * - `counts`: the first end (a count) is not below the number of the second end's started records for its key.
 * - `retry-has-base`: each `<kind>-retry` of the first end follows a `<kind>` record of its key.
 * - `retry-counts-failure`: a key with a `-retry` dispatch in the second end counts at least one failure in the first.
 * - `exit-agrees`: `completed` in the first end exactly when the second says exit code 0 and no signal.
 * - `duration`: the first end is the second's elapsed milliseconds (`toleranceS`).
 * - `terminal-agrees`: a row that ended failed has no current sidecar that says `completed` and ended before it.
 * - `cited-in`: every id of the first end's kind (`F-…`, as its ids are written) the second end's text cites is one of the first end's.
 * - `all-cited`: when the second end's text cites any id of the first end's kind, it cites every one of the first end's.
 * - `not-a-copy`: the second end's text is none of the first end's texts, and has none of their shapes.
 * - `ended-turn`: the second end (a completed answer) is backed by a first end (the provider's end-of-turn signal) of `end-turn`.
 */
export type FactRelation =
  | 'equal'
  | 'same-instant'
  | 'subset'
  | 'covers'
  | 'not-before'
  | 'not-after'
  | 'path-names-key'
  | 'in-run'
  | 'one-owner'
  | 'counts'
  | 'retry-has-base'
  | 'retry-counts-failure'
  | 'exit-agrees'
  | 'duration'
  | 'terminal-agrees'
  | 'cited-in'
  | 'all-cited'
  | 'not-a-copy'
  | 'ended-turn';

export interface FactEdge {
  /** Stable id (`<fact>`), used in `--json` `unchecked[]` and mutant ids. */
  id: string;
  /** The fact in words. */
  fact: string;
  /** The authoritative copy. */
  a: string;
  /** The copy that must agree with it (the same artifact's other field or record for a one-artifact fact). */
  b: string;
  relation: FactRelation;
  /** The invariant a disagreement is reported under. */
  invariant: InvariantId;
  /** The seed rule that fixes the fact (docs/run-audit.md "Seed rules → invariants"). */
  rule: string;
  /**
   * `edge`: checked by checks/facts.ts's generic comparison; otherwise the check that owns the comparison
   * (it predates the table, or needs more than two ends), which the generator still mutates edge by edge.
   */
  checkedBy: 'edge' | `check ${string}`;
  /** `role`: role labels compared by the capability the roles vocabulary gives them (libs/schemas roles.ts), else case and separators aside. */
  normalize?: 'role';
  toleranceS?: number;
  /** The task types whose runs record the fact (every type when absent). */
  taskTypes?: readonly string[];
  /** A value of the first end that says nothing (a `terminalBackend` of `none`). */
  silentA?: readonly string[];
  /** A value of the second end that is not compared (data.json's `approved: false`: the user approves the report later). */
  silentB?: readonly string[];
}

const W = '[@workerId]';
const ASSIGNED = 'run-manifest#workerAssignments[@workerId|provider]';
const RECORDS = 'run-manifest#workerDispatches[@workerId]';
const ROWS = `team-state#workers${W}`;
/** The rows of workers that were dispatched (a `not-run` row's times are not a dispatch's). */
const ATTEMPTED = `team-state#workers[?status=in-progress|completed|timeout|error]${W}`;

export const FACT_EDGES: readonly FactEdge[] = [
  // ── which run: task key, type, seq
  {
    id: 'team-state-task-key',
    fact: "the team-state's run",
    a: 'run-manifest#taskKey',
    b: 'team-state#taskKey',
    relation: 'equal',
    invariant: 'foreign-artifact',
    rule: 'S24',
    checkedBy: 'check provenance.ts (18)',
  },
  {
    id: 'team-state-seq',
    fact: "the team-state's run",
    a: 'run-manifest#seq',
    b: 'team-state#seq',
    relation: 'equal',
    invariant: 'foreign-artifact',
    rule: 'S24',
    checkedBy: 'check provenance.ts (18)',
  },
  {
    id: 'report-data-task-key',
    fact: "data.json's run",
    a: 'run-manifest#taskKey',
    b: 'report-data#taskKey',
    relation: 'equal',
    invariant: 'foreign-artifact',
    rule: 'S24',
    checkedBy: 'check provenance.ts (18)',
  },
  {
    id: 'report-data-seq',
    fact: "data.json's run",
    a: 'run-manifest#seq',
    b: 'report-data#seq',
    relation: 'equal',
    invariant: 'foreign-artifact',
    rule: 'S24',
    checkedBy: 'check provenance.ts (18)',
  },
  {
    id: 'final-task-key',
    fact: "the final convergence state's run",
    a: 'run-manifest#taskKey',
    b: 'convergence-final#taskKey',
    relation: 'equal',
    invariant: 'foreign-artifact',
    rule: 'S17',
    checkedBy: 'check provenance.ts (18)',
  },
  {
    id: 'errors-line-task',
    fact: 'the run an errors-log line names (task key, type, seq)',
    a: 'run-manifest#taskKey',
    b: 'errors-log#taskKey',
    relation: 'equal',
    invariant: 'failure-unlogged',
    rule: 'S30',
    checkedBy: 'check run-context.ts failureLogged (28)',
  },
  {
    id: 'carry-stage',
    fact: 'the stage a carry file is for',
    a: 'run-manifest#stage',
    b: 'carry#stage',
    relation: 'equal',
    invariant: 'stage-carry-missing',
    rule: 'S23',
    checkedBy: 'check dispatch.ts (11)',
  },
  // ── who: worker ↔ assignment ↔ row ↔ jobs file
  {
    id: 'row-provider',
    fact: "a worker's provider",
    a: `${ASSIGNED}.provider`,
    b: `${ROWS}.provider`,
    relation: 'equal',
    invariant: 'roster-mismatch',
    rule: 'S3',
    checkedBy: 'check agreement.ts checkRoster (24)',
  },
  {
    id: 'row-model',
    fact: "a worker's model",
    a: `${ASSIGNED}.model`,
    b: `${ROWS}.model`,
    relation: 'equal',
    invariant: 'roster-mismatch',
    rule: 'S29',
    checkedBy: 'edge',
  },
  {
    id: 'row-role',
    fact: "a worker's role",
    a: `${ASSIGNED}.role`,
    b: `${ROWS}.role`,
    relation: 'equal',
    normalize: 'role',
    invariant: 'roster-mismatch',
    rule: 'S3',
    checkedBy: 'edge',
  },
  {
    id: 'writer-job-provider',
    fact: "the report writer's provider",
    a: `${ASSIGNED}.provider`,
    b: 'report-writer-jobs#jobs[@workerId].provider',
    relation: 'equal',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'writer-job-row-provider',
    fact: "the report writer's provider",
    a: `${ROWS}.provider`,
    b: 'report-writer-jobs#jobs[@workerId].provider',
    relation: 'equal',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'writer-job-model',
    fact: "the report writer's execution value",
    a: `${ASSIGNED}.executionValue`,
    b: 'report-writer-jobs#jobs[@workerId].modelExecutionValue',
    relation: 'equal',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'writer-job-role',
    fact: "the report writer's role",
    a: `${ROWS}.role`,
    b: 'report-writer-jobs#jobs[@workerId].role',
    relation: 'equal',
    normalize: 'role',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'writer-job-prompt',
    fact: "the prompt a job runs is its worker's",
    a: 'report-writer-jobs#jobs[@workerId].workerId',
    b: 'report-writer-jobs#jobs[@workerId].promptPath',
    relation: 'path-names-key',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'writer-job-result',
    fact: "the result a job writes is its worker's",
    a: 'report-writer-jobs#jobs[@workerId].workerId',
    b: 'report-writer-jobs#jobs[@workerId].workerResultPath',
    relation: 'path-names-key',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'writer-job-completion-in-run',
    fact: "a job's completion paths are this run's files",
    a: 'report-writer-jobs#jobs[@workerId].workerId',
    b: 'report-writer-jobs#jobs[@workerId].completionPaths[*]',
    relation: 'in-run',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'reverify-job-provider',
    fact: "a re-verifier's provider",
    a: `${ASSIGNED}.provider`,
    b: 'reverify-jobs#jobs[@workerId].provider',
    relation: 'equal',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'reverify-job-model',
    fact: "a re-verifier's execution value",
    a: `${ASSIGNED}.executionValue`,
    b: 'reverify-jobs#jobs[@workerId].modelExecutionValue',
    relation: 'equal',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'reverify-job-prompt',
    fact: "the prompt a job runs is its worker's",
    a: 'reverify-jobs#jobs[@workerId].workerId',
    b: 'reverify-jobs#jobs[@workerId].promptPath',
    relation: 'path-names-key',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  {
    id: 'reverify-job-completion-in-run',
    fact: "a job's completion paths are this run's files",
    a: 'reverify-jobs#jobs[@workerId].workerId',
    b: 'reverify-jobs#jobs[@workerId].completionPaths[*]',
    relation: 'in-run',
    invariant: 'report-content',
    rule: 'S14',
    checkedBy: 'edge',
  },
  // ── where: worker ↔ pane ↔ prompt
  {
    id: 'record-prompt',
    fact: "the prompt a dispatch launched is its worker's",
    a: `${RECORDS}.workerId`,
    b: `${RECORDS}.promptPath`,
    relation: 'path-names-key',
    invariant: 'dispatch-mismatch',
    rule: 'S11',
    checkedBy: 'edge',
  },
  {
    id: 'pane-owner',
    fact: 'a pane is one worker’s until it is torn down',
    a: 'run-manifest#workerDispatches[@paneId].workerId',
    b: 'run-manifest#workerDispatches[@paneId].workerId',
    relation: 'one-owner',
    invariant: 'dispatch-mismatch',
    rule: 'S15',
    checkedBy: 'edge',
  },
  {
    id: 'record-degraded-from',
    fact: 'the backend a dispatch degraded from is the run’s',
    a: 'run-manifest#terminalBackend',
    b: 'run-manifest#workerDispatches[@workerId].degradedFrom',
    relation: 'equal',
    silentA: ['none'],
    invariant: 'degraded-without-reason',
    rule: 'S13',
    checkedBy: 'edge',
  },
  {
    id: 'record-pane-backend',
    fact: 'a pane dispatch runs on the run’s terminal backend',
    a: 'run-manifest#terminalBackend',
    b: 'run-manifest#workerDispatches[?backend=tmux-pane|cmux-pane][@workerId].backend',
    relation: 'equal',
    silentA: ['none'],
    invariant: 'dispatch-mismatch',
    rule: 'S13',
    checkedBy: 'edge',
  },
  {
    id: 'record-subprocess-degraded',
    fact: 'a subprocess dispatch in a pane run records its fallback',
    a: 'run-manifest#terminalBackend',
    b: 'run-manifest#workerDispatches[?backend=subprocess][@workerId].degradedFrom',
    relation: 'equal',
    invariant: 'dispatch-mismatch',
    rule: 'S13',
    checkedBy: 'check agreement.ts (23)',
  },
  // ── when: dispatch ↔ row ↔ sidecar ↔ run
  {
    id: 'record-kind',
    fact: "a worker's current dispatch kind",
    a: `${ATTEMPTED}.dispatchKind`,
    b: 'run-manifest#workerDispatches[@workerId:last].dispatchKind',
    relation: 'equal',
    invariant: 'dispatch-mismatch',
    rule: 'S34',
    checkedBy: 'edge',
  },
  {
    id: 'record-start',
    fact: "a worker's current dispatch starts with its row",
    a: `${ATTEMPTED}.startedAt`,
    b: 'run-manifest#workerDispatches[@workerId:last].startedAt',
    relation: 'not-before',
    toleranceS: 60,
    invariant: 'dispatch-mismatch',
    rule: 'S9',
    checkedBy: 'edge',
  },
  {
    id: 'record-start-before-end',
    fact: "a worker's current dispatch starts before its row ends",
    a: `${ATTEMPTED}.endedAt`,
    b: 'run-manifest#workerDispatches[@workerId:last].startedAt',
    relation: 'not-after',
    invariant: 'dispatch-mismatch',
    rule: 'S9',
    checkedBy: 'edge',
  },
  {
    id: 'row-attempt',
    fact: "a worker's number of dispatches",
    a: `${ROWS}.attempt`,
    b: `${RECORDS}.startedAt`,
    relation: 'counts',
    invariant: 'dispatch-mismatch',
    rule: 'S10',
    checkedBy: 'edge',
  },
  {
    id: 'retry-base',
    fact: 'a retry follows the dispatch it retries',
    a: `${RECORDS}.dispatchKind`,
    b: `${RECORDS}.startedAt`,
    relation: 'retry-has-base',
    invariant: 'dispatch-mismatch',
    rule: 'S10',
    checkedBy: 'edge',
  },
  {
    id: 'retry-failures',
    fact: 'a retried worker counts its failure',
    a: `${ROWS}.failures`,
    b: `${RECORDS}.dispatchKind`,
    relation: 'retry-counts-failure',
    invariant: 'dispatch-mismatch',
    rule: 'S10',
    checkedBy: 'edge',
  },
  {
    id: 'row-retry-failures',
    fact: 'a retried worker counts its failure',
    a: `${ROWS}.failures`,
    b: `${ROWS}.dispatchKind`,
    relation: 'retry-counts-failure',
    invariant: 'dispatch-mismatch',
    rule: 'S10',
    checkedBy: 'edge',
  },
  {
    id: 'teardown-after-end',
    fact: "a pane's teardown follows its worker's end",
    a: `${ATTEMPTED}.endedAt`,
    b: 'run-manifest#workerDispatches[@workerId:last].tornDownAt',
    relation: 'not-before',
    invariant: 'dispatch-mismatch',
    rule: 'S15',
    checkedBy: 'check agreement.ts (23)',
  },
  {
    id: 'row-start-in-run',
    fact: 'a worker starts inside its run',
    a: 'run-manifest#startedAt',
    b: `${ROWS}.startedAt`,
    relation: 'not-before',
    invariant: 'run-order',
    rule: 'S9',
    checkedBy: 'check order.ts (27)',
  },
  {
    id: 'row-end-in-run',
    fact: 'a worker ends inside its run',
    a: 'run-manifest#endedAt',
    b: `${ROWS}.endedAt`,
    relation: 'not-after',
    invariant: 'run-time-order',
    rule: 'S6',
    checkedBy: 'check run-times.ts (17)',
  },
  {
    id: 'sidecar-worker',
    fact: 'the worker a status sidecar is for',
    a: `${ATTEMPTED}.workerId`,
    b: 'status-sidecar#workerId',
    relation: 'equal',
    invariant: 'dispatch-mismatch',
    rule: 'S11',
    checkedBy: 'check agreement.ts (23)',
  },
  {
    id: 'sidecar-kind',
    fact: 'the dispatch a status sidecar is for',
    a: `${ATTEMPTED}.dispatchKind`,
    b: 'status-sidecar#dispatchKind',
    relation: 'equal',
    invariant: 'dispatch-mismatch',
    rule: 'S11',
    checkedBy: 'edge',
  },
  {
    id: 'sidecar-completed',
    fact: "a completed worker's terminal status",
    a: `${ATTEMPTED}.status`,
    b: 'status-sidecar#status',
    relation: 'equal',
    invariant: 'dispatch-mismatch',
    rule: 'S11',
    checkedBy: 'check agreement.ts (23)',
  },
  {
    id: 'sidecar-failed',
    fact: "a failed worker's terminal status",
    a: `${ATTEMPTED}.status`,
    b: 'status-sidecar#status',
    relation: 'terminal-agrees',
    invariant: 'dispatch-mismatch',
    rule: 'S11',
    checkedBy: 'edge',
  },
  {
    id: 'sidecar-exit',
    fact: 'how the provider ended: status and exit code',
    a: 'status-sidecar#status',
    b: 'status-sidecar#exitCode',
    relation: 'exit-agrees',
    invariant: 'dispatch-mismatch',
    rule: 'S11',
    checkedBy: 'edge',
  },
  {
    id: 'sidecar-duration',
    fact: 'how long the provider ran: durationMs and its times',
    a: 'status-sidecar#durationMs',
    b: 'status-sidecar#$elapsedMs',
    relation: 'duration',
    toleranceS: 1,
    invariant: 'dispatch-mismatch',
    rule: 'S11',
    checkedBy: 'edge',
  },
  {
    id: 'sidecar-start-in-row',
    fact: "a status sidecar's provider ran inside its row",
    a: `${ATTEMPTED}.endedAt`,
    b: 'status-sidecar#startedAt',
    relation: 'not-after',
    invariant: 'dispatch-mismatch',
    rule: 'S11',
    checkedBy: 'edge',
  },
  {
    id: 'sidecar-end-in-row',
    fact: "a status sidecar's provider ended with its row",
    a: `${ATTEMPTED}.endedAt`,
    b: 'status-sidecar#endedAt',
    relation: 'not-after',
    toleranceS: 60,
    invariant: 'dispatch-mismatch',
    rule: 'S11',
    checkedBy: 'check agreement.ts (23)',
  },
  {
    id: 'heartbeat-in-row',
    fact: "a worker's last heartbeat lies inside its row",
    a: `${ATTEMPTED}.endedAt`,
    b: 'audit-sidecar#$lastHeartbeat',
    relation: 'not-after',
    toleranceS: 60,
    invariant: 'heartbeat-cadence',
    rule: 'S9',
    checkedBy: 'edge',
  },
  {
    id: 'data-generated-in-run',
    fact: 'data.json is generated inside its run',
    a: 'run-manifest#endedAt',
    b: 'report-data#frontmatter.generatedAt',
    relation: 'not-after',
    toleranceS: 60,
    invariant: 'report-content',
    rule: 'S32',
    checkedBy: 'edge',
  },
  {
    id: 'data-generated-after-start',
    fact: 'data.json is generated after its run started',
    a: 'run-manifest#startedAt',
    b: 'report-data#frontmatter.generatedAt',
    relation: 'not-before',
    invariant: 'report-content',
    rule: 'S32',
    checkedBy: 'edge',
  },
  // ── what: results are answers, not other artifacts
  {
    id: 'result-not-artifact',
    fact: 'a result is its worker’s answer, not another artifact',
    a: 'status-sidecar#$text',
    b: 'worker-result#$text',
    relation: 'not-a-copy',
    invariant: 'answer-invalid',
    rule: 'S11',
    checkedBy: 'edge',
  },
  {
    id: 'result-end-of-turn',
    fact: "a completed worker's answer ended its provider's turn",
    a: 'status-sidecar#endOfTurn.signal',
    b: 'worker-result#$text',
    relation: 'ended-turn',
    invariant: 'answer-invalid',
    rule: 'S11',
    checkedBy: 'check answers.ts (21)',
  },
  // ── the report ↔ convergence state ↔ plan
  {
    id: 'report-author',
    fact: "the report's author",
    a: 'run-manifest#reportAuthor',
    b: 'report-data#frontmatter.reportAuthor',
    relation: 'equal',
    invariant: 'report-content',
    rule: 'S1',
    checkedBy: 'check report-content.ts (26)',
  },
  {
    id: 'report-approved',
    fact: 'whether the plan is approved',
    a: 'report#$approved',
    b: 'report-data#frontmatter.approved',
    relation: 'equal',
    silentB: ['false'],
    invariant: 'plan-verification',
    rule: 'S21',
    checkedBy: 'edge',
  },
  {
    id: 'plan-contributors',
    fact: 'who verified the plan',
    a: `${ROWS}.workerId`,
    b: 'report-data#implementationPlanning.planBodyVerification.contributors[*]',
    relation: 'subset',
    taskTypes: ['implementation-planning'],
    invariant: 'plan-verification',
    rule: 'S21',
    checkedBy: 'edge',
  },
  {
    id: 'report-cites-findings',
    fact: 'the findings the report cites',
    a: 'convergence-final#$ids[*]',
    b: 'report#$text',
    relation: 'cited-in',
    invariant: 'derived-mismatch',
    rule: 'S17',
    checkedBy: 'edge',
  },
  {
    id: 'data-cites-findings',
    fact: 'the findings data.json cites',
    a: 'convergence-final#$ids[*]',
    b: 'report-data#$text',
    relation: 'cited-in',
    invariant: 'derived-mismatch',
    rule: 'S17',
    checkedBy: 'edge',
  },
  {
    id: 'data-holds-agreed',
    fact: 'the agreed findings',
    a: 'convergence-final#findings[?status=agreed].id',
    b: 'report-data#$text',
    relation: 'all-cited',
    invariant: 'derived-mismatch',
    rule: 'S17',
    checkedBy: 'edge',
  },
  {
    id: 'final-holds-seeded',
    fact: 'the seeded findings',
    a: 'convergence-final#$ids[*]',
    b: 'convergence-groups#findings[*].id',
    relation: 'subset',
    invariant: 'derived-mismatch',
    rule: 'S17',
    checkedBy: 'edge',
  },
  {
    id: 'plan-seed-digest',
    fact: 'the seed a round was planned from',
    a: 'convergence-final#seedDigest',
    b: 'convergence-plan#seedDigest',
    relation: 'equal',
    invariant: 'derived-mismatch',
    rule: 'S17',
    checkedBy: 'edge',
  },
  {
    id: 'groups-seed-digest',
    fact: 'the seed the final state was reduced from',
    a: 'convergence-groups#$digest',
    b: 'convergence-final#seedDigest',
    relation: 'equal',
    invariant: 'derived-mismatch',
    rule: 'S17',
    checkedBy: 'edge',
  },
  {
    id: 'final-rounds',
    fact: 'how many rounds ran',
    a: 'convergence-plan#round',
    b: 'convergence-final#rounds',
    relation: 'covers',
    invariant: 'derived-mismatch',
    rule: 'S17',
    checkedBy: 'check convergence-derived.ts (29)',
  },
  {
    id: 'final-counts',
    fact: "the final state's counts",
    a: 'convergence-final#findings[*].status',
    b: 'convergence-final#counts',
    relation: 'equal',
    invariant: 'convergence-final',
    rule: 'S17',
    checkedBy: 'check convergence.ts validateFinalState (8)',
  },
  {
    id: 'plan-queue',
    fact: 'the P-* queue',
    a: 'report-data#implementationPlanning.planBodyVerification.planItems[*].id',
    b: 'plan-items#items[*].id',
    relation: 'equal',
    invariant: 'plan-verification',
    rule: 'S18',
    checkedBy: 'check plan-verification.ts (9)',
  },
];
