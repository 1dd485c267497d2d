import { basename } from 'node:path';
import { InputError, isStdio, writeJson, type CliContext } from '@okstra/cli-kit';
import { planRound } from '@okstra/convergence';
import { roundPlanArtifact } from '@okstra/schemas/convergence';
import { assertOutputNotInput, renderArtifact, writeArtifact } from '@okstra/state-file';
import { note, pathArg, readWorkingState } from './documents.js';

/**
 * `plan-round --work-state <path> --plan <path>`: write the next round plan;
 * the working state is only read (and must replay). When the queue is terminal
 * no plan is written and stdout says `queueTerminal: true` (exit 0). A `--plan`
 * whose name states another round (`…-r2-…` for round 3) is exit 2.
 * `--plan -` prints the plan itself on stdout instead of a summary.
 */
export async function runPlanRound(opts: { workState: string; plan: string }, ctx: CliContext): Promise<number> {
  const statePath = pathArg(ctx.io, opts.workState);
  const toStdout = isStdio(opts.plan);
  const planPath = toStdout ? '-' : pathArg(ctx.io, opts.plan);
  if (!toStdout) assertOutputNotInput({ path: planPath, flag: '--plan' }, [{ path: statePath, flag: '--work-state' }]);
  const state = await readWorkingState(statePath);
  const plan = planRound(state, undefined, statePath);
  if (plan.queueTerminal) {
    // Nothing to dispatch: no plan file, so no stale plan can be collected or applied.
    writeJson(ctx.io, { plan: null, round: plan.round, queueTerminal: true, batches: [], droppedWorkers: plan.droppedWorkers });
    note(ctx, `queue is terminal: no round to plan, no plan written (${basename(planPath)} left as it was)`);
    return 0;
  }
  if (toStdout) {
    ctx.io.stdout.write(renderArtifact(roundPlanArtifact, plan));
    note(ctx, `round ${plan.round}: plan printed on stdout`);
    return 0;
  }
  const named = roundInName(planPath);
  if (named !== undefined && named !== plan.round) {
    throw new InputError(`--plan names round ${named}, but the next round is ${plan.round}`, { file: planPath });
  }
  await writeArtifact(planPath, roundPlanArtifact, plan);
  writeJson(ctx.io, {
    plan: planPath,
    round: plan.round,
    queueTerminal: plan.queueTerminal,
    batches: plan.batches.map((b) => ({ workerId: b.workerId, findings: b.findingIds.length, retry: b.priorFailures > 0 })),
    droppedWorkers: plan.droppedWorkers,
  });
  note(ctx, `round ${plan.round}: ${plan.batches.map((b) => `${b.workerId} ${b.findingIds.length}${b.priorFailures ? ' (retry)' : ''}`).join(', ')}`);
  return 0;
}

/** The round a plan file name states (`convergence-plan-r3-…json` → 3), if any: an `r<N>` token of the base name. */
function roundInName(path: string): number | undefined {
  const m = /(?:^|[^A-Za-z0-9])r([0-9]+)(?=[^A-Za-z0-9]|$)/.exec(basename(path));
  return m ? Number(m[1]) : undefined;
}
