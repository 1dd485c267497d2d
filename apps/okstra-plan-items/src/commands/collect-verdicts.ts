import type { CliContext } from '@okstra/cli-kit';
import { citationSignals } from '@okstra/citations';
import { InputError, isStdio, parseKeyValue, pathArg, writeJson } from '@okstra/cli-kit';
import { assertOutputNotInput, readArtifact, readTextFile, renderArtifact, writeArtifact } from '@okstra/state-file';
import { WorkerId } from '@okstra/schemas';
import { planItemsArtifact } from '@okstra/schemas/plan-items';
import { planVerdictsArtifact } from '@okstra/schemas/plan-verdicts';
import { collectVerdictsWithProblems, settlePlanRepairs, type CollectProblem, type PlanResponseObject, type WorkerResponse } from '@okstra/plan-items';
import { MAX_RESPONSE_BYTES, problemLine, readAnswerRecord, refuseAnswers, renderRepairPrompt, type AnswerProblem } from '@okstra/verdict-blocks';
import { basename, dirname } from 'node:path';
import { WORKER_TEXTS } from '@okstra/convergence';
import { answerRecordPath, parseRunDir, projectRootOf, toProjectRelative } from '@okstra/paths';
import { repairedWorkers, repairSummary, writeRepairDispatch, type RepairPlace } from '@okstra/team-run';
import { repairDispatchKind } from '@okstra/schemas/vocabulary';
import { mergeAwaitFlags, readAwaitOutcomes } from '@okstra/team-run/await-report';

/** Options of `plan-items collect-verdicts`. */
export interface CollectVerdictsOptions {
  result: string[];
  /** `team await --json` of the plan-verify round, saved as is: a `--result` for each worker that completed. */
  await?: string;
  items: string;
  output: string;
  repair?: boolean;
}

/** The dispatch kind a plan-verify repair repairs (`repair-plan-verify`; docs/plan-items.md "Repair dispatch"). */
const KIND = 'plan-verify';

/**
 * `okstra-plan-items collect-verdicts --result <worker-id>=<path>… --items <items.json>
 * --output <verdicts.json>` (0.161.0 row): read every response, then write the
 * envelope atomically and print `{contributors, items, verdicts}`. Any hard error
 * (docs/plan-items.md "Hard errors") → exit 2, one line naming worker, item and
 * line, nothing written. No `--result` at all gives an envelope with no contributors.
 * `--output -` prints the envelope itself on stdout instead.
 * With `--repair` (docs/plan-items.md "Repair dispatch"; `--items` must be the run's
 * `state/plan-items-<type>-<seq>.json`): refused answers still exit 2 with every problem, but first
 * the repair prompts and `state/repair-jobs-plan-verify-<type>-<seq>.json` of the refused workers are
 * written (stdout `{ refused, repair }`); a worker whose newest dispatch was `repair-plan-verify` is
 * collected as error (out of the contributors) when refused again or when its repair failed, and the
 * envelope lists every repair in `repairs[]`.
 */
export async function runCollectVerdicts(flags: CollectVerdictsOptions, ctx: CliContext): Promise<number> {
  // `--await <file>` (docs/team.md "await"): the round's completed workers and their result paths, so none is typed by hand.
  const opts =
    flags.await === undefined
      ? flags
      : {
          ...flags,
          result: mergeAwaitFlags({ ...(await readAwaitOutcomes(flags.await, ctx.io.cwd)), dispatch: [] }, { dispatch: [], result: flags.result }).result,
        };
  const toStdout = isStdio(opts.output);
  if (!toStdout)
    assertOutputNotInput({ path: pathArg(ctx.io, opts.output), flag: '--output' }, [
      { path: pathArg(ctx.io, opts.items), flag: '--items' },
      ...opts.result.map((raw) => ({ path: pathArg(ctx.io, raw.slice(raw.indexOf('=') + 1)), flag: '--result' })),
    ]);
  const queueFile = await readArtifact(pathArg(ctx.io, opts.items), planItemsArtifact, { label: opts.items });
  const responses: WorkerResponse[] = [];
  for (const raw of opts.result) {
    const { key, value } = parseKeyValue('--result', raw);
    if (!WorkerId.safeParse(key).success) throw new InputError(`invalid worker id '${key}'`, { field: '--result' });
    const markdown = await readTextFile(pathArg(ctx.io, value), { label: value, maxBytes: MAX_RESPONSE_BYTES });
    // A schema-bound answer is read from its object, never from its prose (docs/contracts.md "Answer objects").
    const record = readAnswerRecord(answerRecordPath(pathArg(ctx.io, value)), { kind: KIND, resultText: markdown });
    const object = record ? { votes: record.votes as PlanResponseObject['votes'], problems: record.problems } : undefined;
    responses.push({ workerId: key, file: value, markdown, ...(object ? { object } : {}) });
  }
  const queue = queueFile.items.map((item) => item.id);
  const read = collectVerdictsWithProblems(queue, responses);
  let envelope = read.envelope;
  let problems = read.problems;
  if (opts.repair) {
    const place = placeOfItems(pathArg(ctx.io, opts.items));
    const settled = settlePlanRepairs(envelope, problems, await repairedWorkers(place, KIND), repairDispatchKind(KIND), (p) => problemLine(answerProblem(p)));
    problems = settled.problems;
    envelope = settled.repairs.length > 0 ? { ...settled.envelope, repairs: settled.repairs } : settled.envelope;
    if (problems.length > 0) {
      const workers = [...new Set(problems.map((p) => p.workerId))];
      const requests = workers.map((workerId) => {
        const response = responses.find((r) => r.workerId === workerId)!;
        const resultPath = pathArg(ctx.io, response.file);
        const prompt = renderRepairPrompt({
          problems: problems.filter((p) => p.workerId === workerId).map(answerProblem),
          expectedForm: WORKER_TEXTS['plan-body-verification'],
          answer: response.markdown,
          to: { workerId, kind: KIND, ids: queue, resultPath: toProjectRelative(place.projectRoot, resultPath) },
        });
        return { workerId, prompt, resultPath };
      });
      const repair = await writeRepairDispatch(place, KIND, requests);
      writeJson(ctx.io, repairSummary(workers, repair, place));
    }
  }
  if (problems.length > 0) refuseAnswers(problems.map(answerProblem));
  if (toStdout) {
    ctx.io.stdout.write(renderArtifact(planVerdictsArtifact, envelope));
    return 0;
  }
  await writeArtifact(pathArg(ctx.io, opts.output), planVerdictsArtifact, envelope, { label: opts.output });
  const verdicts = envelope.items.reduce((n, item) => n + item.verdicts.length, 0);
  const repairs = (envelope as { repairs?: Array<{ workerId: string; outcome: string }> }).repairs;
  // How each response's citations stand (libs/citations): a signal beside the verdicts, never a change of one.
  const citations = citationSignals(responses.map((r) => ({ workerId: r.workerId, path: pathArg(ctx.io, r.file), text: r.markdown })));
  writeJson(ctx.io, {
    ...(responses.length > 0 ? { citations } : {}),
    contributors: envelope.contributors,
    items: envelope.items.length,
    verdicts,
    output: pathArg(ctx.io, opts.output),
    ...(repairs ? { repairs: repairs.map((r) => ({ workerId: r.workerId, outcome: r.outcome })) } : {}),
  });
  return 0;
}

function answerProblem(p: CollectProblem): AnswerProblem {
  return { workerId: p.workerId, id: p.itemId, thing: 'item', file: p.file, line: p.line, message: p.message };
}

/**
 * The run a plan-items queue belongs to: `<run-dir>/state/plan-items-<type>-<seq>.json`.
 * @throws InputError (exit 2) naming `--items` when it lies elsewhere.
 */
function placeOfItems(itemsPath: string): RepairPlace {
  const runDir = dirname(dirname(itemsPath));
  const parsed = parseRunDir(runDir);
  const projectRoot = projectRootOf(runDir);
  const prefix = parsed ? `plan-items-${parsed.taskType}-` : '';
  const name = basename(itemsPath);
  const seq = parsed && name.startsWith(prefix) && name.endsWith('.json') ? name.slice(prefix.length, -'.json'.length) : '';
  if (!parsed || !projectRoot || !/^[0-9]{3,}$/.test(seq) || basename(dirname(itemsPath)) !== 'state')
    throw new InputError('--repair needs the run queue at <run-dir>/state/plan-items-<type>-<seq>.json inside a .okstra project', {
      file: itemsPath,
      field: '--items',
    });
  return { projectRoot, runDir, run: { taskType: parsed.taskType, seq } };
}
