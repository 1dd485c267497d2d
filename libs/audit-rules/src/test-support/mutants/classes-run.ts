// Mutation classes for the report writer, report, convergence, plan and run rules
// (seed rules S1, S2, S14–S30, S32, S35 of docs/run-audit.md). Not part of the build.
import { completed, ended, isWriter, leadFallback, shift, writerRow, type MutationClass } from './helpers.js';
import type { RunModel } from './model.js';

const hasWriter = (r: RunModel) => !!writerRow(r);
const pbv = (r: RunModel) =>
  r.has(r.p.data) && r.text(r.p.data).includes('"planBodyVerification"') ? r.json(r.p.data).implementationPlanning.planBodyVerification : null;
const editPbv = (r: RunModel, fn: (v: any) => void) => {
  if (!pbv(r)) return false;
  r.edit(r.p.data, (d: any) => fn(d.implementationPlanning.planBodyVerification));
  return true;
};
const reportBody = (r: RunModel, fn: (text: string) => string) => {
  if (!r.has(r.p.report)) return false;
  r.set(r.p.report, fn(r.text(r.p.report)));
  return true;
};
const approve = (text: string) => (/approved:\s*false/.test(text) ? text.replace(/approved:\s*false/, 'approved: true') : `---\napproved: true\n---\n${text}`);
const block = (v: any) => {
  const item = v.planItems[v.planItems.length - 1];
  const w = item.verdicts[0]?.workerId ?? v.contributors[0] ?? 'codex';
  item.verdicts = item.verdicts.filter((x: any) => x.workerId !== w);
  item.verdicts.push({ workerId: w, verdict: 'DISAGREE', breakageKind: 'b', fixability: 'replan', basis: 'the step cannot pass' });
  v.result = 'blocked-by-disagreement';
  return item.id as string;
};
const ERRORS_LOG = 'errors-2026-11-29.jsonl';
/** Rewrite the task's errors log; false when the run has none. */
const editErrorsLog = (r: RunModel, fn: (text: string) => string) => r.has(ERRORS_LOG) && (r.set(ERRORS_LOG, fn(r.text(ERRORS_LOG))), true);
const finalState = (r: RunModel) => (r.has(r.p.final) ? r.p.final : null);
const carryOf = (r: RunModel) => {
  const n = Number(/stage-(\d+)/.exec(r.main.dir)?.[1]);
  return n ? r.p.carry(n) : null;
};

export const RUN_CLASSES: MutationClass[] = [
  // S1 the report writer authors the report; the lead only after a real, failed dispatch
  {
    id: 's1-lead-author-writer-completed',
    rule: 'S1',
    apply: (r) => completed(r) && hasWriter(r) && writerRow(r).status === 'completed' && (r.editManifest((m) => void (m.reportAuthor = 'lead')), true),
  },
  {
    id: 's1-lead-author-no-writer-row',
    rule: 'S1',
    apply: (r) => hasWriter(r) && (r.editRows((rows) => rows.splice(rows.findIndex(isWriter), 1)), r.editManifest((m) => void (m.reportAuthor = 'lead')), true),
  },
  { id: 's1-lead-author-writer-no-reason', rule: 'S1', apply: (r) => hasWriter(r) && leadFallback(r, '') },
  {
    id: 's1-writer-author-row-failed',
    rule: 'S1',
    apply: (r) =>
      ended(r) &&
      hasWriter(r) &&
      r.manifest.reportAuthor === 'report-writer' &&
      r.editRow(isWriter, (w) => Object.assign(w, { status: 'error', reason: 'provider exited 1' })),
  },
  {
    id: 's1-lead-fallback-never-started',
    rule: 'S1',
    apply: (r) =>
      hasWriter(r) && leadFallback(r, 'no data.json after the retry') && r.editRow(isWriter, (w) => void delete w.startedAt) && delPrompt(r, writerRow(r)),
  },
  // S2 session resume / a dead team are not reasons to skip the writer
  { id: 's2-not-run-session-resume', rule: 'S2', apply: (r) => hasWriter(r) && leadFallback(r, 'Session resume', 'not-run') },
  { id: 's2-not-run-team-gone', rule: 'S2', apply: (r) => hasWriter(r) && leadFallback(r, 'the team is no longer alive', 'not-run') },
  {
    id: 's2-timeout-resumed-no-dispatch',
    rule: 'S2',
    apply: (r) =>
      hasWriter(r) && r.manifest.workerDispatches.every((d: any) => d.workerId !== writerRow(r).workerId) && leadFallback(r, 'resumed session; team is gone'),
  },
  // S14 the report writer's jobs file and completion paths
  {
    id: 's14-writer-completed-no-data',
    rule: 'S14',
    apply: (r) => completed(r) && hasWriter(r) && writerRow(r).status === 'completed' && r.has(r.p.data) && (r.del(r.p.data), true),
  },
  {
    id: 's14-writer-no-audit-sidecar',
    rule: 'S14',
    apply: (r) => {
      const w = writerRow(r);
      if (!w || w.status !== 'completed' || !r.has(r.p.sidecar(w.workerId))) return false;
      r.del(r.p.sidecar(w.workerId));
      return true;
    },
  },
  { id: 's14-jobs-file-missing-fields', rule: 'S14', apply: (r) => writerJobs(r, (j) => void delete j.jobs[0].completionPaths) },
  { id: 's14-jobs-file-wrong-kind', rule: 'S14', apply: (r) => writerJobs(r, (j) => void (j.dispatchKind = 'initial')) },
  {
    id: 's14-jobs-completion-no-data',
    rule: 'S14',
    apply: (r) => writerJobs(r, (j) => void (j.jobs[0].completionPaths = j.jobs[0].completionPaths.filter((p: string) => !p.endsWith('.data.json')))),
  },
  // S15 panes are torn down
  { id: 's15-pane-not-torn-down', rule: 'S15', apply: (r) => tornDown(r, (d) => void delete d.tornDownAt) },
  { id: 's15-torn-down-before-dispatch', rule: 'S15', apply: (r) => tornDown(r, (d) => void (d.tornDownAt = shift(d.startedAt, -5))) },
  {
    id: 's15-torn-down-before-worker-ended',
    rule: 'S15',
    apply: (r) =>
      tornDown(r, (d) => {
        const row = r.rows.find((w) => w.workerId === d.workerId);
        d.tornDownAt = shift(row?.endedAt ?? d.startedAt, -10);
      }),
  },
  // S16 round responses answer what was dispatched
  { id: 's16-reverify-empty', rule: 'S16', apply: (r) => reverify(r, () => '') },
  { id: 's16-reverify-template', rule: 'S16', apply: (r) => reverify(r, () => '## {{FINDING_ID}}\n- Verdict: {{VERDICT}}\n') },
  { id: 's16-reverify-no-ids', rule: 'S16', apply: (r) => reverify(r, () => 'I re-checked everything and it all holds.\n') },
  // S17 convergence finalized and valid
  {
    id: 's17-final-invalid',
    rule: 'S17',
    apply: (r) => {
      const f = finalState(r);
      if (!f) return false;
      r.edit(f, (s: any) => void (s.counts.agreed += 1));
      return true;
    },
  },
  { id: 's17-final-removed-report-present', rule: 'S17', apply: (r) => !!finalState(r) && r.has(r.p.report) && (r.del(finalState(r)!), true) },
  {
    id: 's17-final-other-seq',
    rule: 'S17',
    apply: (r) => {
      const f = finalState(r);
      if (!f) return false;
      r.edit(f, (s: any) => Object.assign(s, { taskType: r.main.taskType, seq: '007' }));
      return true;
    },
  },
  {
    id: 's17-round-after-final',
    rule: 'S17',
    apply: (r) => {
      const f = finalState(r);
      const d = r.manifest.workerDispatches[0];
      const limit = f && r.json(f).roundLimit;
      if (!f || !d || typeof limit !== 'number') return false;
      r.editManifest((m) => m.workerDispatches.push({ ...d, dispatchKind: `reverify-r${limit + 1}`, startedAt: shift(d.startedAt, 30) }));
      return true;
    },
  },
  // S18 the persisted P-* queue matches a fresh extraction
  { id: 's18-queue-item-dropped', rule: 'S18', apply: (r) => planItems(r, (q) => void q.items.pop()) },
  { id: 's18-queue-item-added', rule: 'S18', apply: (r) => planItems(r, (q) => void q.items.push({ ...q.items[0], id: 'P-Step-9-9' })) },
  { id: 's18-queue-text-changed', rule: 'S18', apply: (r) => planItems(r, (q) => void (q.items[0].text = `${q.items[0].text} (edited)`)) },
  // S19 verdicts are complete
  {
    id: 's19-disagree-no-breakage',
    rule: 'S19',
    apply: (r) => editPbv(r, (v) => Object.assign(v.planItems[0].verdicts[0], { verdict: 'DISAGREE', breakageKind: null, fixability: 'in-place' })),
  },
  {
    id: 's19-disagree-no-fixability',
    rule: 'S19',
    apply: (r) => editPbv(r, (v) => Object.assign(v.planItems[0].verdicts[0], { verdict: 'DISAGREE', breakageKind: 'b', fixability: null })),
  },
  { id: 's19-item-unanswered', rule: 'S19', apply: (r) => editPbv(r, (v) => void (v.planItems[0].verdicts = v.planItems[0].verdicts.slice(1))) },
  // S20 one round's votes only
  {
    id: 's20-duplicate-vote',
    rule: 'S20',
    apply: (r) => editPbv(r, (v) => void v.planItems[0].verdicts.push({ ...v.planItems[0].verdicts[0], verdict: 'AGREE' })),
  },
  {
    id: 's20-vote-of-non-contributor',
    rule: 'S20',
    apply: (r) => editPbv(r, (v) => void v.planItems[0].verdicts.push({ ...v.planItems[0].verdicts[0], workerId: 'old-round-worker' })),
  },
  {
    id: 's20-verdicts-file-two-rounds',
    rule: 'S20',
    apply: (r) => {
      if (!r.has(r.p.planVerdicts)) return false;
      r.edit(r.p.planVerdicts, (f: any) => {
        const list = f.verdicts ?? f.items ?? f.planItems;
        if (Array.isArray(list) && list[0]) list.push(structuredClone(list[0]));
      });
      return true;
    },
  },
  // S21 plan verification after the draft; approved stays false while blocking
  { id: 's21-result-mismatch', rule: 'S21', apply: (r) => editPbv(r, (v) => void (v.result = v.result === 'passed' ? 'aborted-non-result' : 'passed')) },
  { id: 's21-approved-while-blocking', rule: 'S21', apply: (r) => editPbv(r, (v) => void block(v)) && reportBody(r, approve) },
  {
    id: 's21-blocking-no-clarification',
    rule: 'S21',
    apply: (r) => editPbv(r, (v) => void block(v)) && reportBody(r, (t) => t.replace(/^## 1\. Clarification Items[\s\S]*?(?=^## |\s*$(?![\s\S]))/m, '')),
  },
  {
    id: 's21-verify-before-draft',
    rule: 'S21',
    apply: (r) => {
      const w = writerRow(r);
      const responses = r.matching(/-plan-verify-[^/]*\.md$/).filter((f) => !f.endsWith('.audit.md'));
      if (!w || !pbv(r) || responses.length === 0 || !w.startedAt) return false;
      const who = /worker-results\/(.+)-plan-verify-/.exec(responses[0]!)![1]!;
      r.editRows((rows) =>
        rows.push({
          workerId: `${who}`,
          provider: who,
          role: 'Plan verifier',
          status: 'completed',
          dispatchKind: 'plan-verify',
          startedAt: shift(w.startedAt, -30),
          endedAt: shift(w.startedAt, -10),
          attempt: 1,
        }),
      );
      r.editRows((rows) =>
        rows.splice(
          rows.findIndex((x) => x.workerId === who && x.dispatchKind !== 'plan-verify'),
          1,
        ),
      );
      return true;
    },
  },
  // S23 the multi-stage carry
  { id: 's23-carry-missing', rule: 'S23', apply: (r) => completed(r) && !!carryOf(r) && r.has(carryOf(r)!) && (r.del(carryOf(r)!), true) },
  {
    id: 's23-carry-wrong-stage',
    rule: 'S23',
    apply: (r) => !!carryOf(r) && r.has(carryOf(r)!) && (r.edit(carryOf(r)!, (c: any) => void (c.stage += 5)), true),
  },
  { id: 's23-carry-not-json', rule: 'S23', apply: (r) => !!carryOf(r) && r.has(carryOf(r)!) && (r.set(carryOf(r)!, '{"stage": '), true) },
  // S24 the run layout and suffix
  { id: 's24-manifest-seq', rule: 'S24', apply: (r) => (r.editManifest((m) => void (m.seq = '002')), true) },
  {
    id: 's24-manifest-task-type',
    rule: 'S24',
    apply: (r) => (r.editManifest((m) => void (m.taskType = m.taskType === 'implementation' ? 'final-verification' : 'implementation')), true),
  },
  { id: 's24-manifest-stage', rule: 'S24', apply: (r) => !!carryOf(r) && (r.editManifest((m) => void (m.stage = (m.stage ?? 1) + 3)), true) },
  {
    id: 's24-result-of-other-seq',
    rule: 'S24',
    apply: (r) => {
      const row = r.rows.find((w) => w.status === 'completed' && r.has(r.local(w.resultPath) ?? r.p.result(w.workerId)));
      if (!row) return false;
      const own = r.local(row.resultPath) ?? r.p.result(row.workerId);
      const other = own.replace(`-${r.main.seq}.`, '-009.');
      r.set(other, r.text(own));
      r.del(own);
      return r.editRow(
        (w) => w.workerId === row.workerId,
        (w) => void (w.resultPath = r.p.recorded(other)),
      );
    },
  },
  {
    id: 's24-superseded-still-running',
    rule: 'S24',
    apply: (r) => {
      if (ended(r)) return false;
      const next = new Map<string, string>();
      for (const [k, v] of r.files)
        if (k.startsWith(`${r.main.dir}/manifests/`))
          next.set(k.replace(`-${r.main.seq}.json`, '-002.json'), v.replace(`"seq": "${r.main.seq}"`, '"seq": "002"'));
      for (const [k, v] of next) r.set(k, v);
      const m2 = [...next.keys()][0]!;
      r.edit(m2, (m: any) =>
        Object.assign(m, { status: 'aborted', startedAt: shift(m.startedAt, 600), endedAt: shift(m.startedAt, 601), teamStatePath: m.teamStatePath }),
      );
      r.set('errors-superseded.jsonl', JSON.stringify({ taskType: r.main.taskType, seq: '002', error: 'aborted by the user' }) + '\n');
      return true;
    },
  },
  // S25 Section 0 only when carry-in is non-empty
  {
    id: 's25-empty-section-0',
    rule: 'S25',
    apply: (r) => reportBody(r, (t) => insertAfterTitle(t, '## 0. Clarification Response Carried In From Previous Run\n\n')),
  },
  {
    id: 's25-blank-section-0',
    rule: 'S25',
    apply: (r) => reportBody(r, (t) => insertAfterTitle(t, '## 0. Clarification Response Carried In From Previous Run\n   \n\t\n')),
  },
  {
    id: 's25-none-section-0',
    rule: 'S25',
    apply: (r) => reportBody(r, (t) => insertAfterTitle(t, '## 0. Clarification Response Carried In From Previous Run\n\nNone.\n\n')),
  },
  // S26 a reframe item never satisfies the approval gate
  {
    id: 's26-reframe-approved',
    rule: 'S26',
    apply: (r) => reportBody(r, (t) => approve(t) + '\n## C-009\n- Disposition: reframe\n- Note: redefine the question\n'),
  },
  { id: 's26-reframe-approved-caps', rule: 'S26', apply: (r) => reportBody(r, (t) => approve(t) + '\n## C-010\n- **Disposition:** Reframe\n') },
  {
    id: 's26-reframe-approved-quoted',
    rule: 'S26',
    apply: (r) => reportBody(r, (t) => approve(t).replace('approved: true', 'approved: "true"') + '\n## C-011\n- Disposition: `reframe`\n'),
  },
  // S28 stage steps: outcome agrees with its prefix, at most 8 rows
  {
    id: 's28-outcome-contradicts-prefix',
    rule: 'S28',
    apply: (r) => stageSteps(r, (s) => Object.assign(s[0], { action: `RED: ${String(s[0].action).replace(/^(RED|GREEN): /, '')}`, outcome: 'PASS' })),
  },
  { id: 's28-nine-steps', rule: 'S28', apply: (r) => stageSteps(r, (s) => void s.push(...Array.from({ length: 9 }, (_, i) => ({ ...s[0], step: 100 + i })))) },
  { id: 's28-outcome-not-a-word', rule: 'S28', apply: (r) => stageSteps(r, (s) => void (s[0].outcome = 'PASS — it works')) },
  // S29 the execution prompt alias is byte-identical; assignments persisted
  { id: 's29-alias-differs', rule: 'S29', apply: (r) => alias(r, 'B') },
  { id: 's29-alias-truncated', rule: 'S29', apply: (r) => alias(r, '') },
  {
    id: 's29-assignment-without-runner',
    rule: 'S29',
    apply: (r) => r.manifest.workerAssignments.length > 0 && (r.editManifest((m) => void delete m.workerAssignments[0].runner), true),
  },
  // S30 a run that ended wrong without logging it: the report and its state are evidence, not claims
  { id: 's30-report-empty', rule: 'S30', apply: (r) => completed(r) && reportBody(r, () => '') },
  { id: 's30-report-template', rule: 'S30', apply: (r) => completed(r) && reportBody(r, () => '---\napproved: false\n---\n# {{TITLE}}\n\n{{REPORT_BODY}}\n') },
  {
    id: 's30-running-while-done',
    rule: 'S30',
    apply: (r) => {
      if (!completed(r)) return false;
      r.editManifest((m) => Object.assign(m, { status: 'running', endedAt: null }));
      return true;
    },
  },
  {
    id: 's30-failed-unlogged',
    rule: 'S30',
    apply: (r) => {
      if (!r.has(ERRORS_LOG)) return false;
      r.del(ERRORS_LOG);
      return true;
    },
  },
  // A run that ended wrong and left every artifact: only its status says so, and nothing logged why.
  { id: 's30-completed-marked-failed', rule: 'S30', apply: (r) => completed(r) && (r.editManifest((m) => void (m.status = 'failed')), true) },
  { id: 's30-completed-marked-aborted', rule: 'S30', apply: (r) => completed(r) && (r.editManifest((m) => void (m.status = 'aborted')), true) },
  { id: 's30-failure-log-other-seq', rule: 'S30', apply: (r) => editErrorsLog(r, (t) => t.replace(/"seq":"\d+"/g, '"seq":"002"')) },
  { id: 's30-failure-log-other-type', rule: 'S30', apply: (r) => editErrorsLog(r, (t) => t.replace(/"taskType":"[^"]*"/g, '"taskType":"brief"')) },
  // A write killed mid-line: the one line that named the run is not JSON, so it names nothing.
  { id: 's30-failure-log-torn-line', rule: 'S30', apply: (r) => editErrorsLog(r, (t) => t.slice(0, Math.max(1, t.indexOf('"seq"')))) },
  { id: 's30-failure-log-emptied', rule: 'S30', apply: (r) => editErrorsLog(r, () => '') },
  // S32 the report writer: data.json author and audit sidecar writer; finishes after every analyser
  {
    id: 's32-writer-before-analysers-ended',
    rule: 'S32',
    apply: (r) => {
      const w = writerRow(r);
      const last = r.rows
        .filter((x) => !isWriter(x) && x.status === 'completed' && x.endedAt)
        .map((x) => x.endedAt)
        .sort()
        .at(-1);
      if (!w || w.status !== 'completed' || !last) return false;
      return r.editRow(isWriter, (x) => Object.assign(x, { startedAt: shift(last, -40), endedAt: shift(last, -5) }));
    },
  },
  {
    id: 's32-writer-result-empty',
    rule: 'S32',
    apply: (r) => {
      const w = writerRow(r);
      const res = w && (r.local(w.resultPath) ?? r.p.result(w.workerId));
      if (!w || w.status !== 'completed' || !res || !r.has(res) || res.endsWith('.data.json')) return false;
      r.set(res, '');
      return true;
    },
  },
  { id: 's32-data-json-empty', rule: 'S32', apply: (r) => completed(r) && r.has(r.p.data) && (r.set(r.p.data, ''), true) },
];

function delPrompt(r: RunModel, row: any): boolean {
  const p = r.local(row?.promptPath) ?? r.p.prompt(row?.workerId ?? 'report-writer');
  r.del(p);
  r.editRow(isWriter, (w) => void (w.promptPath = null));
  r.editManifest((m) => void (m.workerDispatches = m.workerDispatches.filter((d: any) => d.workerId !== row.workerId && d.dispatchKind !== 'report-writer')));
  return true;
}

/** Add a report-writer jobs file as okstra writes it, broken by `fn`. */
function writerJobs(r: RunModel, fn: (j: any) => void): boolean {
  const w = writerRow(r);
  if (!w || w.status !== 'completed') return false;
  const jobs = {
    schemaVersion: '1.0',
    dispatchKind: 'report-writer',
    jobs: [
      {
        workerId: w.workerId,
        provider: w.provider,
        role: w.role,
        modelExecutionValue: 'claude-model',
        promptPath: r.p.recorded(r.p.prompt(w.workerId)),
        resultPath: r.p.recorded(r.p.data),
        workerResultPath: r.p.recorded(r.p.result(w.workerId)),
        completionPaths: [r.p.recorded(r.p.data), r.p.recorded(r.p.sidecar(w.workerId))],
      },
    ],
  };
  fn(jobs);
  r.setJson(r.p.rwJobs, jobs);
  return true;
}

/** Edit the first pane dispatch that was torn down; false when there is none. */
function tornDown(r: RunModel, fn: (d: any) => void): boolean {
  if (!r.manifest.workerDispatches.some((d: any) => d.tornDownAt)) return false;
  r.editManifest((m) => fn(m.workerDispatches.find((d: any) => d.tornDownAt)));
  return true;
}

function reverify(r: RunModel, text: () => string): boolean {
  const files = r.matching(/-reverify-r\d+-[^/]*\.md$/).filter((f) => !f.endsWith('.audit.md'));
  if (files.length === 0) return false;
  r.set(files[0]!, text());
  return true;
}

function planItems(r: RunModel, fn: (q: any) => void): boolean {
  if (!r.has(r.p.planItems)) return false;
  r.edit(r.p.planItems, fn);
  return true;
}

function insertAfterTitle(text: string, section: string): string {
  const m = /^# .*\n/m.exec(text);
  return m ? text.slice(0, m.index + m[0].length) + '\n' + section + text.slice(m.index + m[0].length) : section + text;
}

function stageSteps(r: RunModel, fn: (steps: any[]) => void): boolean {
  if (!r.has(r.p.data)) return false;
  const data = r.json(r.p.data);
  const steps = data.implementationPlanning?.stages?.[0]?.steps;
  if (!Array.isArray(steps) || steps.length === 0) return false;
  fn(steps);
  r.setJson(r.p.data, data);
  return true;
}

function alias(r: RunModel, change: string): boolean {
  const lead = r.matching(/\/prompts\/lead-execution-prompt[^/]*\.md$/)[0];
  if (!lead) return false;
  const claude = lead.replace('lead-execution-prompt', 'claude-execution-prompt');
  r.set(claude, change ? r.text(lead) + change : r.text(lead).slice(0, 10));
  return true;
}

export { block };
