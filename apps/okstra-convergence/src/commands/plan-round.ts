import { writeJson, type CliContext } from '@okstra/cli-kit';
import { planRound } from '@okstra/convergence';
import { roundPlanArtifact } from '@okstra/schemas/convergence';
import { assertOutputNotInput, writeArtifact } from '@okstra/state-file';
import { note, pathArg, readWorkingState } from './documents.js';

/**
 * `plan-round --work-state <path> --plan <path>`: write the next round plan;
 * the working state is only read. Exit 0 also when the queue is terminal (the
 * plan then says so and has no batches).
 */
export async function runPlanRound(opts: { workState: string; plan: string }, ctx: CliContext): Promise<number> {
  const statePath = pathArg(ctx.io, opts.workState);
  const planPath = pathArg(ctx.io, opts.plan);
  assertOutputNotInput({ path: planPath, flag: '--plan' }, [{ path: statePath, flag: '--work-state' }]);
  const state = await readWorkingState(statePath);
  const plan = planRound(state, undefined, statePath);
  await writeArtifact(planPath, roundPlanArtifact, plan);
  writeJson(ctx.io, {
    plan: planPath,
    round: plan.round,
    queueTerminal: plan.queueTerminal,
    batches: plan.batches.map((b) => ({ workerId: b.workerId, findings: b.findingIds.length, retry: b.priorFailures > 0 })),
    droppedWorkers: plan.droppedWorkers,
  });
  note(
    ctx.io,
    plan.queueTerminal
      ? 'queue is terminal: no round to plan'
      : `round ${plan.round}: ${plan.batches.map((b) => `${b.workerId} ${b.findingIds.length}`).join(', ')}`,
  );
  return 0;
}
