import { basename } from 'node:path';
import { finalReportDataPath, finalReportPath, planItemsPath } from '@okstra/paths';
import { formatJsonPath, parseJsonText } from '@okstra/state-file';
import { type Finding, type RunUnderAudit } from '../run-context.js';
import { resolveRecorded } from './recorded-path.js';

type Verdict = { workerId?: string; verdict?: string };
type Item = { id?: string; text?: string; kind?: string; stage?: number | null; verdicts?: Verdict[] };

/**
 * Invariant 9 `plan-verification`, evidence over claims (seed 000 plan-items rows): the report
 * data.json's plan is the schema's (`ImplementationPlanning` of libs/schemas: a step's outcome agrees
 * with its `RED:` / `GREEN:` prefix, at most 8 effective steps — seed 002 implementation-planning.md);
 * the persisted `state/plan-items-<type>-<seq>.json` queue is the one verified (same ids and texts,
 * `plan-items validate`); and the verdicts are one round's complete set (`collect-verdicts`,
 * `apply-verdicts`): every contributor answered every item once, and nobody else voted.
 * Loaded only for a data.json that carries `implementationPlanning`.
 */
export async function checkPlanEvidence(run: RunUnderAudit): Promise<Finding[]> {
  const dataPath = finalReportDataPath(run.runDir, run);
  if (!run.files.exists(dataPath)) return [];
  const text = await run.files.readText(dataPath);
  if (text === null || !text.includes('"implementationPlanning"')) return [];
  let plan: { stages?: unknown; planBodyVerification?: { contributors?: string[]; result?: string; planItems?: Item[] } } | undefined;
  try {
    plan = (parseJsonText(text) as { implementationPlanning?: typeof plan })?.implementationPlanning;
  } catch {
    return []; // invariant 9's loader reports it
  }
  if (!plan || typeof plan !== 'object') return [];
  const out: Finding[] = [];
  const add = (message: string, evidence = [dataPath]) => out.push({ invariant: 'plan-verification', message, evidence });
  if (plan.stages !== undefined) {
    const { ImplementationPlanning } = await import('@okstra/schemas/implementation-planning');
    const parsed = ImplementationPlanning.safeParse(plan);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      add(`report data.json ${formatJsonPath(['implementationPlanning', ...(issue?.path ?? [])])}: ${issue?.message ?? 'invalid'}`);
    }
  }
  const pbv = plan.planBodyVerification;
  const pv = (run.manifest as { planVerification?: { enabled?: unknown; responses?: unknown } }).planVerification;
  // seed 002 README Phase 6: verification runs unless opted out (--no-plan-verification); a completed run that says it
  // was enabled and published no result never ran it.
  if (run.manifest.status === 'completed' && pv?.enabled === true && plan.stages !== undefined && !pbv) {
    add('the run-manifest says plan verification was enabled but the report data.json records no planBodyVerification');
  }
  for (const recorded of Array.isArray(pv?.responses) ? pv.responses : []) {
    const abs = typeof recorded === 'string' ? resolveRecorded(run.projectRoot, recorded) : null;
    if (abs && !run.files.exists(abs)) add(`the plan-verify response ${basename(abs)} the run-manifest records does not exist`, [run.manifestPath, dataPath]);
  }
  if (pbv?.result) {
    const report = finalReportPath(run.runDir, run);
    const md = run.files.exists(report) ? ((await run.files.readText(report)) ?? '') : '';
    const shown = /^##\s+6\.[^\n]*Verification[^\n]*\n(?:(?!^##\s)[\s\S])*?Result:\s*[*_`]*([a-z][a-z-]+)/im.exec(md.replace(/\r\n/g, '\n'))?.[1];
    if (shown && shown !== pbv.result) add(`the final report shows plan verification ${shown}, its data.json ${pbv.result}`, [report, dataPath]);
  }
  const items = Array.isArray(pbv?.planItems) ? pbv.planItems : [];
  const contributors = Array.isArray(pbv?.contributors) ? pbv.contributors : [];
  for (const item of items) {
    const voters = (item.verdicts ?? []).map((v) => String(v.workerId));
    const twice = voters.filter((w, i) => voters.indexOf(w) !== i);
    if (twice.length) add(`plan item ${item.id}: worker '${twice[0]}' voted twice (apply-verdicts records one round)`);
    const outsider = contributors.length ? voters.find((w) => !contributors.includes(w)) : undefined;
    if (outsider) add(`plan item ${item.id}: '${outsider}' voted but is not a contributor of this verification`);
    const silent = pbv?.result !== 'aborted-non-result' ? contributors.find((c) => !voters.includes(c)) : undefined;
    if (silent) add(`plan item ${item.id}: contributor '${silent}' left it unanswered`);
  }
  const queuePath = planItemsPath(run.runDir, run);
  if (items.length > 0 && run.files.exists(queuePath)) {
    const q = await run.files.readText(queuePath);
    try {
      const persisted = ((q === null ? {} : parseJsonText(q)) as { items?: Item[] }).items ?? [];
      const key = (i: Item) => `${i.id}\u0000${i.text ?? ''}`;
      const verified = new Set(items.map((i) => i.id));
      const differs =
        persisted.length !== items.length ||
        persisted.some((p, i) => p.id !== items[i]?.id) || // the extraction's order is part of the queue
        persisted.some(
          (p, i) =>
            (p.kind !== undefined && items[i]?.kind !== undefined && p.kind !== items[i]?.kind) ||
            (p.stage !== undefined && items[i]?.stage !== undefined && p.stage !== items[i]?.stage),
        ) ||
        persisted.some((p) => !verified.has(p.id)) ||
        persisted.some((p) => {
          const v = items.find((i) => i.id === p.id);
          return v?.text !== undefined && p.text !== undefined && key(v) !== key(p);
        });
      if (differs) add(`${basename(queuePath)} is not the queue the verification answered (plan-items validate)`, [queuePath, dataPath]);
    } catch {
      add(`${basename(queuePath)} is not valid JSON`, [queuePath]);
    }
  }
  return out;
}
