import { writeJson, type CliContext } from '@okstra/cli-kit';
import { applyRound, statusCounts } from '@okstra/convergence';
import { roundPlanArtifact, roundResultsArtifact, workingStateArtifact } from '@okstra/schemas/convergence';
import { withFileLock, writeArtifact } from '@okstra/state-file';
import { documentArg, note, pathArg, readDocument, readWorkingState } from './documents.js';

/**
 * `apply-round --work-state <p> --plan <p> --results <p>`: validate one complete
 * result set against the plan and the state, and reduce it, under the state's
 * lock, in one atomic write. A refused set leaves the state byte-identical.
 */
export async function runApplyRound(opts: { workState: string; plan: string; results: string }, ctx: CliContext): Promise<number> {
  const statePath = pathArg(ctx.io, opts.workState);
  const planPath = pathArg(ctx.io, opts.plan);
  const resultsPath = documentArg(ctx.io, opts.results);
  const plan = await readDocument(planPath, { kind: 'round-plan', flag: '--plan', artifact: roundPlanArtifact });
  const results = await readDocument(resultsPath, { kind: 'round-results', flag: '--results', artifact: roundResultsArtifact, io: ctx.io });
  return withFileLock(statePath, async () => {
    const state = await readWorkingState(statePath);
    const next = applyRound(state, plan, results, { state: statePath, plan: planPath, results: resultsPath });
    await writeArtifact(statePath, workingStateArtifact, next, { replace: 'any' });
    const d = next.derived;
    const dropped = d.workers.filter((w) => w.droppedInRound === plan.round).map((w) => w.workerId);
    writeJson(ctx.io, { round: d.round, queueTerminal: d.queueTerminal, counts: statusCounts(d), droppedWorkers: dropped });
    const c = statusCounts(d);
    note(
      ctx,
      `round ${d.round} applied: ${c.pending} pending, ${c.agreed} agreed, ${c.refuted} refuted, ${c.unverifiable} unverifiable, ${c.contested} contested${dropped.length ? `; dropped ${dropped.join(', ')}` : ''}`,
    );
    return 0;
  });
}
