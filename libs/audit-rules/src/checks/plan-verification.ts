import { finalReportDataPath, finalReportPath } from '@okstra/paths';
import { formatJsonPath } from '@okstra/state-file';
import type { Finding, RunUnderAudit } from '../run-context.js';

/**
 * Invariant 9 `plan-verification`:
 * - the report data.json's `implementationPlanning.planBodyVerification.result`
 *   (when set) equals the aggregate of its rows' verdicts, computed by
 *   `aggregatePlanVerification` of libs/plan-items (never a copy of the rule);
 * - the final report's frontmatter never publishes `approved: true` (seed 002
 *   README: `approved` is always published false; approval is the user's).
 * An unparseable data.json or a planBodyVerification that fails its schema is
 * `artifact-invalid`.
 */
export async function checkPlanVerification(run: RunUnderAudit): Promise<Finding[]> {
  const out: Finding[] = [];
  const dataPath = finalReportDataPath(run.runDir, run);
  if (run.files.exists(dataPath)) {
    const text = await run.files.readText(dataPath);
    // Report data.json files can be large; only one that carries the section is parsed.
    if (text !== null && !text.includes('"planBodyVerification"')) return [...(await approvedFinding(run))];
    let data: unknown;
    try {
      data = JSON.parse(text ?? '');
    } catch (error) {
      return [{ invariant: 'artifact-invalid', message: `report data.json is not valid JSON: ${(error as Error).message}`, evidence: [dataPath] }];
    }
    const raw = (data as { implementationPlanning?: { planBodyVerification?: unknown } } | null)?.implementationPlanning?.planBodyVerification;
    if (raw !== undefined && raw !== null) {
      // Loaded only for a report that carries the section (cold start of run-audit and worker-audit-check).
      const [{ PlanBodyVerification }, { aggregatePlanVerification }] = await Promise.all([
        import('@okstra/schemas/implementation-planning'),
        import('@okstra/plan-items'),
      ]);
      const parsed = PlanBodyVerification.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = formatJsonPath(['implementationPlanning', 'planBodyVerification', ...(issue?.path ?? [])]);
        out.push({ invariant: 'artifact-invalid', message: `report data.json ${field}: ${issue?.message ?? 'invalid'}`, evidence: [dataPath] });
      } else if (parsed.data.result) {
        const expected = aggregatePlanVerification(parsed.data.planItems);
        if (expected !== parsed.data.result) {
          out.push({
            invariant: 'plan-verification',
            message: `planBodyVerification.result is ${parsed.data.result} but its verdicts aggregate to ${expected}`,
            evidence: [dataPath],
          });
        }
      }
    }
  }
  out.push(...(await approvedFinding(run)));
  return out;
}

async function approvedFinding(run: RunUnderAudit): Promise<Finding[]> {
  const reportPath = finalReportPath(run.runDir, run);
  if (!run.files.exists(reportPath)) return [];
  const report = await run.files.readText(reportPath);
  if (report === null || !publishesApproved(report)) return [];
  return [{ invariant: 'plan-verification', message: 'the final report frontmatter publishes approved: true', evidence: [reportPath] }];
}

/** True when the report's leading `---` frontmatter has `approved: true` (YAML 1.2 boolean, optionally quoted). */
export function publishesApproved(markdown: string): boolean {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\s*(?:\r?\n|$)/.exec(markdown);
  if (!m) return false;
  return /^approved:\s*(?:true|True|TRUE|"true"|'true')\s*(?:#.*)?$/m.test(m[1]!);
}
