import { runCitationChecker } from '@okstra/citations';
import { convergenceFinalStatePath, finalReportPath } from '@okstra/paths';
import { parseJsonText } from '@okstra/state-file';
import { type Finding, type RunUnderAudit } from '../run-context.js';

type FinalFinding = { id?: unknown; status?: unknown; evidence?: unknown };

/**
 * Invariant 30 `citation-unheld` (issue 42; docs/run-audit.md): the final report rests on no finding
 * whose evidence does not hold. A finding the report names by id that the convergence final state
 * records `agreed` — what the report presents as established — must have at least one citation of
 * its `evidence[]` that holds against the project (libs/citations: the file exists at the run's
 * recorded commit or in the working tree, the lines are in it). A finding with no citation at all
 * is not this rule's. Nothing is judged when the project has nothing to check against (unchecked).
 */
export async function checkCitedEvidence(run: RunUnderAudit): Promise<Finding[]> {
  const reportPath = finalReportPath(run.runDir, run);
  const statePath = convergenceFinalStatePath(run.runDir, run);
  if (!run.files.exists(reportPath) || !run.files.exists(statePath)) return [];
  const report = (await run.files.readText(reportPath)) ?? '';
  let findings: FinalFinding[] = [];
  try {
    const state = parseJsonText((await run.files.readText(statePath)) ?? '') as { findings?: unknown };
    if (Array.isArray(state?.findings)) findings = state.findings as FinalFinding[];
  } catch {
    return []; // an unparseable final state is invariant 0's
  }
  const rested = findings.filter(
    (f) => f.status === 'agreed' && typeof f.id === 'string' && Array.isArray(f.evidence) && f.evidence.length > 0 && new RegExp(`\\b${f.id}\\b`).test(report),
  );
  if (rested.length === 0) return [];
  const checker = runCitationChecker(run.runDir, run);
  if (checker.status === 'unchecked') return [];
  const out: Finding[] = [];
  for (const f of rested) {
    const cited = (f.evidence as unknown[]).filter((e): e is string => typeof e === 'string' && !e.includes('`'));
    const { citations } = checker.check(cited.map((e) => `\`${e}\``).join('\n'), null);
    if (citations.length === 0 || citations.some((c) => c.holds)) continue;
    out.push({
      invariant: 'citation-unheld',
      message: `the final report rests on ${f.id as string}, none of whose citations holds (${citations.map((c) => `${c.citation}: ${c.problem}`).join(', ')}; ${checker.tree.label})`,
      evidence: [reportPath, statePath],
    });
  }
  return out;
}
