// run-audit over the sample project finds exactly the planted broken runs
// (tasks payments/broken-*), then error-issue plan turns the anomalies into
// anonymized issue candidates — without gh (PATH has no gh: matching is
// recorded as unchecked) and without sending anything.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const title = 'run-audit and error-issue plan (planted broken runs, no submit)';

/** The violations planted under examples/sample-project/.okstra/tasks/payments/broken-*. */
// Each planted run also names `report-writer` as its report's author with no row for it (invariant 14 b).
const EXPECTED = [
  'sample:payments:broken-no-report report-missing',
  'sample:payments:broken-no-report result-missing',
  'sample:payments:broken-no-report report-writer-bypass',
  'sample:payments:broken-stale-worker worker-not-terminal',
  'sample:payments:broken-stale-worker result-missing',
  'sample:payments:broken-stale-worker report-writer-bypass',
];
/** Planted identities in the sample's errors-*.jsonl; none may appear in the plan. */
const PLANTED = ['zorblax', 'secret-pay', 'build-7', 'ghp_', '/home/', '/Users/', 'C:\\', 'file://', '%2F'];

export default async function ({ workDir, run, log }) {
  const project = join(workDir, 'sample-project');
  const audit = run('okstra', ['run-audit', '--project-root', project, '--json']);
  if (audit.code !== 1) return { ok: false, summary: `okstra run-audit exited ${audit.code}, expected 1 (violations): ${audit.stderr.trim()}` };
  const report = JSON.parse(audit.stdout);
  // Every violation and candidate here comes from what the sample planted on purpose: labelled so, not shown as a real failure.
  for (const v of report.violations) log(`  planted: [${v.invariant}] ${v.taskKey} ${v.taskType} ${v.seq}: ${v.message}`);
  const found = report.violations.map((v) => `${v.taskKey} ${v.invariant}`);
  if (JSON.stringify(found) !== JSON.stringify(EXPECTED)) {
    return { ok: false, summary: `run-audit found [${found.join('; ')}], expected exactly the planted [${EXPECTED.join('; ')}]` };
  }

  // A private HOME (no ~/.okstra/config.json) and a PATH without gh: the plan is made offline.
  const home = mkdtempSync(join(tmpdir(), 'okstra-demo-home-'));
  const noGh = mkdtempSync(join(tmpdir(), 'okstra-demo-nogh-'));
  const planFile = join(workDir, 'error-issue-plan.json');
  let plan;
  try {
    plan = run('okstra', ['error-issue', 'plan', '--project-root', project, '--output', planFile], { env: { HOME: home, PATH: noGh } });
  } finally {
    for (const dir of [home, noGh]) rmSync(dir, { recursive: true, force: true });
  }
  if (plan.code !== 0) return { ok: false, summary: `okstra error-issue plan exited ${plan.code}: ${plan.stderr.trim()}` };
  const out = JSON.parse(plan.stdout);
  for (const c of out.candidates) log(`  planted: candidate ${c.id} ${c.decision} ${c.title}`);
  const text = readFileSync(planFile, 'utf8');
  const leaked = PLANTED.filter((p) => text.toLowerCase().includes(p.toLowerCase()));
  if (out.matching.status !== 'unchecked') return { ok: false, summary: `matching should be unchecked without gh, got ${out.matching.status}` };
  if (leaked.length) return { ok: false, summary: `plan file contains planted identities: ${leaked.join(', ')}` };
  const titles = out.candidates.map((c) => c.title);
  const wanted = ['run-audit result-missing', 'run-audit report-writer-bypass', 'okstra-convergence OKSTRA_INTERNAL'];
  if (out.candidates.length !== wanted.length || !wanted.every((w) => titles.some((t) => t.includes(w)))) {
    return { ok: false, summary: `expected ${wanted.length} candidates (${wanted.join(', ')}), got ${titles.length}: ${titles.join(' | ')}` };
  }
  return {
    ok: true,
    summary: `${report.runsScanned} runs audited, the ${EXPECTED.length} planted violations found; ${out.candidates.length} anonymized candidates planned (matching unchecked, nothing sent)`,
  };
}
