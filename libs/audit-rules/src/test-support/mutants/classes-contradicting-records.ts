// Mutation classes for a fact whose second record contradicts the first (seed rules S1, S3, S6, S7, S10, S11, S14,
// S19, S21, S24): the author and the approval in data.json's frontmatter, a credited writer with no row, a generic
// role, a status sidecar left running, a not-started dispatch, a row path outside the root, an end in the future,
// a result that is not UTF-8, a completion path naming another data.json, a response missing an item's block, a
// timeout that counts no failure — and the legal shapes beside them (a BOM before JSON, a known role label, a
// project's own role, an earlier dispatch's sidecar left running, …). History: found by the third held-out set,
// written from the seeds and the rule statements without the rules' code (was classes-heldout3.ts, ids c-…).
// Not part of the build.
import { completed, completedAnalyser, editAnalyser, isWriter, writerRow, type LegalVariant, type MutationClass } from './helpers.js';
import { LATIN1, type RunModel } from './model.js';

const promptOf = (r: RunModel, row: any) => r.local(row.promptPath) ?? r.p.prompt(row.workerId);
const wrapperFile = (prompt: string, ext: '.log' | '.status.json') => prompt.replace(/\.md$/, ext);

/** The first completed analyser's row and the assignment that selects it, or null. */
function selectedAnalyser(r: RunModel): { row: any; assignment: any } | null {
  const a = completedAnalyser(r);
  const assignment = a && r.manifest.workerAssignments.find((x: any) => (x.workerId ?? x.provider) === a.row.workerId);
  return a && assignment ? { row: a.row, assignment } : null;
}

/** Save a one-job report-writer jobs file for the writer's row, its data.json completion path as `completion` names it; false without a writer. */
function writerJobs(r: RunModel, completion: (data: string) => string): boolean {
  const w = writerRow(r);
  if (!w || !r.has(r.p.data)) return false;
  const data = r.p.recorded(r.p.data);
  const job = {
    workerId: w.workerId,
    provider: w.provider,
    role: w.role,
    modelExecutionValue: w.model ?? 'm',
    promptPath: r.p.recorded(r.p.prompt(w.workerId)),
    resultPath: data,
    workerResultPath: r.p.recorded(r.p.result(w.workerId)),
    completionPaths: [completion(data), r.p.recorded(r.p.sidecar(w.workerId))],
  };
  r.setJson(r.p.rwJobs, { schemaVersion: '1.0', dispatchKind: 'report-writer', jobs: [job] });
  return true;
}

/** Edit the first completed analyser's row when an assignment selects it; false otherwise. */
function editSelected(r: RunModel, fn: (row: any) => void): boolean {
  const s = selectedAnalyser(r);
  return !!s && r.editRow((w) => w.workerId === s.row.workerId, fn);
}

export const CONTRADICTING_RECORD_CLASSES: MutationClass[] = [
  // S1 the report writer authors the report: the author claim held in data.json's frontmatter too
  {
    id: 'record-s1-data-json-author-lead',
    rule: 'S1',
    apply: (r) => {
      if (r.manifest.reportAuthor !== 'report-writer' || !r.has(r.p.data)) return false;
      r.edit(r.p.data, (d: any) => void ((d.frontmatter ??= {}).reportAuthor = 'lead'));
      return true;
    },
  },
  // S21 `approved` is published false while approval is blocked: the marker set in data.json's frontmatter instead
  {
    id: 'record-s21-data-json-approved',
    rule: 'S21',
    apply: (r) => {
      if (!r.has(r.p.data) || !r.has(r.p.report) || !/\|\s*approval\s*\|/.test(r.text(r.p.report))) return false;
      const data = r.json(r.p.data);
      if (!data.implementationPlanning?.planBodyVerification) return false;
      (data.frontmatter ??= {}).approved = true;
      r.setJson(r.p.data, data);
      return true;
    },
  },
  // S1 credited with no row, the roster not selecting the writer either: nothing backs the credit
  {
    id: 'record-s1-credited-writer-unselected-no-row',
    rule: 'S1',
    apply: (r) => {
      if (!completed(r) || r.manifest.reportAuthor !== 'report-writer' || !writerRow(r) || r.rows.length < 2) return false;
      r.editRows((rows) => rows.splice(rows.findIndex(isWriter), 1));
      r.editManifest((m) => (m.workerAssignments = m.workerAssignments.filter((a: any) => !isWriter(a))));
      return true;
    },
  },
  // S3 required roles are not replaced by unnamed generic workers: the selected worker ran under a generic role
  {
    id: 'record-s3-row-generic-role',
    rule: 'S3',
    apply: (r) => {
      return editSelected(r, (w) => void (w.role = 'general-purpose'));
    },
  },
  // S11 completion only from terminal status sidecars: this dispatch's sidecar was left `running`
  {
    id: 'record-s11-status-left-running',
    rule: 'S11',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a?.row.startedAt) return false;
      const status = {
        schemaVersion: '1.0',
        workerId: a.row.workerId,
        dispatchKind: a.row.dispatchKind ?? 'initial',
        status: 'running',
        startedAt: a.row.startedAt,
      };
      r.setJson(wrapperFile(promptOf(r, a.row), '.status.json'), status);
      return true;
    },
  },
  // S7 did-not-launch: the dispatch was recorded not-started, the wrapper left nothing, the row says completed
  {
    id: 'record-s7-dispatch-not-started',
    rule: 'S7',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a?.row.startedAt) return false;
      const kind = a.row.dispatchKind ?? 'initial';
      r.editManifest((m) => {
        m.workerDispatches = m.workerDispatches.filter((d: any) => !(d.workerId === a.row.workerId && d.dispatchKind === kind));
        m.workerDispatches.push({
          dispatchKind: kind,
          workerId: a.row.workerId,
          backend: 'subprocess',
          ...(m.terminalBackend === 'tmux-pane' || m.terminalBackend === 'cmux-pane' ? { degradedFrom: m.terminalBackend, reason: 'no pane' } : {}),
          startedAt: a.row.startedAt,
          phase: 'not-started',
          reason: 'spawn failed: ENOENT',
        });
      });
      r.del(wrapperFile(promptOf(r, a.row), '.log'));
      r.del(wrapperFile(promptOf(r, a.row), '.status.json'));
      return true;
    },
  },
  // S24 a path pointing elsewhere: a row's audit sidecar recorded outside the project root
  {
    id: 'record-s24-row-path-escapes-root',
    rule: 'S24',
    apply: (r) => {
      return !!completedAnalyser(r)?.row.auditSidecarPath && editAnalyser(r, (w) => void (w.auditSidecarPath = '../outside/sidecar.audit.md'));
    },
  },
  // S6 terminal states record endedAt: an end the audit's clock has not reached yet
  {
    id: 'record-s6-row-ended-in-future',
    rule: 'S6',
    apply: (r) => {
      return editAnalyser(r, (w) => void (w.endedAt = '2099-01-01T00:00:00Z'));
    },
  },
  // S11 completion needs its Result Path: a result in an encoding no okstra reader accepts (Latin-1)
  {
    id: 'record-s11-result-not-utf8',
    rule: 'S11',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || a.result.endsWith('.json')) return false;
      r.set(a.result, `${LATIN1}${r.text(a.result)}\nR\u00e9sum\u00e9: la requ\u00eate n'a pas de d\u00e9lai.\n`);
      return true;
    },
  },
  // S14 report-writer completion paths name this run's data.json, not another seq's
  {
    id: 'record-s14-completion-other-data-json',
    rule: 'S14',
    apply: (r) => {
      return writerJobs(r, (data) => data.replace(/-(\d+)\.data\.json$/, '-999.data.json'));
    },
  },
  // S19 data.json's votes are the responses' verdicts: a response that drops an item's block entirely
  {
    id: 'record-s19-response-drops-item-block',
    rule: 'S19',
    apply: (r) => {
      const [file] = r.matching(/-plan-verify-[^/]*\.md$/).filter((f) => !f.endsWith('.audit.md') && !/\.attempt-\d+\.md$/.test(f));
      if (!file) return false;
      const t = r.text(file);
      const blocks = [...t.matchAll(/^### (P-[A-Za-z0-9-]+)[^\n]*\n/gm)];
      const last = blocks.at(-1);
      if (!last || blocks.length < 2) return false;
      r.set(file, t.slice(0, last.index));
      return true;
    },
  },
  // S10 the retry budget counts a timeout: a timed-out row that counts no failure
  {
    id: 'record-s10-timeout-counts-no-failure',
    rule: 'S10',
    apply: (r) => {
      return editAnalyser(r, (w) => void Object.assign(w, { status: 'timeout', reason: 'no result before the deadline', failures: 0 }));
    },
  },
];

export const CONTRADICTING_RECORD_LEGAL: LegalVariant[] = [
  {
    // docs/conventions.md "Input files": a BOM is dropped — data.json included.
    id: 'l-bom-json',
    apply: (r) => {
      const json = [...r.files.keys()].filter((k) => k.endsWith('.json'));
      json.forEach((k) => r.set(k, '\uFEFF' + r.text(k)));
      return json.length > 0;
    },
  },
  {
    // A known role label other than the assignment's spelling: a named role, not a generic worker.
    id: 'l-row-known-role-label',
    apply: (r) => editSelected(r, (w) => void (w.role = 'analyser')),
  },
  {
    // A project's own role, the same in the assignment and the row.
    id: 'l-custom-role-as-assigned',
    apply: (r) => {
      const s = selectedAnalyser(r);
      if (!s) return false;
      r.editManifest((m) => m.workerAssignments.forEach((x: any) => (x.workerId ?? x.provider) === s.row.workerId && (x.role = 'Security reviewer')));
      return editSelected(r, (w) => void (w.role = 'security_reviewer'));
    },
  },
  {
    // A report-writer jobs file naming this run's data.json and audit sidecar: complete.
    id: 'l-report-writer-jobs-own-paths',
    apply: (r) => {
      return writerJobs(r, (data) => data);
    },
  },
  {
    // A timed-out worker that counts its failure, no result: legal (seed 002 S4: a terminal status with reason).
    id: 'l-timeout-counts-one-failure',
    apply: (r) => {
      return editAnalyser(r, (w) => void Object.assign(w, { status: 'timeout', reason: 'no result before the deadline', failures: 1 }));
    },
  },
  {
    // A UTF-8 answer that quotes a replacement character (U+FFFD) is still UTF-8.
    id: 'l-result-quotes-replacement-char',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || a.result.endsWith('.json')) return false;
      r.set(a.result, `${r.text(a.result)}\nThe log showed \uFFFD where the gateway's bytes were cut.\n`);
      return true;
    },
  },
  {
    // An earlier dispatch's sidecar left `running` (its wrapper was killed) before this dispatch started: no signal.
    id: 'l-status-running-earlier-dispatch',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a?.row.startedAt) return false;
      const earlier = new Date(Date.parse(a.row.startedAt) - 30 * 60_000).toISOString().replace('.000Z', 'Z');
      r.setJson(wrapperFile(promptOf(r, a.row), '.status.json'), {
        schemaVersion: '1.0',
        workerId: a.row.workerId,
        dispatchKind: 'initial',
        status: 'running',
        startedAt: earlier,
      });
      return true;
    },
  },
];
