import { resolve } from 'node:path';
import { InputError, writeJson, type CliContext } from '@okstra/cli-kit';
import { convergenceWorkStatePath } from '@okstra/paths';
import { roundPlanArtifact } from '@okstra/schemas/convergence';
import { note, pathArg, readDocument, readWorkingState } from './documents.js';
import { placeOfPlan, writeReverifyPrompts } from './run/round-files.js';

/**
 * `render-prompts --plan <state/convergence-plan-r<N>-<type>-<seq>.json> [--work-state <p>]`: write each
 * batch's reverify prompt exactly as `run` dispatches it (`prompts/<worker>-prompt-reverify-r<N>-<type>-<seq>.md`;
 * docs/convergence.md "Reverify prompts"), for a host lead that starts its workers itself. The working state
 * (default: the run's, beside the plan) supplies the findings' text; it must be the state the plan was made from.
 * Prints `{ round, prompts: [{ workerId, promptPath, resultPath, auditSidecarPath }] }` (project-relative).
 * @throws InputError (exit 2): a plan outside a run's state/ directory, a terminal plan, a plan of another state.
 */
export async function runRenderPrompts(opts: { plan: string; workState?: string }, ctx: CliContext): Promise<number> {
  const planPath = pathArg(ctx.io, opts.plan);
  const place = placeOfPlan(planPath);
  const statePath = opts.workState === undefined ? convergenceWorkStatePath(place.runDir, place.run) : pathArg(ctx.io, opts.workState);
  const plan = await readDocument(planPath, { kind: 'round-plan', flag: '--plan', artifact: roundPlanArtifact });
  if (plan.queueTerminal) throw new InputError('the plan says the queue is terminal: there is no prompt to render', { file: planPath, field: 'queueTerminal' });
  const state = await readWorkingState(statePath);
  if (state.seedDigest !== plan.seedDigest)
    throw new InputError('the plan was made from another working state (seedDigest differs)', { file: planPath, field: 'seedDigest' });
  const files = await writeReverifyPrompts(place, state, plan);
  // stdout paths are absolute, as every tool's are (README); the prompts themselves name
  // project-relative paths, because the worker runs in the project root.
  writeJson(ctx.io, {
    round: plan.round,
    prompts: files.map((f) => ({
      workerId: f.workerId,
      promptPath: resolve(f.promptPath),
      resultPath: resolve(f.resultPath),
      auditSidecarPath: resolve(f.auditSidecarPath),
    })),
  });
  note(ctx, `round ${plan.round}: ${files.length} prompt(s) written`);
  return 0;
}
