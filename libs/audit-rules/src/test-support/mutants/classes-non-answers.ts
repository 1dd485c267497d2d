// Mutation classes for answers that are not answers and reasons that are not reasons (seed rules S2, S4, S16, S19,
// S25, S32): copied results, "and similar" writer-skip reasons in other words and languages, round responses the
// collectors refuse, Section 0 stubs in other words, a report that is a refusal — and the legal shapes beside them
// ("I could not reproduce …", two identical short "No findings.", a transcript quoted in a fence, a one-line
// Section 0 naming its item, a dispatched writer whose timeout reason mentions a resumed session). History: found by
// the fourth held-out set (/tmp/heldout4; was classes-heldout4.ts, ids h4-… and l4-…). Not part of the build.
import { completedAnalyser, completed, isWriter, leadFallback, setResult, type LegalVariant, type MutationClass } from './helpers.js';
import type { RunModel } from './model.js';

/** Replace the main run's final report body, its frontmatter kept; false without a report in a completed run. */
function setReportBody(r: RunModel, body: string): boolean {
  if (!completed(r) || !r.has(r.p.report)) return false;
  const fm = /^\uFEFF?---[\s\S]*?\n---[ \t]*\r?\n/.exec(r.text(r.p.report))?.[0] ?? '';
  r.set(r.p.report, `${fm}\n${body}`);
  return true;
}

/** Append a Section 0 with `body` to the main run's completed report. */
function section0(r: RunModel, body: string): boolean {
  if (!completed(r) || !r.has(r.p.report)) return false;
  r.set(r.p.report, `${r.text(r.p.report).trimEnd()}\n\n## 0. Clarification Response Carried In From Previous Run\n\n${body}\n`);
  return true;
}

/** The report writer failed with `reason`, started but never dispatched (no record, no wrapper artifact): the lead wrote the report. */
function writerSkipped(r: RunModel, reason: string): boolean {
  if (!completed(r) || r.manifest.reportAuthor !== 'report-writer') return false;
  const w = r.rows.find(isWriter);
  if (!w?.startedAt || r.manifest.workerDispatches.some((d: any) => d.workerId === w.workerId)) return false;
  const prompt = r.local(w.promptPath) ?? r.p.prompt(w.workerId);
  if (r.has(prompt.replace(/\.md$/, '.log')) || r.has(prompt.replace(/\.md$/, '.status.json'))) return false;
  return leadFallback(r, reason, 'error');
}

/** Round 1's first completed worker with votes and a saved response, or null. */
function roundResponse(r: RunModel): string | null {
  if (!r.has(r.p.roundResults(1)) || !r.has(r.p.roundPlan(1))) return null;
  const w = (r.json(r.p.roundResults(1)).workers as any[]).find((x) => x.status === 'completed' && x.verdicts?.length && r.has(r.p.reverify(x.workerId, 1)));
  return w ? r.p.reverify(w.workerId, 1) : null;
}

/** Edit the first saved round-1 response with `fn`; false when there is none or the edit changes nothing. */
function editResponse(r: RunModel, fn: (text: string) => string): boolean {
  const file = roundResponse(r);
  if (!file) return false;
  const before = r.text(file);
  r.set(file, fn(before));
  return r.text(file) !== before;
}

/**
 * Edit the first DISAGREE block (outside fences) of a plan-verify response data.json records votes from: `fn` gets the
 * response's lines and the verdict line's index and returns false when it changes nothing.
 */
function editDisagree(r: RunModel, fn: (lines: string[], at: number) => boolean): boolean {
  if (!r.has(r.p.data) || !r.text(r.p.data).includes('"planBodyVerification"')) return false;
  for (const file of r.matching(/-plan-verify-[^/]*\d\.md$/)) {
    const lines = r.text(file).split('\n');
    let fenced = false;
    for (let i = 0; i < lines.length; i++) {
      if (/^\s*```/.test(lines[i]!)) fenced = !fenced;
      if (!fenced && /Verdict\**\s*:\s*\**\s*DISAGREE/i.test(lines[i]!) && fn(lines, i)) {
        r.set(file, lines.join('\n'));
        return true;
      }
    }
  }
  return false;
}

/** A second completed analyser (another worker than `a`) with a Markdown result, or null. */
function otherAnalyser(r: RunModel, a: { row: any }): { row: any; result: string } | null {
  for (const row of r.rows) {
    if (row.status !== 'completed' || isWriter(row) || row.workerId === a.row.workerId) continue;
    const result = r.local(row.resultPath) ?? r.p.result(row.workerId);
    if (result.endsWith('.md') && r.has(result)) return { row, result };
  }
  return null;
}

const answer = (id: string, text: string): MutationClass => ({ id, rule: 'S4', apply: (r) => setResult(r, text) });

export const NON_ANSWER_CLASSES: MutationClass[] = [
  // S4 a completed worker's result is an answer: refusals ("I could not") in the languages a provider answers in
  answer('nonanswer-s4-refusal-en', "I'm sorry, but I can't help with that request.\n"),
  answer('nonanswer-s4-refusal-ko', '죄송합니다. 요청하신 분석을 완료할 수 없었습니다.\n'),
  answer('nonanswer-s4-refusal-ja', '申し訳ありませんが、この分析を完了できませんでした。\n'),
  answer('nonanswer-s4-refusal-es', 'Lo siento, no pude completar el análisis solicitado.\n'),
  answer('nonanswer-s4-refusal-de', 'Ich konnte die Analyse leider nicht abschließen.\n'),
  // S4 / S11 a provider CLI's failure line where the answer belongs (Claude Code, Codex)
  answer('nonanswer-s4-claude-usage-limit', 'Claude AI usage limit reached|1764403200\n'),
  answer('nonanswer-s4-claude-execution-error', 'Execution error\n'),
  answer(
    'nonanswer-s4-codex-stream-error',
    'ERROR: stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)\n',
  ),
  answer('nonanswer-s4-no-content', '(no content)\n'),
  // S4 the wrapper saved the provider's raw stream-json transcript instead of the answer
  answer(
    'nonanswer-s4-stream-json-transcript',
    '{"type":"system","subtype":"init","session_id":"abc","tools":[]}\n{"type":"assistant","message":{"content":[{"type":"text","text":"Reading files"}]}}\n',
  ),
  // S4 the result template left unfilled: headings and nothing under them
  answer('nonanswer-s4-headings-only', '# Findings\n\n## Root cause\n\n## Evidence\n'),
  {
    // S4 "a saved result file" of this worker: another worker's answer copied in is not its own
    id: 'nonanswer-s4-result-copied',
    rule: 'S4',
    apply: (r) => {
      const a = completedAnalyser(r);
      const b = a && otherAnalyser(r, a);
      if (!a || !b || !a.result.endsWith('.md') || r.text(a.result).trim().length < 100) return false;
      r.set(b.result, r.text(a.result));
      return true;
    },
  },
  // S2 "Session resume", "team is no longer alive", and similar: the same excuse in other words, for a writer never dispatched
  { id: 'nonanswer-s2-reason-korean', rule: 'S2', apply: (r) => writerSkipped(r, '세션 재개 후 팀이 더 이상 살아있지 않아 리포트 작성자를 건너뜀') },
  {
    id: 'nonanswer-s2-reason-compaction',
    rule: 'S2',
    apply: (r) => writerSkipped(r, 'resumed after compaction; workers were gone so the report writer was skipped'),
  },
  { id: 'nonanswer-s2-reason-team-died', rule: 'S2', apply: (r) => writerSkipped(r, 'Team died after session restart') },
  // S16 collect-results exits 2 on the response, so the votes the saved results hold for it came from nothing
  {
    id: 'nonanswer-s16-response-missing-finding',
    rule: 'S16',
    apply: (r) => editResponse(r, (t) => t.replace(/^###? F-[^\n]*\n[\s\S]*?(?=^###? |(?![\s\S]))/m, '')),
  },
  { id: 'nonanswer-s16-vote-without-basis', rule: 'S16', apply: (r) => editResponse(r, (t) => t.replace(/^[-*\s]*\**Basis\**:[^\n]*\n/m, '')) },
  { id: 'nonanswer-s16-vote-foreign-finding', rule: 'S16', apply: (r) => editResponse(r, (t) => t.replace(/^(###? )F-\d+/m, '$1F-099')) },
  { id: 'nonanswer-s16-verdict-unknown-word', rule: 'S16', apply: (r) => editResponse(r, (t) => t.replace(/(\*\*Verdict\*\*:\s*)[A-Z-]+/, '$1PROBABLY')) },
  // S19 collect-verdicts exits 2 on a DISAGREE without its fixability or breakage kind: data.json's vote came from nothing
  {
    id: 'nonanswer-s19-response-disagree-no-fixability',
    rule: 'S19',
    apply: (r) =>
      editDisagree(r, (lines, at) => {
        const k = lines.findIndex((l, i) => i > at && i <= at + 3 && /Fixability/i.test(l));
        return k > 0 && lines.splice(k, 1).length === 1;
      }),
  },
  {
    id: 'nonanswer-s19-response-disagree-no-kind',
    rule: 'S19',
    apply: (r) =>
      editDisagree(r, (lines, at) => {
        const before = lines[at]!;
        lines[at] = before.replace(/DISAGREE\s*[([]\s*[a-e]\s*[)\]]/i, 'DISAGREE');
        return lines[at] !== before && !lines.slice(at + 1, at + 4).some((l) => /Breakage/i.test(l));
      }),
  },
  // S25 Section 0 rendered with nothing in it, in other words
  { id: 'nonanswer-s25-section0-korean-none', rule: 'S25', apply: (r) => section0(r, '없음') },
  { id: 'nonanswer-s25-section0-italic-none', rule: 'S25', apply: (r) => section0(r, '_No carry-in for this run._') },
  { id: 'nonanswer-s25-section0-comment-only', rule: 'S25', apply: (r) => section0(r, '<!-- no carried-in responses -->') },
  // S32 the report writer's report is a refusal
  { id: 'nonanswer-s32-report-refusal', rule: 'S32', apply: (r) => setReportBody(r, "I'm sorry, I could not write the final report.\n") },
  { id: 'nonanswer-s32-report-refusal-ko', rule: 'S32', apply: (r) => setReportBody(r, '보고서를 작성할 수 없었습니다.\n') },
];

export const NON_ANSWER_LEGAL: LegalVariant[] = [
  // "could not reproduce" is a finding, not a refusal
  {
    id: 'l-result-could-not-reproduce',
    apply: (r) => setResult(r, 'I could not reproduce the timeout with the gateway double; the deadline is never set.\n'),
  },
  // a short answer in Korean that says what it found
  { id: 'l-result-korean-answer', apply: (r) => setResult(r, '재현할 수 없었습니다. 게이트웨이 호출에 타임아웃이 설정되어 있지 않습니다.\n') },
  {
    // two workers that both found nothing may say so in the same words: a short answer is not a copy
    id: 'l-same-short-answers',
    apply: (r) => {
      const a = completedAnalyser(r);
      const b = a && otherAnalyser(r, a);
      if (!a || !b || !a.result.endsWith('.md')) return false;
      r.set(a.result, '# Result\n\nNo findings.\n');
      r.set(b.result, '# Result\n\nNo findings.\n');
      return true;
    },
  },
  // a transcript quoted in a fenced block under a heading is part of an answer
  {
    id: 'l-result-quotes-transcript',
    apply: (r) =>
      setResult(
        r,
        '# Findings\n\nThe wrapper log shows the provider started:\n\n```\n{"type":"system","subtype":"init"}\n```\n\nThe retry loop never resets its counter.\n',
      ),
  },
  // a one-line Section 0 naming the carried-in item has content
  { id: 'l-section0-one-line-with-id', apply: (r) => section0(r, 'No change to the plan: C-004 answered (client header), applied to stage 2.') },
  {
    // a writer that was dispatched and timed out was not skipped, whatever its reason says about the session
    id: 'l-writer-dispatched-timeout-resume-wording',
    apply: (r) => {
      if (!completed(r) || r.manifest.reportAuthor !== 'report-writer' || r.manifest.terminalBackend !== 'tmux-pane') return false;
      const w = r.rows.find(isWriter);
      if (!w?.startedAt) return false;
      r.editManifest((m) =>
        m.workerDispatches.push({
          dispatchKind: 'initial',
          workerId: w.workerId,
          backend: 'tmux-pane',
          paneId: '%9',
          startedAt: w.startedAt,
          tornDownAt: m.endedAt,
        }),
      );
      r.editRow(isWriter, (x) => (x.failures = 1));
      return leadFallback(r, 'timed out after 40 min; the session was resumed once meanwhile', 'timeout');
    },
  },
];
