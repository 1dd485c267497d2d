import { appendAll, InputError, segmentSource } from '@okstra/core';
import { type ConvergenceMode, type DispatchStatus, type RoundPlan, type RoundResults, type Vote, type WorkerOutcome } from '@okstra/schemas/convergence';
import { repairDispatchKind, reverifyDispatchKind } from '@okstra/schemas/vocabulary';
import { problemLine, refuseAnswers, repairOutcome, type AnswerProblem } from '@okstra/verdict-blocks';
import { readResponseVotesWithProblems } from './response-votes.js';
import { readObjectVotes, type ResponseObject } from './object-votes.js';

export { EXPLANATION_FIELDS, VERDICT_WORDS } from './response-votes.js';
export { normalizeWord } from '@okstra/verdict-blocks';

/** One worker's response text. */
export interface WorkerResponse {
  workerId: string;
  /** The response file as the caller named it: printed in messages, recorded as `resultPath`. */
  file: string;
  text: string;
  /**
   * The provider's end-of-turn signal from the wrapper's status sidecar (`endOfTurn.signal`,
   * docs/team.md "End of turn"), when it was captured: any signal but `end-turn` refuses the
   * answer as truncated. Undefined or null (not captured) changes nothing.
   */
  endOfTurn?: { signal: string } | null;
  /** A schema-bound answer's object (docs/contracts.md "Answer objects"): when given, the votes are read from it, never from `text`. */
  object?: ResponseObject;
}

/** One worker's terminal dispatch outcome (`--dispatch <worker>=<status>:<durationMs>`). */
export interface WorkerDispatchOutcome {
  workerId: string;
  status: DispatchStatus;
  durationMs: number;
}

/**
 * Read one round's worker responses into the `apply-round --results` shape
 * (docs/convergence.md "collect-results"). Each response is parsed with
 * `@okstra/verdict-blocks` (`###`/`####` blocks whose heading starts with a finding
 * id; code fences and block quotes ignored); `**Verdict**` is mapped through
 * `CONVERGENCE_VERDICT_WORDS` (`@okstra/schemas/vocabulary`) for `mode`, `**Basis**` becomes `explanation` (and
 * `disagreeBasis` on a disagree vote). Workers and votes come out in plan order.
 * @throws InputError (exit 2) listing every problem of every response, each naming
 *   worker, finding, file and line (`refuseAnswers`), for: a
 *   dispatched finding with no verdict, a verdict for a finding not dispatched to
 *   that worker, a planned worker with no outcome, a vote with no explanation, two
 *   verdicts for one finding, an unknown verdict word (listing the accepted ones);
 *   also for a terminal plan, a mode other than the plan's, an outcome or response
 *   of an unplanned worker, a response from a worker that did not complete, and a
 *   completed worker without a response.
 */
export function collectRoundResults(input: CollectInput): RoundResults {
  const read = readRoundResults(input);
  if (read.problems.length > 0) refuseAnswers(read.problems);
  return read.results;
}

/** The input of {@link collectRoundResults} and {@link readRoundResults}. */
export interface CollectInput {
  plan: RoundPlan;
  planFile: string;
  mode: ConvergenceMode;
  responses: readonly WorkerResponse[];
  dispatches: readonly WorkerDispatchOutcome[];
  /**
   * Workers whose newest dispatch was the repair of this round (`repair-reverify-r<N>`; docs/convergence.md
   * "Repair dispatch"): their outcome carries `repair`; a repair that ended `timeout`/`error`, or whose
   * restated answer is refused again, is collected as `error` with no votes instead of refusing the set.
   */
  repaired?: ReadonlySet<string>;
}

/**
 * {@link collectRoundResults} without the refusal: the results, and every problem of the responses
 * that were not read (grouped by worker through `AnswerProblem.workerId`). A worker with problems
 * keeps its outcome but no votes; the caller refuses (exit 2) or writes a repair dispatch for them
 * (`collect-results --repair`). Structural errors (an unplanned worker, a missing outcome, …) still throw.
 * @throws InputError as {@link collectRoundResults}, except for answer problems.
 */
export function readRoundResults(input: CollectInput): { results: RoundResults; problems: AnswerProblem[] } {
  const { plan, planFile, mode } = input;
  const repaired = input.repaired ?? new Set<string>();
  const repairKind = repairDispatchKind(reverifyDispatchKind(plan.round));
  if (plan.queueTerminal) throw new InputError('the plan says the queue is terminal: there is nothing to collect', { file: planFile, field: 'queueTerminal' });
  if (mode !== plan.mode) throw new InputError(`--mode ${mode} differs from the plan's mode '${plan.mode}'`, { file: planFile, field: 'mode' });
  const planned = new Map(plan.batches.map((b) => [b.workerId, b]));
  const dispatch = new Map<string, WorkerDispatchOutcome>();
  for (const d of input.dispatches) {
    if (!planned.has(d.workerId))
      throw new InputError(`--dispatch for worker ${d.workerId}, which is not planned in round ${plan.round}`, { file: planFile, field: 'batches' });
    if (dispatch.has(d.workerId)) throw new InputError(`two --dispatch outcomes for worker ${d.workerId}`);
    dispatch.set(d.workerId, d);
  }
  const response = new Map<string, WorkerResponse>();
  for (const r of input.responses) {
    if (!planned.has(r.workerId))
      throw new InputError(`--result for worker ${r.workerId}, which is not planned in round ${plan.round}`, { file: planFile, field: 'batches' });
    if (response.has(r.workerId)) throw new InputError(`two --result files for worker ${r.workerId}`);
    response.set(r.workerId, r);
  }
  const problems: AnswerProblem[] = [];
  const workers: WorkerOutcome[] = plan.batches.map((batch) => {
    const d = dispatch.get(batch.workerId);
    if (!d)
      throw new InputError(`worker ${batch.workerId}: planned worker with no recorded outcome (pass --dispatch ${batch.workerId}=<status>:<durationMs>)`, {
        file: planFile,
        field: 'batches',
      });
    const r = response.get(batch.workerId);
    const isRepair = repaired.has(batch.workerId);
    if (d.status !== 'completed') {
      if (r) throw new InputError(`worker ${batch.workerId} ended ${d.status}, so it has no response to read (drop its --result)`, { file: r.file });
      if (isRepair)
        return { workerId: batch.workerId, status: 'error', durationMs: d.durationMs, verdicts: [], repair: repairOutcome(repairKind, d.status, []) };
      return { workerId: batch.workerId, status: d.status, durationMs: d.durationMs, verdicts: [] };
    }
    if (!r) throw new InputError(`worker ${batch.workerId} completed but no --result ${batch.workerId}=<path> was given`, { file: planFile, field: 'batches' });
    const mine: AnswerProblem[] = [];
    const verdicts = readVotes(batch.workerId, batch.findingIds, r, mode, mine);
    const outcome: WorkerOutcome = { workerId: batch.workerId, status: 'completed', durationMs: d.durationMs, resultPath: r.file, verdicts };
    if (isRepair) {
      // Refused again after its one repair: the worker's outcome is given up (error, no votes), never asked a third time.
      const repair = repairOutcome(repairKind, 'completed', mine.map(problemLine));
      return repair.outcome === 'read' ? { ...outcome, repair } : { ...outcome, status: 'error', verdicts: [], repair };
    }
    appendAll(problems, mine);
    return mine.length > 0 ? { ...outcome, verdicts: [] } : outcome;
  });
  return { results: { schemaVersion: '1.0', kind: 'round-results', round: plan.round, mode, workers }, problems };
}

function readVotes(workerId: string, dispatched: readonly string[], response: WorkerResponse, mode: ConvergenceMode, problems: AnswerProblem[]): Vote[] {
  const read = readWorkerVotes(workerId, response, mode, dispatched, 'finding');
  appendAll(problems, read.problems);
  return read.votes.map((v) => {
    const vote: Vote = { findingId: v.id, verdict: v.verdict, explanation: v.explanation, sourceVerdict: v.sourceVerdict, line: v.line };
    if (v.verdict === 'disagree') vote.disagreeBasis = v.explanation;
    return vote;
  });
}

/** One worker's votes: from its answer object when it has one (never its prose), else from its Markdown blocks. */
export function readWorkerVotes(workerId: string, response: WorkerResponse, mode: ConvergenceMode, wanted: readonly string[], thing: string) {
  return response.object
    ? readObjectVotes({ workerId, file: response.file, mode, wanted, thing, object: response.object })
    : readResponseVotesWithProblems({ workerId, file: response.file, text: response.text, mode, wanted, thing, endOfTurn: response.endOfTurn });
}

/** `<worker>=<status>:<durationMs>`, the worker id one segment of libs/core's id rule. */
const DISPATCH_FLAG = new RegExp(`^(${segmentSource('=')})=(completed|timeout|error|not-run):([0-9]+)$`, 'u');

/**
 * Parse one `--dispatch <worker>=<status>:<durationMs>` value, exactly as
 * `okstra team await --json` reports a worker (status completed|timeout|error|not-run,
 * durationMs a non-negative integer of milliseconds).
 * @throws InputError (exit 2) on any other form.
 */
export function parseDispatchFlag(raw: string): WorkerDispatchOutcome {
  const m = DISPATCH_FLAG.exec(raw);
  if (!m) {
    throw new InputError(`--dispatch expects <worker>=<completed|timeout|error|not-run>:<durationMs>, got '${raw}'`);
  }
  const durationMs = Number(m[3]);
  if (!Number.isSafeInteger(durationMs)) throw new InputError(`--dispatch duration is out of range in '${raw}'`);
  return { workerId: m[1], status: m[2] as DispatchStatus, durationMs };
}
