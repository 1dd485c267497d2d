/**
 * The run-audit invariant catalogue (docs/run-audit.md; issue 6 list 1–12,
 * plus 0 for unreadable artifacts, 13 for the worker audit-sidecar rules
 * shared with worker-audit-check, 14–18 from issue 15, 19 from issue 20, 20 from issue 29, 21–29 from issue 24: evidence over claims). `number` orders violations inside a run.
 */
export const INVARIANTS = [
  { number: 0, id: 'artifact-invalid', summary: 'a run artifact does not parse or does not match its schema' },
  { number: 1, id: 'report-missing', summary: 'a completed run has no final report (.md or .data.json)' },
  { number: 2, id: 'worker-not-terminal', summary: 'a worker row is still pending/in-progress after the run ended' },
  { number: 3, id: 'worker-times', summary: 'a terminal worker row has no endedAt, or endedAt before startedAt' },
  { number: 4, id: 'reason-missing', summary: 'a timeout/error/not-run worker row has no reason' },
  { number: 5, id: 'prompt-missing', summary: 'an attempted worker (completed/timeout/error) has no saved prompt file' },
  { number: 6, id: 'result-missing', summary: 'a completed worker has no result file' },
  { number: 7, id: 'lead-report-unjustified', summary: 'the lead wrote the report but no report-writer dispatch failed' },
  { number: 8, id: 'convergence-final', summary: 'convergence was not finalized, or its final state fails validation' },
  {
    number: 9,
    id: 'plan-verification',
    summary: 'plan verification contradicts its verdicts, or the plan is approved early',
  },
  { number: 10, id: 'heartbeat-cadence', summary: 'a completed worker left a heartbeat gap the live probe calls stalled' },
  { number: 11, id: 'stage-carry-missing', summary: 'a completed implementation stage run has no carry/stage-<N>.json' },
  { number: 12, id: 'degraded-without-reason', summary: 'a worker dispatch recorded as degraded (degradedFrom) has no reason' },
  { number: 13, id: 'worker-audit', summary: 'a worker result breaks the audit-sidecar rules of worker-audit-check' },
  {
    number: 14,
    id: 'report-writer-bypass',
    summary: 'the report writer was bypassed: never started or credited unfinished',
  },
  { number: 15, id: 'worker-row-missing', summary: 'a selected worker (workerAssignments) has no team-state row' },
  { number: 16, id: 'clarification-missing', summary: 'a blocking plan verification has no Clarification Items row' },
  { number: 17, id: 'run-time-order', summary: 'the run ends before it starts or before a worker ends, or lacks endedAt' },
  { number: 18, id: 'foreign-artifact', summary: 'the team-state or final convergence state names another run (key/type/seq)' },
  { number: 19, id: 'write-leftover', summary: 'an ended run left a temp file of an interrupted write or a lock' },
  { number: 20, id: 'time-in-future', summary: 'the run or a worker row started more than 5 min after the audit clock (skewed clock)' },
  { number: 21, id: 'answer-invalid', summary: 'a file a row calls done does not answer what was dispatched' },
  { number: 22, id: 'path-foreign', summary: "a path a row records is not its row's (another run, worker or seq)" },
  { number: 23, id: 'dispatch-mismatch', summary: 'row, status sidecar and dispatch disagree, or retry or teardown broke' },
  { number: 24, id: 'roster-mismatch', summary: 'a team-state row is not a selected worker' },
  { number: 25, id: 'run-stale', summary: 'a run left running while its work is done, or superseded by a later run' },
  { number: 26, id: 'report-content', summary: 'a final document is a stub, or breaks the reframe or alias rule' },
  { number: 27, id: 'run-order', summary: 'the order the seeds fix is broken (writer last, verification after draft)' },
  { number: 28, id: 'failure-unlogged', summary: 'a failed or aborted run logged no errors-*.jsonl line naming it' },
  { number: 29, id: 'derived-mismatch', summary: 'plan verdicts or a convergence round differ from the saved responses' },
  { number: 30, id: 'citation-unheld', summary: 'the final report rests on an agreed finding none of whose citations holds' },
] as const;

/** An invariant id (`report-missing`, …). */
export type InvariantId = (typeof INVARIANTS)[number]['id'];

const ORDER = new Map<string, number>(INVARIANTS.map((inv) => [inv.id, inv.number]));

/** The catalogue number of an invariant id (unknown ids sort last). */
export function invariantNumber(id: string): number {
  return ORDER.get(id) ?? Number.MAX_SAFE_INTEGER;
}

/** The one-line summary of an invariant id, or undefined for unknown ids. */
export function invariantSummary(id: string): string | undefined {
  return INVARIANTS.find((inv) => inv.id === id)?.summary;
}
