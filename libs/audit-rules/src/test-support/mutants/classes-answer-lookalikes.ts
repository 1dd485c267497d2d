// Legal answers that look like non-answers (invariants 21 and 26; seed rule S25 for the classes): short findings
// that begin like a status line, a job that "konnte … nicht abschließen", `# No findings`, a template quoted in a
// tilde fence, a longer fence or an indented block, a Section 0 response beginning "No —", two analysers' word-for-
// word gap votes, an earlier dispatch's wrapper killed last, a native writer that heartbeated and then timed out —
// and the status lines, templates and stubs the narrowed tests still refuse. History: the first false-alarm hunt
// (issue #24: "≤ 1 false alarm in 50 legal-but-unusual runs"; was classes-fa.ts, ids fa-…). Not part of the build.
import { completed, isWriter, leadFallback, setResult, type LegalVariant, type MutationClass } from './helpers.js';
import type { RunModel } from './model.js';

/** Append a Section 0 with `body` to the main run's completed report. */
function section0(r: RunModel, body: string): boolean {
  if (!completed(r) || !r.has(r.p.report)) return false;
  r.set(r.p.report, `${r.text(r.p.report).trimEnd()}\n\n## 0. Clarification Response Carried In From Previous Run\n\n${body}\n`);
  return true;
}

/**
 * Both analysers then voted on the critic's gaps (docs/convergence.md "Critic gaps"), as `okstra convergence run`
 * leaves it: each row's last dispatch is `gap-vote`, its result the worker's own `-gap-vote-` file, and the two stub
 * votes are word for word alike — two workers agreeing on the same ids, not one copying the other's analysis.
 */
function identicalGapVotes(r: RunModel): boolean {
  const analysers = r.rows.filter((w) => w.status === 'completed' && !isWriter(w));
  const writer = r.rows.find(isWriter);
  if (!completed(r) || analysers.length !== 2 || writer?.status !== 'completed' || !writer.startedAt) return false;
  const vote = '### G-1\n**Verdict**: SURVIVES\n**Basis**: the gap is real: the retry path drops refunds after one timeout.\n';
  const [start, end] = [new Date(Date.parse(writer.startedAt) - 10 * 60_000), new Date(Date.parse(writer.startedAt) - 5 * 60_000)].map((d) =>
    d.toISOString().replace('.000Z', 'Z'),
  );
  const pane = r.manifest.terminalBackend;
  const s = `${r.main.taskType}-${r.main.seq}`;
  for (const w of analysers) {
    const file = `${r.main.dir}/worker-results/${w.workerId}-gap-vote-${s}.md`;
    const side = file.replace(/\.md$/, '.audit.md');
    r.set(file, vote);
    r.set(side, `# Audit\n\n- PROGRESS: ${start} gap-vote reading the batch\n- PROGRESS: ${end} gap-vote done\n`);
    r.editRow(
      (x) => x.workerId === w.workerId,
      (x) =>
        Object.assign(x, {
          dispatchKind: 'gap-vote',
          startedAt: start,
          endedAt: end,
          attempt: (x.attempt ?? 1) + 1,
          livenessMode: 'audit-heartbeat',
          auditSidecarPath: r.p.recorded(side),
          resultPath: r.p.recorded(file),
        }),
    );
    if (r.manifest.workerDispatches.length)
      r.editManifest((m) =>
        m.workerDispatches.push(
          pane === 'tmux-pane' || pane === 'cmux-pane'
            ? { dispatchKind: 'gap-vote', workerId: w.workerId, backend: pane, paneId: `%gv-${w.workerId}`, startedAt: start, tornDownAt: end }
            : { dispatchKind: 'gap-vote', workerId: w.workerId, backend: 'subprocess', startedAt: start },
        ),
      );
  }
  return true;
}

/**
 * The retried worker's first dispatch timed out and kept running; `okstra team teardown --force` stopped it at the
 * end of the run (docs/team.md "teardown"), and its wrapper wrote its `error` over the `<prompt>.status.json` the
 * retry shares — a sidecar that started before the row's dispatch, whenever it ended (libs/team-state `isStatusCurrent`).
 */
function earlierDispatchKilledLast(r: RunModel): boolean {
  const row = r.rows.find((w) => w.status === 'completed' && String(w.dispatchKind ?? '').endsWith('-retry') && w.startedAt);
  const end = r.manifest.endedAt;
  if (!row || !end || !r.has(r.p.status(row.workerId))) return false;
  const killed = new Date(Date.parse(end) - 2 * 60_000).toISOString().replace('.000Z', 'Z');
  const first = new Date(Date.parse(row.startedAt) - 10 * 60_000).toISOString().replace('.000Z', 'Z');
  r.setJson(r.p.status(row.workerId), {
    schemaVersion: '1.0',
    workerId: row.workerId,
    dispatchKind: String(row.dispatchKind).replace(/-retry$/, ''),
    status: 'error',
    exitCode: null,
    signal: 'SIGTERM',
    startedAt: first,
    endedAt: killed,
    reason: 'provider CLI killed by SIGTERM',
  });
  return true;
}

/**
 * A native report writer (docs/team.md "Native workers": the lead started it in-process and recorded its row, so no
 * dispatch record or wrapper file exists) heartbeated into its own audit sidecar, then went silent and was recorded
 * `timeout` with `reason`; the lead wrote the report. Its heartbeats show it ran: it was not skipped, whatever its
 * reason says about the session (seed 002: those reasons rule out *skipping* the writer).
 */
function nativeWriterTimedOut(reason: string) {
  return (r: RunModel): boolean => {
    if (!completed(r) || r.manifest.reportAuthor !== 'report-writer') return false;
    const w = r.rows.find(isWriter);
    if (!w?.startedAt || r.manifest.workerDispatches.some((d: any) => d.workerId === w.workerId)) return false;
    const prompt = r.local(w.promptPath) ?? r.p.prompt(w.workerId);
    if (r.has(prompt.replace(/\.md$/, '.log')) || r.has(prompt.replace(/\.md$/, '.status.json'))) return false;
    const at = (min: number) => new Date(Date.parse(w.startedAt) + min * 60_000).toISOString().replace('.000Z', 'Z');
    const side = r.p.sidecar(w.workerId);
    r.set(side, `# Audit\n\n- PROGRESS: ${at(1)} drafting the report\n- PROGRESS: ${at(4)} drafting section 2\n`);
    r.editRow(isWriter, (x) => Object.assign(x, { failures: 1, livenessMode: 'audit-heartbeat', auditSidecarPath: r.p.recorded(side) }));
    // The lead authored the report: its frontmatter and data.json say so too.
    for (const f of [r.p.report, r.p.data].filter((x) => r.has(x))) r.set(f, r.text(f).replace(/(reportAuthor"?\s*:\s*"?)report-writer/g, '$1lead'));
    return leadFallback(r, reason, 'timeout');
  };
}

const answer = (id: string, text: string): LegalVariant => ({ id, apply: (r) => setResult(r, text) });
const nonAnswer = (id: string, rule: string, text: string): MutationClass => ({ id, rule, apply: (r) => setResult(r, text) });

export const LOOKALIKE_LEGAL: LegalVariant[] = [
  // Short findings with no heading or list whose first words a provider's status line also begins with.
  answer('lookalike-rate-limiting', 'Rate limiting in the payment gateway is the cause: it answers 429 after ten refunds a second, and the worker gives up.\n'),
  answer('lookalike-500-ms', "500 ms is the refund worker's HTTP timeout, far below the gateway's p99 of 2.3 s under load.\n"),
  answer('lookalike-429-responses', '429 responses from the gateway are treated as fatal, so every refund that meets the rate limit is dropped.\n'),
  answer('lookalike-http-504-from', 'HTTP 504 from the gateway proxy is what the client sees: the proxy cuts the call at 30 s, the gateway takes 45 s.\n'),
  answer('lookalike-timed-out-refunds', 'Timed out refunds are never retried: the worker marks them failed on the first timeout.\n'),
  answer(
    'lookalike-internal-server-error-responses',
    'Internal server error responses (500) from the ledger abort the refund transaction instead of being retried.\n',
  ),
  answer('lookalike-overloaded-pool', 'Overloaded connection pool: the worker opens a connection per refund and the pool of 10 runs dry under load.\n'),
  answer('lookalike-unfortunately-i-found', 'Unfortunately, I found no single cause: both the 30 s proxy timeout and the missing retry on 429 drop refunds.\n'),
  answer('lookalike-de-job-konnte-nicht', 'Der Refund-Job konnte die Transaktion nicht abschließen, weil das Gateway unter Last erst nach 45 s antwortet.\n'),
  answer('lookalike-es-quoted-message', 'El cliente recibe "no puedo completar el reembolso" porque el worker corta la llamada al gateway a los 30 s.\n'),
  // A one-heading answer that says nothing was found is the answer, not an unfilled template.
  answer('lookalike-heading-no-findings', '# No findings\n'),
  answer('lookalike-heading-no-findings-ko', '# 발견 사항 없음\n'),
  // The template under suspicion quoted in code the way CommonMark writes it: a tilde fence, a longer fence, an indented block.
  answer(
    'lookalike-placeholder-tilde-fence',
    '# Findings\n\n### F-2\nThe refund mail is sent unrendered:\n\n~~~html\n<p>Refund {{REFUND_ID}} failed</p>\n~~~\n',
  ),
  answer('lookalike-placeholder-4-backticks', '# Findings\n\n### F-2\nThe template:\n\n````md\n```\n{{REFUND_ID}}\n```\n````\n'),
  answer(
    'lookalike-placeholder-indented',
    '# Findings\n\n### F-2\nThe refund mail is sent unrendered:\n\n    <p>Refund {{REFUND_ID}} failed</p>\n\nThe mailer skips rendering.\n',
  ),
  // A carried-in response that itself begins with "No" is content, not a "nothing carried in" stub.
  { id: 'lookalike-section0-answer-no', apply: (r) => section0(r, 'No — the user confirmed refunds older than 24 h are never retried automatically.') },
  { id: 'lookalike-identical-gap-votes', apply: identicalGapVotes },
  { id: 'lookalike-earlier-dispatch-killed-last', apply: earlierDispatchKilledLast },
  {
    id: 'lookalike-native-writer-timeout-resume-wording',
    apply: nativeWriterTimedOut('no heartbeat for 6 min after the lead session was resumed; marked timeout'),
  },
  { id: 'lookalike-native-writer-timeout-ko-session', apply: nativeWriterTimedOut('세션 한도 초과 후 6분간 heartbeat 없음: timeout 처리') },
  {
    id: 'lookalike-section0-nothing-blocking',
    apply: (r) => section0(r, 'Nothing was blocking; the user answered the retry question: retry three times with backoff.'),
  },
];

/** What the narrowed tests must still refuse: provider status lines with their usual tails, a template's title, Section 0 stubs. */
export const LOOKALIKE_CLASSES: MutationClass[] = [
  nonAnswer('lookalike-s11-http-503-reason', 'S11', '503 Service Unavailable\n'),
  nonAnswer('lookalike-s11-http-429-prefixed', 'S11', 'HTTP 429 Too Many Requests\n'),
  nonAnswer('lookalike-s11-http-500-json', 'S11', '500 {"error":{"message":"internal"}}\n'),
  nonAnswer('lookalike-s4-timed-out-after', 'S4', 'Timed out after 600000 ms\n'),
  nonAnswer('lookalike-s4-overloaded-alone', 'S4', 'Overloaded\n'),
  nonAnswer('lookalike-s4-rate-limit-reached', 'S11', 'Rate limit reached for requests. Please try again in 20s.\n'),
  nonAnswer('lookalike-s4-unfortunately-could-not', 'S4', 'Unfortunately, I could not finish the analysis in the time given.\n'),
  nonAnswer('lookalike-s4-wir-konnten-nicht', 'S4', 'Leider konnten wir die Analyse nicht abschließen.\n'),
  nonAnswer('lookalike-s4-template-title', 'S4', '# Findings\n\n## Notes\n'),
  {
    id: 'lookalike-s25-section0-no-clarifications',
    rule: 'S25',
    apply: (r) => section0(r, 'No clarification responses were carried in from the previous run.'),
  },
  { id: 'lookalike-s25-section0-nothing-to-carry', rule: 'S25', apply: (r) => section0(r, 'Nothing to carry in.') },
  { id: 'lookalike-s25-section0-no-previous', rule: 'S25', apply: (r) => section0(r, 'No previous run.') },
];
