// okstra-plan-items over the sample task's implementation-planning run (seq 001):
// extract the P-* queue, validate it, collect the two workers' plan-verify
// responses (LLM-written: preambles, mixed Verdict spellings, CRLF, a fenced fake
// heading), apply them to the report data.json, and preview the re-run scope of
// answering C-004 and C-007 — all through the real bins on the temp copy.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { finalReportDataPath, planItemsPath, planVerdictsPath, planVerifyResultPath, runDir, taskRoot } from '@okstra/paths';

export const title = 'plan-body verification: extract → collect-verdicts → apply-verdicts → incremental-scope --preview';

const RUN = { taskType: 'implementation-planning', seq: 1 };

export default async function ({ workDir, run, log }) {
  const root = join(workDir, 'sample-project');
  const dir = runDir(taskRoot(root, { taskGroup: 'payments', taskId: 'refund-timeout' }), RUN);
  const rel = (p) => relative(root, p);
  const data = rel(finalReportDataPath(dir, RUN));
  const items = rel(planItemsPath(dir, RUN));
  const verdicts = rel(planVerdictsPath(dir, RUN));
  const committed = readFileSync(join(root, data), 'utf8');
  const step = (bin, args) => {
    log(`  $ ${bin} ${args.join(' ')}`);
    const r = run(bin, args, { cwd: root });
    if (r.code !== 0) throw new Error(`${bin} ${args[0]} exited ${r.code}: ${r.stderr.trim()}`);
    return JSON.parse(r.stdout);
  };

  const extracted = step('okstra', ['plan-items', 'extract', '--data', data, '--output', items]);
  log(
    `    ${extracted.count} items: ${Object.entries(extracted.kinds)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}`,
  );
  step('okstra', ['plan-items', 'validate', '--data', data, '--items', items]);
  const results = ['claude', 'codex'].flatMap((w) => ['--result', `${w}=${rel(planVerifyResultPath(dir, w, RUN))}`]);
  const collected = step('okstra', ['plan-items', 'collect-verdicts', ...results, '--items', items, '--output', verdicts]);
  log(`    ${collected.verdicts} verdicts from ${collected.contributors.join(', ')}`);
  const applied = step('okstra', ['plan-items', 'apply-verdicts', '--data', data, '--verdicts', verdicts]);
  log(
    `    aggregate: ${applied.result} — ${applied.agree} AGREE, ${applied.supplement} SUPPLEMENT, ${applied.dissent} in-place DISAGREE, ${applied.blocking} blocking`,
  );
  const report = JSON.parse(readFileSync(join(root, data), 'utf8'));
  for (const row of report.implementationPlanning.planBodyVerification.planItems) {
    for (const v of row.verdicts.filter((x) => x.verdict === 'DISAGREE'))
      log(`    ${row.id} ${v.workerId}: DISAGREE (${v.breakageKind}) ${v.fixability} — ${v.basis.split('\n')[0]}`);
  }
  const preview = step('okstra', ['incremental-scope', '--preview', '--prev-data', data, '--answered-clarifications', 'C-004,C-007']);
  log(`    preview C-004,C-007: wouldForceFull=${preview.wouldForceFull} (${preview.reason})`);
  const unlinked = step('okstra', ['incremental-scope', '--preview', '--prev-data', data, '--answered-clarifications', 'C-002']);
  log(`    preview C-002:       wouldForceFull=${unlinked.wouldForceFull} (${unlinked.reason})`);

  if (applied.result !== 'passed-with-dissent') return { ok: false, summary: `expected passed-with-dissent, got ${applied.result}` };
  if (readFileSync(join(root, data), 'utf8') !== committed) return { ok: false, summary: 'apply-verdicts did not reproduce the committed data.json' };
  if (preview.wouldForceFull || !unlinked.wouldForceFull) return { ok: false, summary: 'unexpected incremental-scope preview' };
  return {
    ok: true,
    summary: `${extracted.count} plan items, ${collected.verdicts} verdicts, aggregate ${applied.result}; C-004,C-007 stay incremental, C-002 forces full`,
  };
}
