// Citations grounded in the code (issue 42): every citation the sample's worker results make holds
// against the sample project's own sources, and one invented citation planted into a copy of a result
// is caught by worker-audit-check before anyone votes on it.
import { appendFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';

export const title = 'citations checked against the project (one planted invented citation caught)';

const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';
const PLANTED = 'src/payments/refunds/refund-ledger.ts:14';

export default async function ({ workDir, run, log }) {
  const check = (project) => run('okstra', ['worker-audit-check', '--run-dir', join(project, RUN), '--task-type', 'error-analysis', '--seq', '001']);
  const clean = check(join(workDir, 'sample-project'));
  if (clean.code !== 0) return { ok: false, summary: `worker-audit-check on the sample exited ${clean.code}: ${clean.stdout}${clean.stderr}` };
  const workers = JSON.parse(clean.stdout).citations;
  const unchecked = workers.filter((w) => w.status !== 'checked');
  if (unchecked.length) return { ok: false, summary: `citations unchecked for ${unchecked.map((w) => w.worker).join(', ')}: ${unchecked[0].reason}` };
  const cited = workers.reduce((n, w) => n + w.cited, 0);
  const holding = workers.reduce((n, w) => n + w.holding, 0);
  for (const w of workers) log(`  ${w.worker}: ${w.cited} cited, ${w.exist} exist, ${w.match}/${w.quoted} quotes match, read ${w.read}`);
  if (holding !== cited) return { ok: false, summary: `${cited - holding} of the sample's ${cited} citations do not hold` };

  // A copy, so the planted citation touches no other step's project.
  const copy = join(workDir, 'citations-planted');
  cpSync(join(workDir, 'sample-project'), copy, { recursive: true });
  appendFileSync(join(copy, RUN, 'worker-results/claude-error-analysis-001.md'), `\n## A10. Refund ledger double-posts\n\nEvidence: \`${PLANTED}\`\n`);
  const planted = check(copy);
  const failures = planted.code === 2 ? JSON.parse(planted.stdout).failures : [];
  for (const f of failures) log(`  planted: [${f.rule}] ${f.worker}: ${f.message}`);
  if (failures.length !== 1 || failures[0].rule !== 'citation-not-found' || failures[0].citation !== PLANTED)
    return { ok: false, summary: `the planted citation was not caught: exit ${planted.code}, ${planted.stdout}${planted.stderr}` };
  return {
    ok: true,
    summary: `all ${cited} citations of the sample's results hold; the planted invented citation ${PLANTED} is caught (exit 2, citation-not-found)`,
  };
}
