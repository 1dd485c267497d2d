import { finalReportDataPath, finalReportPath } from '@okstra/paths';
import type { PlanBodyVerification, PlanVerificationResult } from '@okstra/schemas/implementation-planning';
import { formatJsonPath, parseJsonText } from '@okstra/state-file';
import { blocksApproval, clarificationItems, isOpen, type ClarificationItem } from '../report/clarification-items.js';
import { isApproved, readFrontmatter } from '../report/frontmatter.js';
import { jsonProblem, mustHaveFinished, type Finding, type RunUnderAudit } from '../run-context.js';

/** Results that keep the approval gate shut (seed 002: "a blocking result keeps it false and becomes a row in `## 1. Clarification Items`"). */
export const BLOCKING_RESULTS: ReadonlySet<PlanVerificationResult> = new Set(['blocked-by-disagreement', 'aborted-non-result']);

/** A run's plan-body verification as the report data.json records it, and its aggregate. */
interface Verification {
  dataPath: string;
  pbv: PlanBodyVerification;
  /** `aggregatePlanVerification(pbv.planItems)` of libs/plan-items. */
  aggregate: PlanVerificationResult;
  /** The blocking result, when the recorded result or (for a recorded result) the aggregate blocks; else null. */
  blocking: PlanVerificationResult | null;
  /** Ids of items with a DISAGREE whose fixability blocks (`replan`, `needs-clarification`). */
  blockingItems: Array<{ id: string; clarificationId: string | null }>;
  /** data.json's own `frontmatter` carries the approval marker (the report's SSOT, rendered into the Markdown frontmatter). */
  dataApproved: boolean;
}

const loaded = new WeakMap<RunUnderAudit, Promise<{ verification: Verification | null; invalid: Finding[] }>>();

/** Read and check the report data.json's planBodyVerification once per run (invariants 9 and 16 share it). */
function loadVerification(run: RunUnderAudit): Promise<{ verification: Verification | null; invalid: Finding[] }> {
  let p = loaded.get(run);
  if (!p) loaded.set(run, (p = readVerification(run)));
  return p;
}

async function readVerification(run: RunUnderAudit): Promise<{ verification: Verification | null; invalid: Finding[] }> {
  const dataPath = finalReportDataPath(run.runDir, run);
  if (!run.files.exists(dataPath)) return { verification: null, invalid: [] };
  const text = await run.files.readText(dataPath);
  // Report data.json files can be large; only one that carries the section is parsed.
  if (text === null || !text.includes('"planBodyVerification"')) return { verification: null, invalid: [] };
  let data: unknown;
  try {
    data = parseJsonText(text);
  } catch (error) {
    return {
      verification: null,
      invalid: [{ invariant: 'artifact-invalid', message: `report data.json ${jsonProblem(error)}`, evidence: [dataPath] }],
    };
  }
  const raw = (data as { implementationPlanning?: { planBodyVerification?: unknown } } | null)?.implementationPlanning?.planBodyVerification;
  if (raw === undefined || raw === null) return { verification: null, invalid: [] };
  // Loaded only for a report that carries the section (cold start of run-audit and worker-audit-check).
  const [{ PlanBodyVerification }, { aggregatePlanVerification, NON_BLOCKING_FIXABILITY }] = await Promise.all([
    import('@okstra/schemas/implementation-planning'),
    // The aggregate rule alone: the package's index would load the verdict reader (micromark) and jsonc-parser too.
    import('@okstra/plan-items/aggregate'),
  ]);
  const parsed = PlanBodyVerification.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = formatJsonPath(['implementationPlanning', 'planBodyVerification', ...(issue?.path ?? [])]);
    return {
      verification: null,
      invalid: [{ invariant: 'artifact-invalid', message: `report data.json ${field}: ${issue?.message ?? 'invalid'}`, evidence: [dataPath] }],
    };
  }
  const pbv = parsed.data;
  const aggregate = aggregatePlanVerification(pbv.planItems);
  const recorded = pbv.result ?? null;
  const blocking = recorded && BLOCKING_RESULTS.has(recorded) ? recorded : recorded && BLOCKING_RESULTS.has(aggregate) ? aggregate : null;
  const blockingItems = pbv.planItems
    .filter((item) => item.verdicts.some((v) => v.verdict === 'DISAGREE' && !(v.fixability !== null && NON_BLOCKING_FIXABILITY.includes(v.fixability))))
    .map((item) => ({ id: item.id, clarificationId: item.clarificationId ?? null }));
  const dataApproved = isApproved((data as { frontmatter?: Record<string, unknown> | null }).frontmatter ?? null);
  return { verification: { dataPath, pbv, aggregate, blocking, blockingItems, dataApproved }, invalid: [] };
}

/** The final report's text and Clarification Items rows, or null when there is no report. */
async function readReport(run: RunUnderAudit): Promise<{ path: string; text: string; items: ClarificationItem[] } | null> {
  const path = finalReportPath(run.runDir, run);
  if (!run.files.exists(path)) return null;
  const text = await run.files.readText(path);
  return text === null ? null : { path, text, items: clarificationItems(text) };
}

/**
 * Invariant 9 `plan-verification`:
 * - the report data.json's `implementationPlanning.planBodyVerification.result`
 *   (when set) equals the aggregate of its rows' verdicts, computed by
 *   `aggregatePlanVerification` of libs/plan-items (never a copy of the rule);
 * - the final report's frontmatter (read with a YAML parser), and data.json's
 *   `frontmatter` of a report that records planBodyVerification, carry the
 *   approval marker `approved: true` only while plan verification does not
 *   block and no `## 1. Clarification Items` row with `Blocks=approval` is open
 *   (seed 002: the report is published `approved: false`; the user approves).
 * An unparseable data.json, a planBodyVerification that fails its schema, or
 * frontmatter that is not YAML is `artifact-invalid`.
 */
export async function checkPlanVerification(run: RunUnderAudit): Promise<Finding[]> {
  const { verification, invalid } = await loadVerification(run);
  const out: Finding[] = [...invalid];
  if (verification?.pbv.result && verification.aggregate !== verification.pbv.result) {
    out.push({
      invariant: 'plan-verification',
      message: `planBodyVerification.result is ${verification.pbv.result} but its verdicts aggregate to ${verification.aggregate}`,
      evidence: [verification.dataPath],
    });
  }
  const report = await readReport(run);
  if (!report) return out;
  const fm = await readFrontmatter(report.text);
  if (!fm.ok) return [...out, { invariant: 'artifact-invalid', message: `final report frontmatter is not valid YAML: ${fm.error}`, evidence: [report.path] }];
  // The marker counts wherever the report's frontmatter is published: the Markdown's, or data.json's `frontmatter`
  // (parsed above only for a data.json that carries planBodyVerification; no second parse).
  const where = [
    ...(isApproved(fm.data) ? ['the final report frontmatter'] : []),
    ...(verification?.dataApproved ? ["the report data.json's frontmatter"] : []),
  ];
  if (where.length === 0) return out;
  const open = report.items.filter((i) => blocksApproval(i) && isOpen(i)).map((i) => i.id);
  const why = [
    ...(verification?.blocking ? [`plan verification is ${verification.blocking}`] : []),
    ...(open.length ? [`Clarification Items ${open.join(', ')} (Blocks=approval) are still open`] : []),
  ];
  if (why.length === 0) return out;
  const evidence = [report.path, ...(verification?.blocking || verification?.dataApproved ? [verification.dataPath] : [])];
  return [
    ...out,
    {
      invariant: 'plan-verification',
      message: `${where.join(' and ')} publish${where.length === 1 ? 'es' : ''} approved: true while ${why.join(' and ')}`,
      evidence,
    },
  ];
}

/**
 * Invariant 16 `clarification-missing`: once the run must have finished, a
 * blocking plan verification has its `## 1. Clarification Items` row(s) in the
 * final report (prompts/lead/plan-body-verification.md):
 * - `blocked-by-disagreement`: every blocking item (a DISAGREE with fixability
 *   `replan` or `needs-clarification`) is named by a row — the item id appears
 *   in the row, or the row's id is the item's `clarificationId`;
 * - `aborted-non-result`: some row names plan verification (`plan-body
 *   verification`, `plan verification`, `aborted-non-result`) or a plan item id.
 */
export async function checkClarificationRows(run: RunUnderAudit): Promise<Finding[]> {
  if (!mustHaveFinished(run)) return [];
  const { verification } = await loadVerification(run);
  if (!verification?.blocking) return [];
  const report = await readReport(run);
  const items = report?.items ?? [];
  const evidence = [verification.dataPath, ...(report ? [report.path] : [])];
  const where = report ? 'under ## 1. Clarification Items' : 'in a final report (there is none)';
  const names = (item: ClarificationItem, id: string) => new RegExp(`(?<![\\w-])${id}(?![\\w-])`).test(item.text);
  if (verification.blocking === 'blocked-by-disagreement') {
    const missing = verification.blockingItems.filter((b) => !items.some((i) => names(i, b.id) || i.id === b.clarificationId)).map((b) => b.id);
    if (missing.length === 0 && verification.blockingItems.length > 0) return [];
    const what = missing.length
      ? `blocking item${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ha${missing.length === 1 ? 's' : 've'} no row`
      : 'no row names a blocking item';
    return [{ invariant: 'clarification-missing', message: `plan verification is blocked-by-disagreement but ${what} ${where}`, evidence }];
  }
  const ids = verification.pbv.planItems.map((p) => p.id);
  const found = items.some((i) => /plan[- ]body verification|plan verification|aborted-non-result/i.test(i.text) || ids.some((id) => names(i, id)));
  if (found) return [];
  return [{ invariant: 'clarification-missing', message: `plan verification is aborted-non-result but no row ${where} says so`, evidence }];
}

export { publishesApproved } from '../report/frontmatter.js';
