// Mutation classes for the worker rules (seed rules S3–S13, S34 of docs/run-audit.md). Not part of the build.
import { completedAnalyser, completed, editAnalyser, ended, isWriter, setResult, shift, type MutationClass } from './helpers.js';
import type { RunModel } from './model.js';

const analyserSidecar = (r: RunModel) => {
  const a = completedAnalyser(r);
  if (!a) return null;
  const side = r.local(a.row.auditSidecarPath) ?? r.p.sidecar(a.row.workerId);
  return r.has(side) ? { ...a, side } : null;
};

const heartbeatRow = (r: RunModel) => {
  const a = analyserSidecar(r);
  return a && a.row.livenessMode === 'audit-heartbeat' && a.row.startedAt && a.row.endedAt ? a : null;
};

export const WORKER_CLASSES: MutationClass[] = [
  // S3 required roles are not replaced by unnamed generic workers
  {
    id: 's3-row-renamed-generic',
    rule: 'S3',
    apply: (r) => r.manifest.workerAssignments.length > 0 && editAnalyser(r, (w) => void (w.workerId = 'worker-1')),
  },
  {
    id: 's3-extra-generic-row',
    rule: 'S3',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || r.manifest.workerAssignments.length === 0) return false;
      r.editRows((rows) => rows.push({ ...a.row, workerId: 'general-purpose', role: 'general-purpose', provider: a.row.provider }));
      return true;
    },
  },
  {
    id: 's3-role-generic',
    rule: 'S3',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || r.manifest.workerAssignments.length === 0) return false;
      r.editManifest((m) => {
        const s = m.workerAssignments.find((x: any) => (x.workerId ?? x.provider) === a.row.workerId);
        if (s) s.workerId = 'parallel-2';
      });
      return true;
    },
  },
  // S4 every selected worker has a saved result or a terminal status with reason
  { id: 's4-row-removed', rule: 'S4', apply: (r) => ended(r) && r.manifest.workerAssignments.length > 0 && editRowsRemove(r) },
  {
    id: 's4-all-rows-removed',
    rule: 'S4',
    apply: (r) => ended(r) && r.manifest.workerAssignments.length > 0 && r.rows.length > 0 && (r.editRows((rows) => rows.splice(0)), true),
  },
  {
    id: 's4-result-deleted',
    rule: 'S4',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a) return false;
      r.del(a.result);
      return true;
    },
  },
  // S5 attempted workers have a saved prompt
  {
    id: 's5-prompt-deleted',
    rule: 'S5',
    apply: (r) => {
      const a = completedAnalyser(r);
      const prompt = a && (r.local(a.row.promptPath) ?? r.p.prompt(a.row.workerId));
      if (!prompt || !r.has(prompt)) return false;
      r.del(prompt);
      return true;
    },
  },
  {
    id: 's5-prompt-deleted-timeout',
    rule: 'S5',
    apply: (r) => {
      const a = completedAnalyser(r);
      const prompt = a && (r.local(a.row.promptPath) ?? r.p.prompt(a.row.workerId));
      if (!a || !prompt || !r.has(prompt)) return false;
      r.editRow(
        (w) => w.workerId === a.row.workerId,
        (w) => Object.assign(w, { status: 'timeout', reason: 'no result after the retry' }),
      );
      r.del(prompt);
      return true;
    },
  },
  {
    id: 's5-prompt-empty',
    rule: 'S5',
    apply: (r) => {
      const a = completedAnalyser(r);
      const prompt = a && (r.local(a.row.promptPath) ?? r.p.prompt(a.row.workerId));
      if (!prompt || !r.has(prompt)) return false;
      r.set(prompt, '');
      return true;
    },
  },
  {
    id: 's5-prompt-path-other-worker',
    rule: 'S5',
    apply: (r) => {
      const rows = r.rows.filter((w) => w.status === 'completed' && r.has(r.local(w.promptPath) ?? r.p.prompt(w.workerId)));
      if (rows.length < 2) return false;
      const other = r.local(rows[1].promptPath) ?? r.p.prompt(rows[1].workerId);
      r.del(r.local(rows[0].promptPath) ?? r.p.prompt(rows[0].workerId));
      return r.editRow(
        (w) => w.workerId === rows[0].workerId,
        (w) => void (w.promptPath = r.p.recorded(other)),
      );
    },
  },
  // S6 worker-state transition: times and reasons
  { id: 's6-no-ended', rule: 'S6', apply: (r) => editAnalyser(r, (w) => void delete w.endedAt) },
  { id: 's6-no-started', rule: 'S6', apply: (r) => editAnalyser(r, (w) => void delete w.startedAt) },
  { id: 's6-ended-before-started', rule: 'S6', apply: (r) => editAnalyser(r, (w) => void (w.endedAt = shift(w.startedAt, -3))) },
  {
    id: 's6-timeout-no-reason',
    rule: 'S6',
    apply: (r) => editAnalyser(r, (w) => Object.assign(w, { status: 'timeout', reason: null })),
  },
  { id: 's6-error-blank-reason', rule: 'S6', apply: (r) => editAnalyser(r, (w) => Object.assign(w, { status: 'error', reason: ' \t' })) },
  {
    id: 's6-not-run-no-reason',
    rule: 'S6',
    apply: (r) => editAnalyser(r, (w) => Object.assign(w, { status: 'not-run', reason: '' })),
  },
  {
    id: 's6-in-progress-keeps-ended',
    rule: 'S6',
    apply: (r) => !ended(r) && editAnalyser(r, (w) => void (w.status = 'in-progress')),
  },
  { id: 's6-in-progress-after-end', rule: 'S6', apply: (r) => ended(r) && editAnalyser(r, (w) => Object.assign(w, { status: 'in-progress', endedAt: null })) },
  // S7 the liveness probe can read what its mode names
  {
    id: 's7-heartbeat-no-sidecar-path',
    rule: 'S7',
    apply: (r) => {
      const a = heartbeatRow(r);
      if (!a) return false;
      r.del(a.side);
      return r.editRow(
        (w) => w.workerId === a.row.workerId,
        (w) => void (w.auditSidecarPath = null),
      );
    },
  },
  {
    id: 's7-sidecar-path-other-worker',
    rule: 'S7',
    apply: (r) => {
      const a = heartbeatRow(r);
      const other = r.rows.find((w) => w.workerId !== a?.row.workerId && r.has(r.p.sidecar(w.workerId)));
      if (!a || !other) return false;
      return r.editRow(
        (w) => w.workerId === a.row.workerId,
        (w) => void (w.auditSidecarPath = r.p.recorded(r.p.sidecar(other.workerId))),
      );
    },
  },
  {
    id: 's7-sidecar-path-outside-run',
    rule: 'S7',
    apply: (r) => {
      const a = heartbeatRow(r);
      if (!a) return false;
      r.set(`notes/${a.row.workerId}.audit.md`, r.text(a.side));
      r.del(a.side);
      return r.editRow(
        (w) => w.workerId === a.row.workerId,
        (w) => void (w.auditSidecarPath = r.p.recorded(`notes/${a.row.workerId}.audit.md`)),
      );
    },
  },
  // S8 heartbeats every five minutes while the result is pending
  {
    id: 's8-heartbeat-gap',
    rule: 'S8',
    apply: (r) => {
      const a = heartbeatRow(r);
      if (!a) return false;
      const lines = r.text(a.side).split('\n');
      const beats = lines.filter((l) => l.startsWith('- PROGRESS:'));
      if (beats.length < 3) return false;
      r.set(a.side, lines.filter((l) => !beats.slice(1, -1).includes(l)).join('\n'));
      return Date.parse(a.row.endedAt) - Date.parse(a.row.startedAt) > 12 * 60_000;
    },
  },
  {
    id: 's8-no-heartbeats',
    rule: 'S8',
    apply: (r) => {
      const a = heartbeatRow(r);
      if (!a || Date.parse(a.row.endedAt) - Date.parse(a.row.startedAt) < 12 * 60_000) return false;
      r.set(a.side, r.text(a.side).replace(/^- PROGRESS:.*\n?/gm, ''));
      return true;
    },
  },
  {
    id: 's8-heartbeats-stop-early',
    rule: 'S8',
    apply: (r) => {
      const a = heartbeatRow(r);
      if (!a || Date.parse(a.row.endedAt) - Date.parse(a.row.startedAt) < 12 * 60_000) return false;
      const beats = r
        .text(a.side)
        .split('\n')
        .filter((l) => l.startsWith('- PROGRESS:'));
      r.set(a.side, r.text(a.side).replace(/^- PROGRESS:.*\n?/gm, '') + '\n' + beats.slice(0, 1).join('\n') + '\n');
      return true;
    },
  },
  // S9 graces start at the persisted startedAt; an older heartbeat is no signal
  {
    id: 's9-heartbeats-from-earlier-dispatch',
    rule: 'S9',
    apply: (r) => {
      const a = heartbeatRow(r);
      if (!a || Date.parse(a.row.endedAt) - Date.parse(a.row.startedAt) < 12 * 60_000) return false;
      r.set(
        a.side,
        r
          .text(a.side)
          .replace(
            /^- PROGRESS: (\S+)/gm,
            (_l, t: string) => `- PROGRESS: ${shift(t, -(Date.parse(a.row.endedAt) - Date.parse(a.row.startedAt)) / 60_000 - 30)}`,
          ),
      );
      return true;
    },
  },
  {
    id: 's9-row-started-before-run',
    rule: 'S9',
    apply: (r) => !!r.manifest.startedAt && editAnalyser(r, (w) => void (w.startedAt = shift(r.manifest.startedAt, -120))),
  },
  {
    id: 's9-heartbeats-only-after-end',
    rule: 'S9',
    apply: (r) => {
      const a = heartbeatRow(r);
      if (!a || Date.parse(a.row.endedAt) - Date.parse(a.row.startedAt) < 12 * 60_000) return false;
      r.set(
        a.side,
        r.text(a.side).replace(/^- PROGRESS: (\S+)/gm, (_l, t: string) => `- PROGRESS: ${shift(t, 90)}`),
      );
      return true;
    },
  },
  // S10 one shared retry
  { id: 's10-failures-two-completed', rule: 'S10', apply: (r) => editAnalyser(r, (w) => Object.assign(w, { failures: 2, attempt: 3 })) },
  {
    id: 's10-failures-three',
    rule: 'S10',
    apply: (r) => editAnalyser(r, (w) => Object.assign(w, { status: 'timeout', reason: 'stalled again', failures: 3, attempt: 3 })),
  },
  {
    id: 's10-second-retry-dispatched',
    rule: 'S10',
    apply: (r) => {
      const a = completedAnalyser(r);
      const d = a && r.manifest.workerDispatches.find((x: any) => x.workerId === a.row.workerId);
      if (!a || !d) return false;
      r.editManifest((m) => {
        m.workerDispatches.push({ ...d, dispatchKind: 'initial-retry', startedAt: shift(d.startedAt, 5) });
        m.workerDispatches.push({ ...d, dispatchKind: 'initial-retry-retry', startedAt: shift(d.startedAt, 8) });
      });
      return true;
    },
  },
  // S11 completion only from terminal status + required result paths
  { id: 's11-result-empty', rule: 'S11', apply: (r) => setResult(r, '') },
  { id: 's11-result-blank', rule: 'S11', apply: (r) => setResult(r, '\n  \n\t\n') },
  { id: 's11-result-nul', rule: 'S11', apply: (r) => setResult(r, '\u0000'.repeat(512)) },
  { id: 's11-result-template', rule: 'S11', apply: (r) => setResult(r, '# Findings\n\n{{WORKER_FINDINGS}}\n') },
  { id: 's11-result-preamble', rule: 'S11', apply: (r) => setResult(r, "I'll start by reading the relevant files and then report my findings.\n") },
  { id: 's11-result-preamble-colon-stub', rule: 'S11', apply: (r) => setResult(r, 'Let me check the following:\n') },
  { id: 's11-result-preamble-two', rule: 'S11', apply: (r) => setResult(r, "Let me look at the refund module first. I'll report back once I have read it.\n") },
  { id: 's11-result-echo-prompt', rule: 'S11', apply: (r) => setResult(r, (_old, prompt) => prompt || '# Analyse\n') },
  {
    id: 's11-result-provider-error',
    rule: 'S11',
    apply: (r) => setResult(r, 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n'),
  },
  { id: 's11-result-rate-limit', rule: 'S11', apply: (r) => setResult(r, 'Error: rate limit exceeded (429). Please try again later.\n') },
  { id: 's11-result-spawn-ack', rule: 'S11', apply: (r) => setResult(r, 'Spawned worker in pane %4; waiting for it to finish.\n') },
  {
    id: 's11-status-sidecar-error',
    rule: 'S11',
    apply: (r) => {
      const rows = r.rows.filter((w) => w.status === 'completed' && r.has(r.p.status(w.workerId)));
      if (rows.length === 0) return false;
      r.edit(r.p.status(rows[0].workerId), (s: any) => Object.assign(s, { status: 'error', exitCode: 1, reason: 'provider exited 1' }));
      return true;
    },
  },
  {
    id: 's11-status-sidecar-other-worker',
    rule: 'S11',
    apply: (r) => {
      const rows = r.rows.filter((w) => r.has(r.p.status(w.workerId)));
      if (rows.length === 0) return false;
      r.edit(r.p.status(rows[0].workerId), (s: any) => void (s.workerId = 'someone-else'));
      return true;
    },
  },
  {
    id: 's11-status-sidecar-after-row-end',
    rule: 'S11',
    apply: (r) => {
      const rows = r.rows.filter((w) => w.status === 'completed' && w.endedAt && r.has(r.p.status(w.workerId)));
      if (rows.length === 0) return false;
      r.edit(r.p.status(rows[0].workerId), (s: any) => void (s.endedAt = shift(rows[0].endedAt, 30)));
      return true;
    },
  },
  {
    id: 's11-completed-only-stale-sidecar',
    rule: 'S11',
    apply: (r) => {
      const rows = r.rows.filter((w) => w.status === 'completed' && w.startedAt && r.has(r.p.status(w.workerId)));
      if (rows.length === 0) return false;
      const a = rows[0];
      r.edit(r.p.status(a.workerId), (s: any) => Object.assign(s, { startedAt: shift(a.startedAt, -60), endedAt: shift(a.startedAt, -40) }));
      const result = r.local(a.resultPath) ?? r.p.result(a.workerId);
      r.del(result);
      return true;
    },
  },
  // S12 worker-audit-check rules
  { id: 's12-reading-confirmation', rule: 'S12', apply: (r) => setResult(r, (old) => `## 0. Reading Confirmation\nI read the prompt.\n\n${old}`) },
  {
    id: 's12-sidecar-missing',
    rule: 'S12',
    apply: (r) => {
      const a = analyserSidecar(r);
      if (!a || !completed(r)) return false;
      r.del(a.side);
      return true;
    },
  },
  {
    id: 's12-citation-no-row',
    rule: 'S12',
    apply: (r) => {
      for (const row of r.rows) {
        const prompt = r.local(row.promptPath) ?? r.p.prompt(row.workerId);
        const result = r.local(row.resultPath) ?? r.p.result(row.workerId);
        if (row.status === 'completed' && r.has(prompt) && r.text(prompt).includes('evidence-ledger required-v1') && r.has(result) && completed(r)) {
          r.set(result, r.text(result) + '\nAlso `src/never-read.ts:99`.\n');
          return true;
        }
      }
      return false;
    },
  },
  // S13 a degraded dispatch records its reason
  {
    id: 's13-degraded-no-reason',
    rule: 'S13',
    apply: (r) => degraded(r, (d) => void delete d.reason),
  },
  { id: 's13-degraded-blank-reason', rule: 'S13', apply: (r) => degraded(r, (d) => void (d.reason = '   ')) },
  {
    id: 's13-subprocess-without-degraded-from',
    rule: 'S13',
    apply: (r) => degraded(r, (d) => void delete d.degradedFrom),
  },
  // S34 a re-dispatch is a fresh dispatch with a new dispatchKind
  {
    id: 's34-redispatch-same-kind',
    rule: 'S34',
    apply: (r) => {
      const d = r.manifest.workerDispatches[0];
      if (!d) return false;
      r.editManifest((m) => m.workerDispatches.push({ ...d, startedAt: shift(d.startedAt, 10), paneId: d.paneId ? `${d.paneId}0` : d.paneId }));
      return true;
    },
  },
  {
    id: 's34-row-kind-not-dispatched',
    rule: 'S34',
    apply: (r) =>
      r.manifest.workerDispatches.length > 0 && editAnalyser(r, (w) => Object.assign(w, { dispatchKind: 'initial-retry', attempt: 2, failures: 1 })),
  },
  {
    id: 's34-dispatch-of-unknown-worker',
    rule: 'S34',
    apply: (r) => {
      const d = r.manifest.workerDispatches[0];
      if (!d || r.rows.length === 0) return false;
      r.editManifest((m) => m.workerDispatches.push({ ...d, workerId: 'ghost', startedAt: shift(d.startedAt, 1) }));
      return true;
    },
  },
];

function editRowsRemove(r: RunModel): boolean {
  const a = completedAnalyser(r);
  if (!a || !r.manifest.workerAssignments.some((x: any) => (x.workerId ?? x.provider) === a.row.workerId)) return false;
  r.editRows((rows) => rows.splice(rows.indexOf(rows.find((w) => w.workerId === a.row.workerId)), 1));
  return true;
}

/** Edit the first degraded dispatch record (degradedFrom set); false when there is none. */
function degraded(r: RunModel, fn: (d: any) => void): boolean {
  if (!r.manifest.workerDispatches.some((d: any) => d.degradedFrom)) return false;
  r.editManifest((m) => fn(m.workerDispatches.find((d: any) => d.degradedFrom)));
  return true;
}

export { isWriter };
