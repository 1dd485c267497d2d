// Legal-but-unusual variants (issue #24 item 3): each keeps every seed rule, so
// the audit must stay silent on every healthy run it fits. Not part of the build.
import { seedDigest } from '@okstra/convergence';
import { completedAnalyser, ended, isWriter, setResult, shift, writerRow, type LegalVariant } from './helpers.js';
import type { RunModel } from './model.js';

const mdFiles = (r: RunModel) => [...r.files.keys()].filter((k) => k.endsWith('.md'));
const jsonFiles = (r: RunModel) => [...r.files.keys()].filter((k) => k.endsWith('.json'));
const eachMd = (r: RunModel, fn: (t: string) => string) => {
  for (const f of mdFiles(r)) r.set(f, fn(r.text(f)));
  return mdFiles(r).length > 0;
};
/** Rewrite every ISO instant `…Z` of the JSON artifacts with `fn`. */
const eachInstant = (r: RunModel, fn: (iso: string) => string) => {
  for (const f of jsonFiles(r))
    r.set(
      f,
      r.text(f).replace(/"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g, (_m, t: string) => `"${fn(t)}"`),
    );
  return true;
};
const offset = (iso: string, hours: number) => {
  const d = new Date(Date.parse(iso) + hours * 3_600_000).toISOString().slice(0, 19);
  const sign = hours >= 0 ? '+' : '-';
  return `${d}${sign}${String(Math.abs(hours)).padStart(2, '0')}:00`;
};
/** Rename worker `from` to `to` everywhere in the task (ids, paths, file names). */
function renameWorker(r: RunModel, from: string, to: string): boolean {
  if (!r.rows.some((w) => w.workerId === from)) return false;
  const files = new Map(r.files);
  r.files.clear();
  // Every quoted occurrence is the worker id (rows, assignments, dispatches, convergence authors) except the provider's own fields.
  const quoted = new RegExp(`(?<!"(?:provider|reportAuthor|role|model|executionValue|leadRuntime|hostRuntime)":\\s*)()"${from}"`, 'g');
  const inPath = new RegExp(`/${from}-`, 'g');
  for (const [k, v] of files)
    r.files.set(
      k.replace(inPath, `/${to}-`),
      v.replace(quoted, `$1"${to}"`).replace(inPath, `/${to}-`).replaceAll('"role": "report-writer"', '"role": "Report writer worker"'),
    );
  // An assignment named by its provider alone now needs the id the rows carry.
  r.editManifest((m) => m.workerAssignments.forEach((a: any) => a.workerId === undefined && a.provider === from && (a.workerId = to)));
  // The seed digest covers the groups' worker ids: a run made with the new ids carries their digest (fact edge groups-seed-digest).
  if (r.has(r.p.groups) && Array.isArray(r.json(r.p.groups).findings) && r.has(r.p.final)) {
    const old = r.json(r.p.final).seedDigest as string;
    const digest = seedDigest(r.json(r.p.groups));
    for (const [k, v] of r.files) if (v.includes(old)) r.files.set(k, v.replaceAll(old, digest));
  }
  return true;
}
const analyserId = (r: RunModel) => completedAnalyser(r)?.row.workerId as string | undefined;

export const LEGAL: LegalVariant[] = [
  { id: 'l-crlf-markdown', apply: (r) => eachMd(r, (t) => t.replace(/\r?\n/g, '\r\n')) },
  { id: 'l-crlf-json', apply: (r) => (jsonFiles(r).forEach((f) => r.set(f, r.text(f).replace(/\n/g, '\r\n'))), true) },
  { id: 'l-bom-markdown', apply: (r) => eachMd(r, (t) => '\uFEFF' + t) },
  {
    id: 'l-bom-errors-log',
    apply: (r) => r.has('errors-2026-11-29.jsonl') && (r.set('errors-2026-11-29.jsonl', '\uFEFF' + r.text('errors-2026-11-29.jsonl')), true),
  },
  {
    id: 'l-crlf-errors-log',
    apply: (r) => r.has('errors-2026-11-29.jsonl') && (r.set('errors-2026-11-29.jsonl', r.text('errors-2026-11-29.jsonl').replace(/\n/g, '\r\n')), true),
  },
  {
    id: 'l-errors-log-numeric-seq',
    apply: (r) =>
      r.has('errors-2026-11-29.jsonl') && (r.set('errors-2026-11-29.jsonl', r.text('errors-2026-11-29.jsonl').replace('"seq":"001"', '"seq":1')), true),
  },
  {
    id: 'l-errors-log-other-lines',
    apply: (r) =>
      r.has('errors-2026-11-29.jsonl') &&
      (r.set('errors-2026-11-29.jsonl', 'not json\n{"taskType":"brief","seq":"001"}\n' + r.text('errors-2026-11-29.jsonl')), true),
  },
  {
    id: 'l-errors-log-unpadded-seq',
    apply: (r) =>
      r.has('errors-2026-11-29.jsonl') && (r.set('errors-2026-11-29.jsonl', r.text('errors-2026-11-29.jsonl').replace('"seq":"001"', '"seq":"1"')), true),
  },
  // The failure logged in a second errors file (another day); the first holds only another run's line.
  {
    id: 'l-errors-log-second-file',
    apply: (r) => {
      if (!r.has('errors-2026-11-29.jsonl')) return false;
      r.set('errors-2026-11-30.jsonl', r.text('errors-2026-11-29.jsonl'));
      r.set('errors-2026-11-29.jsonl', '{"taskType":"error-analysis","seq":"007","error":"another run"}\n');
      return true;
    },
  },
  // A completed run that logged a transient error on its way: nothing is missing and nothing ended wrong.
  {
    id: 'l-completed-with-logged-error',
    apply: (r) =>
      r.manifest.status === 'completed' &&
      (r.set('errors-2026-11-29.jsonl', JSON.stringify({ taskType: r.main.taskType, seq: r.main.seq, error: 'round 1 retried once' }) + '\n'), true),
  },
  // Unicode in the texts around the ids (worker ids and task keys take Unicode letters too: l-worker-id-unicode, l-unicode-task-key).
  {
    id: 'l-unicode-texts',
    apply: (r) => (
      r.editRows((rows) => rows.forEach((w) => w.reason && (w.reason = `${w.reason} — 재시도 후 실패 ✓`))),
      setResult(r, (old) => `${old}\n\nRésumé: ünïcödé ✓ 日本語\n`)
    ),
  },
  // Task groups and ids are the user's words: Unicode letters and marks are one path segment (libs/core TASK_KEY_SEGMENT).
  { id: 'l-unicode-task-key', apply: (r) => ((r.taskGroup = '결제'), (r.taskIdSuffix = '-환불-café'), true) },
  { id: 'l-unicode-task-key-kana', apply: (r) => ((r.taskGroup = 'ペイメント'), (r.taskIdSuffix = '-返金_タイムアウト'), true) },
  { id: 'l-worker-id-dots', apply: (r) => !!analyserId(r) && renameWorker(r, analyserId(r)!, 'claude.opus-4.1') },
  { id: 'l-worker-id-unicode', apply: (r) => !!analyserId(r) && renameWorker(r, analyserId(r)!, '리뷰어-クロード_é') },
  { id: 'l-worker-id-long', apply: (r) => !!analyserId(r) && renameWorker(r, analyserId(r)!, 'w'.repeat(60)) },
  { id: 'l-time-zone-plus-9', apply: (r) => eachInstant(r, (t) => offset(t, 9)) },
  { id: 'l-time-zone-minus-5', apply: (r) => eachInstant(r, (t) => offset(t, -5)) },
  { id: 'l-time-millis', apply: (r) => eachInstant(r, (t) => t.replace('Z', '.250Z')) },
  { id: 'l-large-result', apply: (r) => setResult(r, (old) => old + '\n' + 'The retry loop holds under load; no further defect was found. '.repeat(40_000)) },
  { id: 'l-result-non-english', apply: (r) => setResult(r, '# 발견 사항\n\n### F-1\n재시도 루프가 타임아웃을 삼킨다. 근거: 로그 분석.\n') },
  { id: 'l-result-short-answer', apply: (r) => setResult(r, 'No findings: the refund path is correct as written.\n') },
  // A preamble's words as a finding's opener, then a colon and the answer (s11-result-preamble, which stops, stays caught).
  {
    id: 'l-result-opener-colon',
    apply: (r) => setResult(r, 'Let me be clear: the cause is the proxy limit, which drops the refund callback after 30 s.\n'),
  },
  { id: 'l-result-will-note', apply: (r) => setResult(r, 'I will note one cause only: the timeout compares seconds with milliseconds in the retry loop.\n') },
  { id: 'l-result-quotes-template-syntax', apply: (r) => setResult(r, (old) => old + '\nThe config uses `{{ .Values.timeout }}` (Helm); that is the bug.\n') },
  {
    id: 'l-result-mentions-error',
    apply: (r) => setResult(r, (old) => old + '\nThe log shows `Error: rate limit exceeded` from the upstream API, which is the root cause.\n'),
  },
  {
    id: 'l-not-run-with-reason',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || r.rows.filter((w) => w.status === 'completed' && !isWriter(w)).length < 2) return false;
      return r.editRow(
        (w) => w.workerId === a.row.workerId,
        (w) => {
          for (const k of ['startedAt', 'resultPath', 'auditSidecarPath', 'livenessMode']) delete w[k];
          Object.assign(w, { status: 'not-run', reason: 'provider not installed on this host', endedAt: r.manifest.startedAt ?? w.endedAt });
          r.del(a.result);
          r.del(r.p.sidecar(a.row.workerId));
          r.del(r.p.prompt(a.row.workerId));
        },
      );
    },
  },
  {
    id: 'l-timeout-no-result',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || r.rows.filter((w) => w.status === 'completed' && !isWriter(w)).length < 2) return false;
      r.del(a.result);
      r.del(r.p.sidecar(a.row.workerId));
      return r.editRow(
        (w) => w.workerId === a.row.workerId,
        (w) => Object.assign(w, { status: 'timeout', reason: 'no result before the deadline, retry spent', failures: 2, resultPath: null }),
      );
    },
  },
  {
    id: 'l-error-with-reason',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a || r.rows.filter((w) => w.status === 'completed' && !isWriter(w)).length < 2) return false;
      r.del(a.result);
      r.del(r.p.sidecar(a.row.workerId));
      return r.editRow(
        (w) => w.workerId === a.row.workerId,
        (w) => Object.assign(w, { status: 'error', reason: 'codex exited 1: model not available', failures: 1 }),
      );
    },
  },
  {
    id: 'l-extra-unknown-keys',
    apply: (r) => (
      r.editManifest((m) => void (m.x_note = { any: ['thing'] })),
      r.rows.length === 0 || (r.editRows((rows) => void (rows[0].x_extra = 1)), true)
    ),
  },
  {
    id: 'l-reason-with-newlines',
    apply: (r) =>
      r.rows.some((w) => w.reason) &&
      (r.editRows((rows) => rows.filter((w) => w.reason).forEach((w) => (w.reason = `${w.reason}\nsee the wrapper log`))), true),
  },
  { id: 'l-writer-role-label', apply: (r) => !!writerRow(r) && r.editRow(isWriter, (w) => void (w.role = 'Report writer worker')) },
  { id: 'l-writer-role-snake', apply: (r) => !!writerRow(r) && r.editRow(isWriter, (w) => void (w.role = 'REPORT_WRITER')) },
  {
    id: 'l-writer-id-rw-claude',
    apply: (r) => {
      const w = writerRow(r);
      if (!w || w.workerId !== 'report-writer') return false;
      r.editRow(isWriter, (x) => void (x.role = 'Report writer worker'));
      return renameWorker(r, 'report-writer', 'rw-claude');
    },
  },
  {
    id: 'l-gap-vote-response',
    apply: (r) =>
      !!analyserId(r) &&
      (r.set(`${r.main.dir}/worker-results/${analyserId(r)}-gap-vote-${r.main.taskType}-${r.main.seq}.md`, '## G-1\n- Vote: AGREE\n- Basis: seen in the log\n'),
      true),
  },
  {
    id: 'l-reverify-response',
    // Not on a run whose round 1 was collected: replacing the response its results file was read from is a mismatch (29).
    apply: (r) =>
      !!analyserId(r) &&
      !r.has(r.p.roundResults(1)) &&
      (r.set(
        `${r.main.dir}/worker-results/${analyserId(r)}-reverify-r1-${r.main.taskType}-${r.main.seq}.md`,
        '## F-001\n- Verdict: AGREE\n- Explanation: reproduced\n',
      ),
      true),
  },
  { id: 'l-other-seq-files', apply: (r) => (r.set(`${r.main.dir}/worker-results/ghost-${r.main.taskType}-099.md`, '# other run\n'), true) },
  {
    id: 'l-repair-response',
    apply: (r) =>
      !!analyserId(r) &&
      (r.set(
        `${r.main.dir}/worker-results/${analyserId(r)}-repair-reverify-r1-${r.main.taskType}-${r.main.seq}.md`,
        '## F-001\n- Verdict: AGREE\n- Explanation: repaired answer\n',
      ),
      true),
  },
  {
    id: 'l-attempt-file-beside',
    apply: (r) => {
      const a = completedAnalyser(r);
      if (!a) return false;
      r.set(a.result.replace(/\.md$/, '.attempt-1.md'), 'partial answer of the first dispatch\n');
      return true;
    },
  },
  { id: 'l-empty-extra-sidecar-dir', apply: (r) => (r.set(`${r.main.dir}/worker-results/README.txt`, 'notes\n'), true) },
  {
    id: 'l-heartbeats-denser',
    apply: (r) => {
      const a = completedAnalyser(r);
      const side = a && r.p.sidecar(a.row.workerId);
      if (!a || !side || !r.has(side) || a.row.livenessMode !== 'audit-heartbeat') return false;
      r.set(
        side,
        r.text(side).replace(/^(- PROGRESS: (\S+) .*)$/gm, (_l, line: string, t: string) => `${line}\n- PROGRESS: ${shift(t, 1)} still reading`),
      );
      return true;
    },
  },
  {
    id: 'l-report-frontmatter-extra',
    apply: (r) =>
      r.has(r.p.report) && (r.set(r.p.report, r.text(r.p.report).replace(/^---\n/, '---\ntags: [refund, "timeout"]\nowner: team-payments\n')), true),
  },
  {
    id: 'l-report-no-frontmatter',
    apply: (r) =>
      r.has(r.p.report) &&
      !r.text(r.p.report).includes('planBody') &&
      !r.has(r.p.data.replace('.data.json', '.x')) &&
      (r.set(r.p.report, r.text(r.p.report).replace(/^---[\s\S]*?---\n/, '')), true),
  },
  {
    id: 'l-section-0-with-content',
    apply: (r) =>
      r.has(r.p.report) &&
      (r.set(r.p.report, r.text(r.p.report) + '\n## 0. Clarification Response Carried In From Previous Run\n\n- C-001: answered "use the queue" (resolved)\n'),
      true),
  },
  {
    id: 'l-reframe-not-approved',
    apply: (r) =>
      r.has(r.p.report) &&
      /approved:\s*false/.test(r.text(r.p.report)) &&
      (r.set(r.p.report, r.text(r.p.report) + '\n## C-020\n- Disposition: reframe\n'), true),
  },
  {
    id: 'l-alias-identical',
    apply: (r) => {
      const f = `${r.main.dir}/prompts/lead-execution-prompt.md`;
      r.set(f, '# Lead prompt\n');
      r.set(f.replace('lead-execution', 'claude-execution'), '# Lead prompt\n');
      return true;
    },
  },
  { id: 'l-task-manifest-extra', apply: (r) => r.has('task-manifest.json') && (r.set('task-manifest.json', r.text('task-manifest.json')), true) },
  { id: 'l-json-pretty-tabs', apply: (r) => (jsonFiles(r).forEach((f) => r.set(f, JSON.stringify(JSON.parse(r.text(f)), null, '\t'))), true) },
  { id: 'l-json-minified', apply: (r) => (jsonFiles(r).forEach((f) => r.set(f, JSON.stringify(JSON.parse(r.text(f))))), true) },
  {
    id: 'l-manifest-ended-same-instant',
    apply: (r) =>
      ended(r) &&
      !!r.manifest.endedAt &&
      r.rows.every((w) => !w.endedAt || w.endedAt <= r.manifest.endedAt) &&
      (r.editManifest(
        (m) =>
          void (m.endedAt =
            r.rows
              .map((w) => w.endedAt)
              .filter(Boolean)
              .sort()
              .at(-1) ?? m.endedAt),
      ),
      true),
  },
];
