import { appendAll, InputError } from '@okstra/core';
import type { CoverageBatch, CoverageDispatch, CriticResults, GapVote, WorkingState } from '@okstra/schemas/convergence';
import { checkCoverageBatch } from './critic-gaps.js';
import { readWorkerVotes, type WorkerDispatchOutcome, type WorkerResponse } from './collect-results.js';
import { repairDispatchKind } from '@okstra/schemas/vocabulary';
import { problemLine, refuseAnswers, repairOutcome, type AnswerProblem } from '@okstra/verdict-blocks';
import { activeAnalysers } from './seed-state.js';

/**
 * Assemble the `apply-critic-gaps --results` coverage batch from the critic's
 * candidates and each analyser's gap-vote response (docs/convergence.md "Critic
 * gaps"). Responses are read with the same block rules as `collect-results`
 * (`### C-001` blocks, `**Verdict**`, `**Basis**`, the run's mode words) and the same
 * exit-2 rules. A critic that did not complete (`criticDispatch.status` other than
 * `completed`) gives a batch with its dispatch, no gaps and no analyser rows.
 * `modelExecutionValue`s come from `models` (worker → value), else the groups roster.
 * @throws InputError (exit 2) naming the worker, the gap, the file and the line: a
 *   completed critic without its candidates (or a failed one with them), an outcome
 *   or response of a worker that is not an active analyser, an analyser with no
 *   outcome, a completed analyser without a response or a failed one with one, a
 *   worker with no model value, and every response problem of collect-results; then
 *   every check of apply-critic-gaps on the batch.
 */
export function collectCriticGaps(input: CriticGapsInput): CoverageBatch {
  const { batch, problems } = readCriticGaps(input);
  if (problems.length > 0) refuseAnswers(problems);
  checkCoverageBatch(input.state, batch, { state: input.stateFile });
  return batch;
}

/** The input of {@link collectCriticGaps} and {@link readCriticGaps}. */
export interface CriticGapsInput {
  state: WorkingState;
  stateFile: string;
  criticResults?: CriticResults;
  criticDispatch: { status: CoverageDispatch['status']; durationMs: number };
  responses: readonly WorkerResponse[];
  dispatches: readonly WorkerDispatchOutcome[];
  models?: Readonly<Record<string, string>>;
  /**
   * Analysers whose newest dispatch was the gap vote's repair (`repair-gap-vote`, docs/convergence.md
   * "Repair dispatch"): their row carries `repair`; refused again or a repair that did not complete is
   * `error` with no votes, never refused.
   */
  repaired?: ReadonlySet<string>;
}

/**
 * {@link collectCriticGaps} without the refusal and without apply-critic-gaps' checks: the batch
 * (a worker with problems keeps its row but gives no votes) and every problem of the responses of
 * workers not repaired yet; `collect-critic-gaps --repair` writes their repair dispatch.
 * @throws InputError for every structural error of {@link collectCriticGaps}.
 */
export function readCriticGaps(input: CriticGapsInput): { batch: CoverageBatch; problems: AnswerProblem[] } {
  const { state } = input;
  const repaired = input.repaired ?? new Set<string>();
  const repairKind = repairDispatchKind('gap-vote');
  const problems: AnswerProblem[] = [];
  const critic = state.seed.roster.find((w) => w.role === 'critic');
  if (!critic) throw new InputError('the roster has no critic, so there are no critic gaps to collect', { file: input.stateFile, field: 'seed.roster' });
  const model = (workerId: string): string => {
    const value = input.models?.[workerId] ?? state.seed.roster.find((w) => w.workerId === workerId)?.modelExecutionValue;
    if (!value) throw new InputError(`worker ${workerId} has no modelExecutionValue in the groups roster: pass --model ${workerId}=<value>`);
    return value;
  };
  const criticDone = input.criticDispatch.status === 'completed';
  const batch: CoverageBatch = {
    schemaVersion: '1.0',
    kind: 'coverage-batch',
    criticWorkerId: critic.workerId,
    modelExecutionValue: input.criticResults?.modelExecutionValue ?? model(critic.workerId),
    criticDispatch: input.criticDispatch,
    dispatches: [],
    gaps: [],
  };
  if (!criticDone) {
    if (input.criticResults) throw new InputError(`the critic ended ${input.criticDispatch.status}, so it has no candidates to read (drop --critic-results)`);
    const extra = input.dispatches[0] ?? input.responses[0];
    if (extra)
      throw new InputError(
        `the critic ended ${input.criticDispatch.status}: no analyser votes on gaps, so worker ${extra.workerId} takes no --dispatch or --result`,
      );
    return { batch, problems };
  }
  if (!input.criticResults) throw new InputError('the critic completed: pass its result document as --critic-results');
  if (input.criticResults.criticWorkerId !== critic.workerId) {
    throw new InputError(`critic '${input.criticResults.criticWorkerId}' is not the roster's critic '${critic.workerId}'`, { field: 'criticWorkerId' });
  }
  const candidates = input.criticResults.candidates;
  const active = activeAnalysers(state.derived.workers);
  const outcome = byWorker(input.dispatches, active, '--dispatch');
  const response = byWorker(input.responses, active, '--result');
  const gapIds = candidates.map((c) => c.id);
  const votes = new Map<string, GapVote[]>(gapIds.map((id) => [id, []]));
  if (candidates.length > 0) {
    for (const w of active) {
      const d = outcome.get(w);
      if (!d) throw new InputError(`analyser ${w}: no recorded outcome for the gap vote (pass --dispatch ${w}=<status>:<durationMs>)`);
      const row: CoverageDispatch = { workerId: w, status: d.status, durationMs: d.durationMs, modelExecutionValue: model(w) };
      batch.dispatches.push(row);
      const r = response.get(w);
      if (d.status !== 'completed') {
        if (r) throw new InputError(`worker ${w} ended ${d.status}, so it has no response to read (drop its --result)`, { file: r.file });
        if (repaired.has(w)) Object.assign(row, { status: 'error', repair: repairOutcome(repairKind, d.status, []) });
        continue;
      }
      if (!r) throw new InputError(`worker ${w} completed but no --result ${w}=<path> was given`);
      const read = readWorkerVotes(w, r, state.seed.mode, gapIds, 'gap');
      if (repaired.has(w)) {
        const repair = repairOutcome(repairKind, 'completed', read.problems.map(problemLine));
        // Refused again after its one repair: given up (error, no votes), never asked a third time.
        Object.assign(row, repair.outcome === 'read' ? { repair } : { status: 'error', repair });
        if (repair.outcome !== 'read') continue;
      } else if (read.problems.length > 0) {
        appendAll(problems, read.problems);
        continue;
      }
      for (const v of read.votes) {
        const vote: GapVote = { workerId: w, verdict: v.verdict, explanation: v.explanation };
        if (v.verdict === 'disagree') vote.disagreeBasis = v.explanation;
        votes.get(v.id)!.push(vote);
      }
    }
  } else {
    const extra = input.dispatches[0] ?? input.responses[0];
    if (extra) throw new InputError(`the critic proposed no gaps: worker ${extra.workerId} takes no --dispatch or --result`);
  }
  batch.gaps = candidates.map((c) => ({ ...c, votes: votes.get(c.id)! }));
  return { batch, problems };
}

function byWorker<T extends { workerId: string }>(list: readonly T[], active: readonly string[], flag: string): Map<string, T> {
  const out = new Map<string, T>();
  for (const item of list) {
    if (!active.includes(item.workerId)) throw new InputError(`${flag} for worker ${item.workerId}, which is not an active analyser of the roster`);
    if (out.has(item.workerId)) throw new InputError(`two ${flag} for worker ${item.workerId}`);
    out.set(item.workerId, item);
  }
  return out;
}
