// Markdown a careful writer marks up, and what the readers must still see in it (seed rules S12, S21): a
// `## 1. Clarification Items` section whose answered rows carry a check mark, emphasis, a link, struck-through old
// values or Korean/Japanese/Chinese words, a bold or translated section heading (invariants 9 and 16), and code
// fences nested or indented in a list (invariant 13's citations) — with the open rows, missing rows and uncited
// citations those tests must still catch. History: the second false-alarm hunt (issue #24; was classes-fa2.ts,
// ids fa2-…). Not part of the build.
import { completed, completedAnalyser, type LegalVariant, type MutationClass } from './helpers.js';
import type { RunModel } from './model.js';

const SECTION_1 = /^## 1\. Clarification Items\n[\s\S]*?(?=^## |(?![\s\S]))/m;

/** The plan's data.json planBodyVerification, or null. */
const pbv = (r: RunModel) =>
  r.has(r.p.data) && r.text(r.p.data).includes('"planBodyVerification"') ? r.json(r.p.data).implementationPlanning.planBodyVerification : null;

/** Replace a completed report's `## 1. Clarification Items` section (heading and body); false when it has none. */
function section1(r: RunModel, heading: string, body: string): boolean {
  if (!completed(r) || !r.has(r.p.report) || !SECTION_1.test(r.text(r.p.report))) return false;
  r.set(r.p.report, r.text(r.p.report).replace(SECTION_1, `${heading}\n\n${body}\n\n`));
  return true;
}

const approve = (r: RunModel) => r.set(r.p.report, r.text(r.p.report).replace(/approved:\s*false/, 'approved: true'));

/** A non-blocking plan verification, so approval waits only on the Clarification Items rows. */
const notBlocking = (r: RunModel) => {
  const v = pbv(r);
  return !!v && (v.result === 'passed' || v.result === 'passed-with-dissent');
};

/** The user answered both approval-blocking rows; the report is approved; `status(n)` renders row n's Status. */
function answeredThenApproved(status: (n: number) => string, blocks: (n: number) => string = () => 'approval') {
  return (r: RunModel): boolean => {
    if (!notBlocking(r)) return false;
    const rows = [4, 7].map((n) => `| C-00${n} | question | ${blocks(n)} | ${status(n)} | asked of the user in the approval gate |`);
    if (!section1(r, '## 1. Clarification Items', ['| ID | Kind | Blocks | Status | Statement |', '|---|---|---|---|---|', ...rows].join('\n'))) return false;
    approve(r);
    return true;
  };
}

/**
 * Make the plan's last item a blocking DISAGREE (fixability replan) of its first voter, everywhere it is recorded: the
 * worker's saved plan-verify response, data.json, the verdicts state and the report's `## 6.` Result line. Its id, or
 * null when the run has no such plan.
 */
function blockLast(r: RunModel): string | null {
  const v = pbv(r);
  const item = v?.planItems?.[v.planItems.length - 1];
  const w = item?.verdicts?.[0]?.workerId;
  const response = w ? `${r.main.dir}/worker-results/${w}-plan-verify-${r.main.taskType}-${r.main.seq}.md` : '';
  const block = item ? new RegExp(`^### ${item.id}\\b[^\\n]*\\n[\\s\\S]*?(?=^### |(?![\\s\\S]))`, 'm') : null;
  if (!completed(r) || !item || !block || !r.has(response) || !block.test(r.text(response))) return null;
  const vote = { verdict: 'DISAGREE', breakageKind: 'b', fixability: 'replan', basis: 'The step cannot pass as written: its files cell names no file.' };
  r.set(response, r.text(response).replace(block, `### ${item.id}\n**Verdict**: DISAGREE [b]\n**Fixability**: replan\n**Basis**: ${vote.basis}\n\n`));
  const edit = (items: any[]) =>
    items.filter((i) => i.id === item.id).forEach((i) => i.verdicts.filter((x: any) => x.workerId === w).forEach((x: any) => Object.assign(x, vote)));
  r.edit(r.p.data, (d: any) => {
    const p = d.implementationPlanning.planBodyVerification;
    edit(p.planItems);
    p.result = 'blocked-by-disagreement';
  });
  if (r.has(r.p.planVerdicts)) r.edit(r.p.planVerdicts, (f: any) => Array.isArray(f.items) && edit(f.items));
  if (r.has(r.p.report)) r.set(r.p.report, r.text(r.p.report).replace(/^(Result:\s*\**)[a-z-]+/m, '$1blocked-by-disagreement'));
  return item.id;
}

/** A blocked plan whose blocking item has its row (when `withRow`) under a section headed `heading`. */
function blockedUnder(heading: string, withRow = true) {
  return (r: RunModel): boolean => {
    const id = blockLast(r);
    if (!id) return false;
    const row = withRow ? `\n| C-008 | plan-verification | approval | open | ${id}: the step cannot pass as planned (replan) |` : '';
    return section1(
      r,
      heading,
      `| ID | Kind | Blocks | Status | Statement |\n|---|---|---|---|---|\n| C-004 | question | approval | open | key source? |${row}`,
    );
  };
}

/** Append `text` to the result of a completed analyser whose prompt requires the evidence ledger; false when none. */
function appendToLedgeredResult(r: RunModel, text: string): boolean {
  const a = completedAnalyser(r);
  if (!a || !completed(r)) return false;
  const prompt = r.local(a.row.promptPath) ?? r.p.prompt(a.row.workerId);
  if (!r.has(prompt) || !r.text(prompt).includes('evidence-ledger required-v1')) return false;
  r.set(a.result, `${r.text(a.result).trimEnd()}\n\n${text}`);
  return true;
}

export const MARKUP_LEGAL: LegalVariant[] = [
  // Answered approval rows as writers mark them up (seed 000 okstra-user-response: the answered rows of §1).
  { id: 'markup-clar-status-check-mark', apply: answeredThenApproved(() => '✅ resolved') },
  { id: 'markup-clar-status-underscore-emphasis', apply: answeredThenApproved(() => '_answered_') },
  { id: 'markup-clar-status-link', apply: answeredThenApproved(() => '[answered](../user-responses/user-response-001.md)') },
  { id: 'markup-clar-status-struck-old-value', apply: answeredThenApproved(() => '~~open~~ resolved') },
  { id: 'markup-clar-status-ko', apply: answeredThenApproved((n) => (n === 4 ? '해결됨' : '답변 완료')) },
  { id: 'markup-clar-status-ja-zh', apply: answeredThenApproved((n) => (n === 4 ? '回答済み' : '已解决')) },
  {
    id: 'markup-clar-blocks-struck',
    apply: answeredThenApproved(
      () => '',
      () => '~~approval~~ none',
    ),
  },
  // A blocked plan's row under a section heading the writer emphasised, numbered `1)` or translated.
  { id: 'markup-clar-heading-bold', apply: blockedUnder('## **1. Clarification Items**') },
  { id: 'markup-clar-heading-paren', apply: blockedUnder('## 1) Clarification Items') },
  { id: 'markup-clar-heading-translated', apply: blockedUnder('## 1. 확인 필요 항목 (Clarification Items)') },
  // Code a worker quotes: a ```` fence holding a ``` block, a fence indented inside a list item (CommonMark).
  {
    id: 'markup-ledger-nested-fence',
    apply: (r) => appendToLedgeredResult(r, 'The report template:\n\n````md\n```\n`src/not-cited.ts:88`\n```\n`src/not-cited.ts:99`\n````\n'),
  },
  {
    id: 'markup-ledger-list-item-fence',
    apply: (r) => appendToLedgeredResult(r, '1. Reproduce:\n    ```sh\n    grep -n retry `src/not-cited.ts:88`\n    ```\n2. Compare the log.\n'),
  },
];

/** What the narrowed tests must still see: an open row, a still-blocking row, a missing row, an uncited citation. */
export const MARKUP_CLASSES: MutationClass[] = [
  { id: 'markup-s21-status-struck-resolved', rule: 'S21', apply: answeredThenApproved(() => '~~resolved~~ open') },
  { id: 'markup-s21-status-ko-unresolved', rule: 'S21', apply: answeredThenApproved(() => '미해결') },
  { id: 'markup-s21-status-check-mark-pending', rule: 'S21', apply: answeredThenApproved(() => '⏳ pending') },
  { id: 'markup-s21-blocked-translated-heading-no-row', rule: 'S21', apply: blockedUnder('## 1. 확인 필요 항목 (Clarification Items)', false) },
  // A citation after a closed ```` fence, and after a line-opening ``` code span, is prose again.
  {
    id: 'markup-s12-citation-after-nested-fence',
    rule: 'S12',
    apply: (r) => appendToLedgeredResult(r, '````md\n```\nquoted\n```\n````\n\nThe retry is dropped at `src/never-read.ts:99`.\n'),
  },
  {
    id: 'markup-s12-citation-after-triple-backtick-span',
    rule: 'S12',
    apply: (r) => appendToLedgeredResult(r, '```retry()``` is never awaited: see `src/never-read.ts:99`.\n'),
  },
];
