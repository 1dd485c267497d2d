import { writeJson, type CliContext } from '@okstra/cli-kit';
import { applyCriticGaps } from '@okstra/convergence';
import { coverageBatchArtifact, workingStateArtifact } from '@okstra/schemas/convergence';
import { withFileLock, writeArtifact } from '@okstra/state-file';
import { documentArg, note, pathArg, readDocument, readWorkingState } from './documents.js';

const CRITIC_RESULTS_HINT =
  "a critic-results document is the critic worker's own output and is rejected here by design; assemble the coverage batch from its candidates plus each analyser's vote (dispatches[], gaps[], modelExecutionValue) — see example --kind coverage-batch";

/**
 * `apply-critic-gaps --work-state <p> --results <coverage-batch.json>`: apply the
 * lead-assembled coverage batch once the main queue is terminal, atomically,
 * under the state's lock.
 */
export async function runApplyCriticGaps(opts: { workState: string; results: string }, ctx: CliContext): Promise<number> {
  const statePath = pathArg(ctx.io, opts.workState);
  const resultsPath = documentArg(ctx.io, opts.results);
  const batch = await readDocument(resultsPath, {
    kind: 'coverage-batch',
    flag: 'apply-critic-gaps --results',
    artifact: coverageBatchArtifact,
    hints: { 'critic-results': CRITIC_RESULTS_HINT },
    io: ctx.io,
  });
  return withFileLock(statePath, async () => {
    const state = await readWorkingState(statePath);
    const next = applyCriticGaps(state, batch, { state: statePath, results: resultsPath });
    await writeArtifact(statePath, workingStateArtifact, next, { replace: 'any' });
    const gaps = next.derived.criticGaps;
    const count = (d: string) => gaps.filter((g) => g.decision === d).length;
    writeJson(ctx.io, { gaps: gaps.length, accepted: count('accepted'), rejected: count('rejected'), unresolved: count('unresolved') });
    note(ctx, `critic gaps applied: ${count('accepted')} accepted, ${count('rejected')} rejected, ${count('unresolved')} unresolved`);
    return 0;
  });
}
