// Mutation classes for claims one artifact records that the artifact meant to back them does not (seed rules S1,
// S3–S6, S10, S11, S13, S14, S18, S19, S21, S24–S26, S29): an author, a provider, a result path, a prompt, a start, a
// retry, a wrapper's status, a degraded pane, a jobs file's fields, the P-* queue, a listed response, the plan
// verification's order and publication, the run a file names, a Section 0 table, a reframe, the lead prompt alias —
// and the legal shapes beside them. History: found unjudged by the first independent held-out set (issue #24; the
// file was classes-heldout.ts, ids b-…). Not part of the build.
import { completed, completedAnalyser, isWriter, writerRow, type LegalVariant, type MutationClass } from './helpers.js';
import type { RunModel } from './model.js';

const sidecarOf = (r: RunModel, row: any) => r.local(row.auditSidecarPath) ?? r.p.sidecar(row.workerId);
const promptOf = (r: RunModel, row: any) => r.local(row.promptPath) ?? r.p.prompt(row.workerId);

/** Edit the report data.json's plan-body verification; false when it has none. */
function pbv(r: RunModel, fn: (v: any) => void): boolean {
  if (!r.has(r.p.data)) return false;
  const data = r.json(r.p.data);
  const v = data.implementationPlanning?.planBodyVerification;
  if (!v || !Array.isArray(v.planItems) || v.planItems.length < 2) return false;
  fn(v);
  r.setJson(r.p.data, data);
  return true;
}

function queue(r: RunModel, fn: (items: any[]) => boolean): boolean {
  if (!r.has(r.p.planItems)) return false;
  const q = r.json(r.p.planItems);
  if (!Array.isArray(q.items) || q.items.length < 2 || !fn(q.items)) return false;
  r.setJson(r.p.planItems, q);
  return true;
}

/** Rewrite the final report's frontmatter line `key: …`; false when the report has none. */
function frontmatter(r: RunModel, re: RegExp, to: string): boolean {
  if (!r.has(r.p.report) || !re.test(r.text(r.p.report))) return false;
  r.set(r.p.report, r.text(r.p.report).replace(re, to));
  return true;
}

function insertAfterTitle(r: RunModel, section: string, approve = false): boolean {
  if (!r.has(r.p.report)) return false;
  let t = r.text(r.p.report);
  if (approve) {
    if (!/^approved: false$/m.test(t)) return false;
    t = t.replace(/^approved: false$/m, 'approved: true');
  }
  const m = /^# .*\n/m.exec(t);
  r.set(r.p.report, m ? t.slice(0, m.index + m[0].length) + '\n' + section + t.slice(m.index + m[0].length) : t + '\n' + section);
  return true;
}

const degraded = (r: RunModel) => r.manifest.workerDispatches.some((d: any) => d.degradedFrom);

export const UNBACKED_CLAIM_CLASSES: MutationClass[] = [
  // S1 the report writer authors the report
  {
    id: 'claim-s1-frontmatter-author-lead',
    rule: 'S1',
    apply: (r) => r.manifest.reportAuthor === 'report-writer' && frontmatter(r, /^reportAuthor: report-writer$/m, 'reportAuthor: lead'),
  },
  {
    id: 'claim-s1-credited-writer-row-missing',
    rule: 'S1',
    apply: (r) =>
      completed(r) &&
      r.manifest.reportAuthor === 'report-writer' &&
      r.manifest.workerAssignments.some(isWriter) &&
      !!writerRow(r) &&
      r.rows.length > 1 &&
      (r.editRows((rows) => rows.splice(rows.findIndex(isWriter), 1)), true),
  },
  // S3 required roles are not replaced: the selected worker's row is another CLI's work
  {
    id: 'claim-s3-row-provider-differs',
    rule: 'S3',
    apply: (r) => {
      const a = completedAnalyser(r);
      const sel = a && r.manifest.workerAssignments.find((x: any) => (x.workerId ?? x.provider) === a.row.workerId);
      return (
        !!sel?.provider &&
        !!a!.row.provider &&
        r.editRow(
          (w) => w.workerId === a!.row.workerId,
          (w) => void (w.provider = sel.provider === 'gemini' ? 'kimi' : 'gemini'),
        )
      );
    },
  },
  // S4 a recorded result path is believed no more than the file it names
  {
    id: 'claim-s4-result-path-is-sidecar',
    rule: 'S4',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || !r.has(sidecarOf(r, a.row))) return false;
      r.del(a.result);
      return r.editRow(
        (w) => w.workerId === a.row.workerId,
        (w) => void (w.resultPath = r.p.recorded(sidecarOf(r, a.row))),
      );
    },
  },
  {
    id: 'claim-s4-result-only-heartbeats',
    rule: 'S4',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || a.result.endsWith('.json')) return false;
      r.set(a.result, '- PROGRESS: 2026-11-29T08:01:10Z round-1 starting\n- PROGRESS: 2026-11-29T08:05:10Z round-1 reading files\n');
      return true;
    },
  },
  // S5 the saved prompt is what was dispatched
  {
    id: 'claim-s5-prompt-unrendered',
    rule: 'S5',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || !r.has(promptOf(r, a.row))) return false;
      r.set(promptOf(r, a.row), '# {{ROLE}}: {{TASK_TITLE}}\n\n{{INSTRUCTIONS}}\n');
      return true;
    },
  },
  // S6 in-progress records the authoritative startedAt
  {
    id: 'claim-s6-in-progress-no-start',
    rule: 'S6',
    apply: (r) =>
      r.editRow(
        (w) => w.status === 'in-progress' && !!w.startedAt,
        (w) => void (w.startedAt = null),
      ),
  },
  // S10 one retry per worker per run, whatever the dispatch kind
  {
    id: 'claim-s10-second-retry-other-kind',
    rule: 'S10',
    apply: (r) => {
      const d = r.manifest.workerDispatches.find((x: any) => /-retry$/.test(x.dispatchKind));
      if (!d) return false;
      r.editManifest((m) => void m.workerDispatches.push({ ...d, dispatchKind: 'reverify-r1-retry', paneId: d.paneId ? '%77' : d.paneId }));
      return true;
    },
  },
  // S11 completion comes from the wrapper's terminal status sidecar, not the row's word
  {
    id: 'claim-s11-wrapper-log-without-status',
    rule: 'S11',
    apply: (r) => {
      const row = r.rows.find(
        (w) => w.status === 'completed' && w.livenessMode === 'wrapper-status' && r.has(r.p.status(w.workerId)) && r.has(r.p.log(w.workerId)),
      );
      if (!row || !r.manifest.workerDispatches.some((d: any) => d.workerId === row.workerId)) return false;
      r.del(r.p.status(row.workerId));
      return true;
    },
  },
  // S13 a degraded dispatch runs as the CLI wrapper
  {
    id: 'claim-s13-degraded-still-pane',
    rule: 'S13',
    apply: (r) =>
      degraded(r) &&
      (r.editManifest((m) => {
        const d = m.workerDispatches.find((x: any) => x.degradedFrom);
        Object.assign(d, { backend: d.degradedFrom, paneId: '%78', tornDownAt: m.endedAt ?? d.startedAt });
      }),
      true),
  },
  // S14 every reverify jobs file carries the seed's fields
  {
    id: 'claim-s14-reverify-jobs-fields-missing',
    rule: 'S14',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || !r.has(r.p.manifest)) return false;
      const s = `${r.main.taskType}-${r.main.seq}`;
      r.setJson(`${r.main.dir}/state/reverify-jobs-r1-${s}.json`, {
        schemaVersion: '1.0',
        dispatchKind: 'reverify-r1',
        jobs: [
          {
            workerId: a.row.workerId,
            provider: a.row.provider,
            role: 'worker-reverify-r1',
            promptPath: r.p.recorded(`${r.main.dir}/prompts/${a.row.workerId}-prompt-reverify-r1-${s}.md`),
          },
        ],
      });
      return true;
    },
  },
  // S18 the persisted queue is the extraction, order, kinds and stages included
  { id: 'claim-s18-queue-reordered', rule: 'S18', apply: (r) => queue(r, (q) => (q[0].id !== q[1].id ? (([q[0], q[1]] = [q[1], q[0]]), true) : false)) },
  {
    id: 'claim-s18-queue-kind-changed',
    rule: 'S18',
    apply: (r) => queue(r, (q) => (q[0].kind ? ((q[0].kind = q[0].kind === 'validation' ? 'rollback' : 'validation'), true) : false)),
  },
  // S19 the verdicts come from saved responses
  {
    id: 'claim-s19-listed-response-missing',
    rule: 'S19',
    apply: (r) => {
      const listed: unknown = r.manifest.planVerification?.responses;
      const first = Array.isArray(listed) ? r.local(String(listed[0])) : null;
      if (!first || !r.has(first)) return false;
      r.del(first);
      return true;
    },
  },
  // S21 plan verification runs after the draft, and is published when enabled
  {
    id: 'claim-s21-plan-verify-before-writer',
    rule: 'S21',
    apply: (r) => {
      const w = writerRow(r);
      const sides = r.matching(/-plan-verify-[^/]*\.audit\.md$/);
      if (!w?.startedAt || w.status !== 'completed' || sides.length === 0) return false;
      const early = new Date(Date.parse(w.startedAt) - 30 * 60_000).toISOString().replace('.000Z', 'Z');
      r.set(sides[0]!, `# Audit sidecar\n\n- PROGRESS: ${early} plan-verify reading the plan items\n`);
      return true;
    },
  },
  {
    id: 'claim-s21-verification-never-published',
    rule: 'S21',
    apply: (r) =>
      completed(r) &&
      r.manifest.planVerification?.enabled === true &&
      pbv(r, (v) => void v) &&
      (r.edit(r.p.data, (d: any) => void delete d.implementationPlanning.planBodyVerification), true),
  },
  {
    id: 'claim-s21-report-section6-differs',
    rule: 'S21',
    apply: (r) => {
      if (!r.has(r.p.report) || !r.has(r.p.data)) return false;
      const result = r.json(r.p.data).implementationPlanning?.planBodyVerification?.result;
      const t = r.text(r.p.report);
      if (!result || !t.includes(`Result: **${result}**`)) return false;
      r.set(r.p.report, t.replace(`Result: **${result}**`, `Result: **${result === 'passed' ? 'passed-with-dissent' : 'passed'}**`));
      return true;
    },
  },
  // S24 the -<type>-<seq> suffix separates reruns: artifacts naming another run are another run's
  {
    id: 'claim-s24-team-state-path-other-seq',
    rule: 'S24',
    apply: (r) => {
      if (!r.has(r.p.teamState)) return false;
      const other = r.p.teamState.replace(/-(\d+)\.json$/, (_m, n: string) => `-${String(Number(n) + 1).padStart(n.length, '0')}.json`);
      r.set(other, r.text(r.p.teamState));
      r.del(r.p.teamState);
      r.editManifest((m) => void (m.teamStatePath = r.p.recorded(other)));
      return true;
    },
  },
  {
    id: 'claim-s24-data-json-other-seq',
    rule: 'S24',
    apply: (r) =>
      r.has(r.p.data) && r.json(r.p.data).seq !== undefined && (r.edit(r.p.data, (d: any) => void (d.seq = String(Number(d.seq) + 1).padStart(3, '0'))), true),
  },
  { id: 'claim-s24-frontmatter-other-seq', rule: 'S24', apply: (r) => frontmatter(r, /^seq: "(\d+)"$/m, 'seq: "999"') },
  // S25 / S26 report content
  {
    id: 'claim-s25-section0-header-only-table',
    rule: 'S25',
    apply: (r) => insertAfterTitle(r, '## 0. Clarification Response Carried In From Previous Run\n\n| ID | Response |\n|---|---|\n\n'),
  },
  { id: 'claim-s26-reframe-bold-approved', rule: 'S26', apply: (r) => insertAfterTitle(r, '## C-101\n\n- **Disposition**: reframe\n\n', true) },
  // S29 the alias has its canonical prompt
  {
    id: 'claim-s29-alias-without-canonical',
    rule: 'S29',
    apply: (r) => {
      const lead = r.matching(/\/prompts\/lead-execution-prompt[^/]*\.md$/);
      if (lead.length === 0 || !r.has(lead[0]!.replace('lead-execution-prompt', 'claude-execution-prompt'))) return false;
      r.del(lead[0]!);
      return true;
    },
  },
];

export const UNBACKED_CLAIM_LEGAL: LegalVariant[] = [
  {
    id: 'l-result-template-in-fence',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || a.result.endsWith('.json')) return false;
      r.set(a.result, `${r.text(a.result)}\n## Note\n\nThe template the code renders:\n\n\`\`\`\n{{ORDER_ID}}\n\`\`\`\n`);
      return true;
    },
  },
  {
    id: 'l-section0-table-with-row',
    apply: (r) =>
      insertAfterTitle(r, '## 0. Clarification Response Carried In From Previous Run\n\n| ID | Response |\n|---|---|\n| C-002 | yes, as a stop-gap |\n\n'),
  },
  {
    id: 'l-reframe-bold-not-approved',
    apply: (r) => r.has(r.p.report) && /^approved: false$/m.test(r.text(r.p.report)) && insertAfterTitle(r, '## C-101\n\n- **Disposition**: reframe\n\n'),
  },
  {
    id: 'l-frontmatter-identity-quoted',
    apply: (r) => frontmatter(r, /^seq: "(\d+)"$/m, `seq: '${r.main.seq}' # this run`),
  },
  {
    id: 'l-reverify-jobs-complete',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a) return false;
      const s = `${r.main.taskType}-${r.main.seq}`;
      const res = r.p.recorded(`${r.main.dir}/worker-results/${a.row.workerId}-reverify-r1-${s}.md`);
      const job = (w: string) => ({
        workerId: w,
        provider: a.row.provider,
        role: 'worker-reverify-r1',
        // The assignment's execution value (fact edge reverify-job-model); a second job's worker has no assignment.
        modelExecutionValue: r.manifest.workerAssignments.find((x: any) => (x.workerId ?? x.provider) === w)?.executionValue ?? 'm',
        promptPath: r.p.recorded(`${r.main.dir}/prompts/${w}-prompt-reverify-r1-${s}.md`),
        resultPath: res,
        workerResultPath: res,
        completionPaths: [res],
      });
      r.setJson(`${r.main.dir}/state/reverify-jobs-r1-${s}.json`, {
        schemaVersion: '1.0',
        dispatchKind: 'reverify-r1',
        jobs: [job(a.row.workerId), job(`${a.row.workerId}-b`)],
      });
      return true;
    },
  },
  {
    id: 'l-plan-verify-after-writer-start',
    apply: (r) => {
      const w = writerRow(r);
      const sides = r.matching(/-plan-verify-[^/]*\.audit\.md$/);
      if (!w?.endedAt || sides.length === 0) return false;
      const late = new Date(Date.parse(w.endedAt) + 60_000).toISOString().replace('.000Z', 'Z');
      r.set(sides[0]!, `\uFEFF# Audit sidecar\r\n\r\n- PROGRESS: ${late} plan-verify reading the plan items\r\n`);
      return true;
    },
  },
];
