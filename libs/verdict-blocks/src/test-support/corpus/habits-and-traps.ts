// Whole answers that mix each provider's writing habits (its heading and label
// style, preambles, summaries, languages) with one trap each, the way real
// answers do, written the way each model answers prompts/workers/reverify-*.md
// and plan-body-verification.md. Each carries the reading a careful reader gets:
// the votes, or "must refuse" and why. Unlike forms.ts (one layout per form,
// every voice), each answer here is a whole answer.
// History: written for issue #25 as a held-out-style set by an engineer who had
// not read the reader (it was held-out.ts); the readers have been fixed from it
// since, so it is a regression corpus now, not a held-out one.
import type { CorpusAnswer, CorpusReader } from './index.js';
import type { CorpusProvider } from './voices.js';

/** A provider's writing habits: how it heads a block, labels a field, opens and closes. */
interface Habits {
  p: CorpusProvider;
  pre: string;
  post: string;
  /** A block heading for an id with an optional title. */
  h: (id: string, title: string) => string;
  /** A field line `label: value`. */
  f: (label: string, value: string) => string;
  /** Basis texts: [refuting, holding, caveat, unverifiable]. */
  b: readonly [string, string, string, string];
  /** Plan Basis texts: [agree, broken path, supplement]. */
  pb: readonly [string, string, string];
  sum: string;
}

const H: Record<CorpusProvider, Habits> = {
  claude: {
    p: 'claude',
    pre: "I'll go through each finding in order, reading the cited code before settling on a verdict.\n\n",
    post: '\nLet me know if you want me to dig deeper into any of these.\n',
    h: (id, t) => `### ${id} — ${t}`,
    f: (l, v) => `**${l}**: ${v}`,
    b: [
      "`src/queue.ts:88` acquires `queueLock` before reading `head`, and the other writer (`src/queue.ts:131`) holds the same lock — the interleaving described can't happen.",
      "I tried to break this and couldn't:\n\n- `src/http/client.ts:42` retries 503s without reading `Retry-After`\n- the bound is `MAX_RETRIES = 5` (`src/http/client.ts:12`)\n\n```ts\nif (res.status === 503) return retry(req);\n```",
      'It holds, but only for card refunds: `src/refunds/timeout.ts:88` applies the cap to `method === "card"` only.',
      "The finding depends on the production `nginx.conf`, which isn't in this repository.",
    ],
    pb: [
      'The option matches `src/payments/refunds/gateway-client.ts:31`, where the call is made without a deadline.',
      'The files cell names `src/payments/…/gateway-client.ts`, which does not resolve; the client lives at `src/payments/refunds/gateway-client.ts:1`.',
      'The rollback should also drop the `refund_idempotency_key` column added in `migrations/0031_refund_key.sql:4`.',
    ],
    sum: 'Summary',
  },
  codex: {
    p: 'codex',
    pre: '',
    post: '',
    h: (id) => `### ${id}`,
    f: (l, v) => `**${l}**: ${v}`,
    b: [
      '`src/queue.ts:88` locks `queueLock` before reading `head`; other writer `src/queue.ts:131` holds same lock. No race.',
      'Confirmed at `src/http/client.ts:42`: 503 retried w/o `Retry-After`. Bound `src/http/client.ts:12`.',
      'Card only: `src/refunds/timeout.ts:88` gates on `method === "card"`.',
      'Needs prod `nginx.conf`; not in repo.',
    ],
    pb: [
      'matches `src/payments/refunds/gateway-client.ts:31`.',
      '`src/payments/…/gateway-client.ts` does not resolve; real path `src/payments/refunds/gateway-client.ts:1`.',
      'also drop `refund_idempotency_key` (`migrations/0031_refund_key.sql:4`).',
    ],
    sum: 'Summary',
  },
  antigravity: {
    p: 'antigravity',
    pre: '# Re-verification Report\n\nI analyzed the codebase to verify each item. Here is what I found:\n\n---\n\n',
    post: '\n---\n\n*Analysis complete. All items in the batch were reviewed.*\n',
    h: (id, t) => `### 🔍 ${id}: ${t}`,
    f: (l, v) => `**${l}:** ${v}`,
    b: [
      '**Analysis:** The lock `queueLock` is acquired at `src/queue.ts:88` before `head` is read. The other writer, `src/queue.ts:131`, also holds it. The race is therefore not possible.',
      '**Analysis:** Confirmed at `src/http/client.ts:42`: the 503 branch never consults `Retry-After`.\n\n1. Request fails with 503\n2. `retry(req)` runs immediately',
      '**Analysis:** The cap at `src/refunds/timeout.ts:88` only applies to card refunds (`method === "card"`).',
      '**Analysis:** The production `nginx.conf` is not available in the workspace.',
    ],
    pb: [
      '**Analysis:** The option is consistent with `src/payments/refunds/gateway-client.ts:31`.',
      '**Analysis:** The path `src/payments/…/gateway-client.ts` is abbreviated and does not resolve. The correct path is `src/payments/refunds/gateway-client.ts:1`.',
      '**Analysis:** The rollback should also remove `refund_idempotency_key` (`migrations/0031_refund_key.sql:4`).',
    ],
    sum: 'Summary',
  },
  grok: {
    p: 'grok',
    pre: "Alright, dug through the code. Here's where each one lands — no fluff.\n\n",
    post: "\nThat's the batch. 🚀\n",
    h: (id, t) => `## ${id} (${t})`,
    f: (l, v) => `**${l}:** ${v}`,
    b: [
      'Nope. `src/queue.ts:88` grabs `queueLock` before touching `head`, and `src/queue.ts:131` grabs the same lock. No race, period.',
      'Yep, real. `src/http/client.ts:42` hammers 503s with zero regard for `Retry-After`. Bound is 5 (`src/http/client.ts:12`).',
      'Real, but narrower than claimed — `src/refunds/timeout.ts:88` only caps card refunds.',
      "Can't check it: the prod `nginx.conf` isn't here.",
    ],
    pb: [
      'Solid — `src/payments/refunds/gateway-client.ts:31` is exactly where the deadline goes.',
      "That `src/payments/…/gateway-client.ts` path is bogus — it's `src/payments/refunds/gateway-client.ts:1`.",
      "Don't forget the `refund_idempotency_key` column (`migrations/0031_refund_key.sql:4`).",
    ],
    sum: 'TL;DR',
  },
  kimi: {
    p: 'kimi',
    pre: '好的，我逐条核对了这些条目。\n\n',
    post: '\n以上是全部结论。\n',
    h: (id, t) => `### ${id}（${t}）`,
    f: (l, v) => `**${l}**：${v}`,
    b: [
      '`src/queue.ts:88` 在读取 `head` 之前已获取 `queueLock`，另一个写入方 `src/queue.ts:131` 也持有同一把锁，因此不存在竞争。',
      '确认：`src/http/client.ts:42` 对 503 直接重试，未读取 `Retry-After`。上限见 `src/http/client.ts:12`。',
      '成立，但仅限银行卡退款：`src/refunds/timeout.ts:88` 只对 `method === "card"` 生效。',
      '该结论依赖生产环境的 `nginx.conf`，仓库中没有。',
    ],
    pb: [
      '与 `src/payments/refunds/gateway-client.ts:31` 一致。',
      '文件列的 `src/payments/…/gateway-client.ts` 无法解析，实际路径为 `src/payments/refunds/gateway-client.ts:1`。',
      '回滚还需删除 `migrations/0031_refund_key.sql:4` 添加的 `refund_idempotency_key` 列。',
    ],
    sum: '总结',
  },
};

const TITLES: Record<string, string> = {
  'F-001': 'Queue consumer race',
  'F-002': 'Retry loop ignores Retry-After',
  'F-003': 'Refund timeout cap',
  'F-004': 'Webhook signature check',
  'P-Opt-1': 'Deadline + idempotency key',
  'P-Step-1-1': 'RED gateway deadline tests',
  'P-Step-2-3': 'Settlement outbox files',
  'P-Rb-1-1': 'Rollback of the deadline',
};

type Reading = Pick<CorpusAnswer, 'reads' | 'refused' | 'basisHas'>;
const must = (because: string, message: RegExp = /./): Reading => ({ refused: { because, message } });

/** One block: heading, Verdict (and extra field lines), Basis. */
function blk(x: Habits, id: string, verdict: string, basis: string, extra: string[] = []): string {
  return [x.h(id, TITLES[id] ?? id), x.f('Verdict', verdict), ...extra, x.f('Basis', basis), ''].join('\n');
}
/** The three-finding adversarial answer (REFUTED, SURVIVES, SURVIVES-WITH-CAVEAT), verdicts overridable. */
function adv3(x: Habits, v: [string, string, string] = ['REFUTED', 'SURVIVES', 'SURVIVES-WITH-CAVEAT']): string {
  return `${blk(x, 'F-001', v[0], x.b[0])}\n${blk(x, 'F-002', v[1], x.b[1])}\n${blk(x, 'F-003', v[2], x.b[2])}`;
}
const ADV3 = ['F-001', 'F-002', 'F-003'] as const;
const ADV3_READ = { 'F-001': 'REFUTED', 'F-002': 'SURVIVES', 'F-003': 'SURVIVES-WITH-CAVEAT' };
/** The three-item plan answer: AGREE, DISAGREE (b) in-place, SUPPLEMENT. */
function plan3(x: Habits, v2 = 'DISAGREE (b)', fix: string | null = 'in-place', v1 = 'AGREE', v3 = 'SUPPLEMENT'): string {
  const fx = fix === null ? [] : [x.f('Fixability', fix)];
  return `${blk(x, 'P-Opt-1', v1, x.pb[0])}\n${blk(x, 'P-Step-2-3', v2, x.pb[1], fx)}\n${blk(x, 'P-Rb-1-1', v3, x.pb[2])}`;
}
const PLAN3 = ['P-Opt-1', 'P-Step-2-3', 'P-Rb-1-1'] as const;
const PLAN3_READ = { 'P-Opt-1': 'AGREE', 'P-Step-2-3': 'DISAGREE (b, in-place)', 'P-Rb-1-1': 'SUPPLEMENT' };
const COL2 = ['F-004', 'F-002'] as const;
function col2(x: Habits, v: [string, string] = ['supplement', 'agree']): string {
  return `${blk(x, 'F-004', v[0], x.b[2])}\n${blk(x, 'F-002', v[1], x.b[1])}`;
}
const COL2_READ = { 'F-004': 'SUPPLEMENT', 'F-002': 'AGREE' };

/** A scenario: a name, the reader, the ids, the text for a provider's habits, and the intended reading. */
interface Scenario {
  name: string;
  reader: CorpusReader;
  ids: readonly string[];
  text: (x: Habits) => string;
  reading: Reading | ((x: Habits) => Reading);
  /** The providers that write it (default: all five). */
  by?: readonly CorpusProvider[];
}

const ALL: readonly CorpusProvider[] = ['claude', 'codex', 'antigravity', 'grok', 'kimi'];
const w = (x: Habits, body: string) => `${x.pre}${body}${x.post}`;

const SCENARIOS: Scenario[] = [
  // ---- Clear reverify answers ----
  { name: 'plain', reader: 'adversarial', ids: ADV3, text: (x) => w(x, adv3(x)), reading: { reads: ADV3_READ } },
  {
    name: 'crlf',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) => w(x, adv3(x)).replace(/\n/g, '\r\n'),
    reading: { reads: ADV3_READ },
    by: ['codex', 'antigravity', 'kimi'],
  },
  {
    name: 'summary-table-agrees',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) =>
      w(x, `${adv3(x)}\n## ${x.sum}\n\n| Finding | Verdict |\n|---|---|\n| F-001 | REFUTED |\n| F-002 | SURVIVES |\n| F-003 | SURVIVES-WITH-CAVEAT |\n`),
    reading: { reads: ADV3_READ },
  },
  {
    name: 'summary-bullets-agree-lowercase',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) => w(x, `${adv3(x)}\n**${x.sum}**\n\n- F-001: refuted\n- F-002: survives\n- F-003: survives with caveat\n`),
    reading: { reads: ADV3_READ },
    by: ['claude', 'grok', 'kimi'],
  },
  {
    name: 'verdict-decorated',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) => w(x, adv3(x, ['**REFUTED** ❌', '`SURVIVES` ✅', 'Survives-with-caveats'])),
    reading: { reads: ADV3_READ },
    by: ['antigravity', 'grok', 'claude'],
  },
  {
    name: 'confidence-field',
    reader: 'adversarial',
    ids: ['F-001', 'F-004'],
    text: (x) =>
      w(x, `${blk(x, 'F-001', 'REFUTED', x.b[0], [x.f('Confidence', 'High')])}\n${blk(x, 'F-004', 'UNVERIFIABLE', x.b[3], [x.f('Confidence', 'Low')])}`),
    reading: { reads: { 'F-001': 'REFUTED', 'F-004': 'UNVERIFIABLE' } },
    by: ['antigravity', 'grok', 'claude', 'kimi'],
  },
  {
    name: 'think-drafts',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) =>
      `<think>\nFirst pass: F-001 looks like it SURVIVES — no wait, check the lock.\n\n### F-001\n**Verdict**: SURVIVES\n**Basis**: draft\n</think>\n\n${w(x, adv3(x))}`,
    reading: { reads: ADV3_READ },
    by: ['kimi', 'grok', 'claude'],
  },
  {
    name: 'fenced-whole-answer',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      `Here is my answer:\n\n\`\`\`markdown\n${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', 'the retry at `src/http/client.ts:42` ignores the header.')}\`\`\`\n`,
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['codex', 'grok', 'antigravity'],
  },
  {
    name: 'basis-quotes-other-reviewer',
    reader: 'adversarial',
    ids: ['F-002'],
    text: (x) =>
      w(
        x,
        blk(
          x,
          'F-002',
          'SURVIVES',
          `The other reviewer wrote:\n\n> **Verdict**: REFUTED\n> the header is read upstream\n\nbut nothing upstream reads it: ${x.b[1]}`,
        ),
      ),
    reading: { reads: { 'F-002': 'SURVIVES' }, basisHas: { 'F-002': ['The other reviewer wrote', 'nothing upstream reads it'] } },
  },
  {
    name: 'basis-with-fenced-fake-heading',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', `${x.b[0]}\n\nThe report the finding quotes:\n\n\`\`\`\n### F-002\n**Verdict**: REFUTED\n\`\`\``)}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}`,
      ),
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['claude', 'codex', 'kimi'],
  },
  {
    name: 'extra-labels-between',
    reader: 'adversarial',
    ids: ['F-001', 'F-004'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', x.b[0], [x.f('Confidence', 'High')])}\n${x.h('F-004', 'Webhook signature')}\n${x.f('Verdict', 'UNVERIFIABLE')}\n${x.f('Basis', x.b[3])}\n${x.f('Explanation', 'Provide the deployed config to settle it.')}\n`,
      ),
    reading: { reads: { 'F-001': 'REFUTED', 'F-004': 'UNVERIFIABLE' }, basisHas: { 'F-004': ['nginx.conf', 'deployed config'] } },
    by: ['antigravity', 'claude'],
  },
  {
    name: 'rationale-label',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${x.h('F-001', 'race')}\n${x.f('Verdict', 'REFUTED')}\n${x.f('Rationale', x.b[0])}\n\n${x.h('F-002', 'retry')}\n${x.f('Verdict', 'SURVIVES')}\n${x.f('Reasoning', x.b[1])}\n`,
      ),
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['grok', 'kimi', 'codex'],
  },
  {
    name: 'heading-verdict-agrees',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `### F-001 — REFUTED\n${x.f('Verdict', 'REFUTED')}\n${x.f('Basis', x.b[0])}\n\n### F-002 — SURVIVES\n${x.f('Verdict', 'SURVIVES')}\n${x.f('Basis', x.b[1])}\n`,
      ),
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['grok', 'antigravity'],
  },
  {
    name: 'repeated-answer',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) => {
      const body = `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}`;
      return `${x.pre}${body}\n${body}${x.post}`;
    },
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['kimi', 'codex'],
  },
  {
    name: 'table-answer',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) =>
      w(
        x,
        `| Finding | Verdict | Basis |\n|---|---|---|\n| F-001 | REFUTED | \`src/queue.ts:88\` holds the lock |\n| F-002 | SURVIVES | \`src/http/client.ts:42\` ignores the header |\n| F-003 | SURVIVES-WITH-CAVEAT | card only, \`src/refunds/timeout.ts:88\` |\n`,
      ),
    reading: { reads: ADV3_READ },
    by: ['codex', 'antigravity', 'grok'],
  },
  {
    name: 'final-answer-section-agrees',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(x, `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n## Final answer\n\n- **F-001**: REFUTED\n- **F-002**: SURVIVES\n`),
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['kimi', 'grok', 'claude'],
  },
  {
    name: 'numbered-headings-and-rules',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) =>
      w(
        x,
        `### 1. F-001\n${x.f('Verdict', 'REFUTED')}\n${x.f('Basis', x.b[0])}\n\n---\n\n### 2. F-002\n${x.f('Verdict', 'SURVIVES')}\n${x.f('Basis', x.b[1])}\n\n---\n\n### 3. F-003\n${x.f('Verdict', 'SURVIVES-WITH-CAVEAT')}\n${x.f('Basis', x.b[2])}\n`,
      ),
    reading: { reads: ADV3_READ },
    by: ['antigravity', 'claude', 'kimi'],
  },
  {
    name: 'verdict-hard-break',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${x.h('F-001', 'race')}\n${x.f('Verdict', 'REFUTED')}  \n${x.f('Basis', x.b[0])}\n\n${x.h('F-002', 'retry')}\n${x.f('Verdict', 'SURVIVES')}\\\n${x.f('Basis', x.b[1])}\n`,
      ),
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['codex', 'claude'],
  },
  {
    name: 'verdict-fullwidth-period',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) => w(x, `${blk(x, 'F-001', 'REFUTED。', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES。', x.b[1])}`),
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['kimi'],
  },
  {
    name: 'basis-mentions-other-reviewers-revote',
    reader: 'adversarial',
    ids: ['F-002'],
    text: (x) =>
      w(
        x,
        blk(
          x,
          'F-002',
          'SURVIVES',
          `This is a re-vote. The reviewers split:\n\n- codex said REFUTED (it read \`src/http/middleware.ts:9\`)\n- claude said SURVIVES\n\nJudging it myself: ${x.b[1]}`,
        ),
      ),
    // Refused since issue #37: a verdict word other than the block's in the worker's own Basis bears on
    // the vote (`codex said REFUTED` reads the same as a change of mind); another reviewer's verdict is
    // quoted with `>` (the next scenario), which the reverify texts ask for.
    reading: must('the Basis names REFUTED outside a quote', /F-002.*REFUTED/),
    by: ['claude', 'grok', 'antigravity', 'kimi'],
  },
  {
    name: 'basis-quotes-other-reviewers-revote',
    reader: 'adversarial',
    ids: ['F-002'],
    text: (x) =>
      w(
        x,
        blk(
          x,
          'F-002',
          'SURVIVES',
          `This is a re-vote. The reviewers split:\n\n> codex: REFUTED (it read \`src/http/middleware.ts:9\`)\n> claude: SURVIVES\n\nJudging it myself: ${x.b[1]}`,
        ),
      ),
    reading: { reads: { 'F-002': 'SURVIVES' } },
    by: ['claude', 'grok', 'antigravity', 'kimi'],
  },
  {
    name: 'unknown-label-before-basis',
    reader: 'adversarial',
    ids: ['F-004'],
    text: (x) =>
      w(
        x,
        `${x.h('F-004', 'Webhook signature')}\n${x.f('Verdict', 'UNVERIFIABLE')}\n${x.f('Missing', 'the production `nginx.conf`')}\n${x.f('Basis', x.b[3])}\n`,
      ),
    reading: { reads: { 'F-004': 'UNVERIFIABLE' } },
    by: ['antigravity', 'claude', 'codex'],
  },
  {
    name: 'verdict-next-line',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, `${x.h('F-001', 'race')}\n**Verdict**:\nREFUTED\n\n**Basis**: ${x.b[0]}\n`),
    reading: { reads: { 'F-001': 'REFUTED' } },
    by: ['antigravity', 'grok'],
  },
  {
    name: 'emoji-heading-id-link',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `### ❌ [F-001](#f-001)\n${x.f('Verdict', 'REFUTED')}\n${x.f('Basis', x.b[0])}\n\n### ✅ [F-002](#f-002)\n${x.f('Verdict', 'SURVIVES')}\n${x.f('Basis', x.b[1])}\n`,
      ),
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['antigravity', 'grok'],
  },
  {
    name: 'final-verdict-label-agrees',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n**Final verdict**: REFUTED\n`),
    reading: { reads: { 'F-001': 'REFUTED' } },
    by: ['claude', 'kimi'],
  },
  // ---- Clear collaborative answers ----
  { name: 'collab-plain', reader: 'collaborative', ids: COL2, text: (x) => w(x, col2(x)), reading: { reads: COL2_READ } },
  {
    name: 'collab-agreed-caps',
    reader: 'collaborative',
    ids: COL2,
    text: (x) => w(x, col2(x, ['SUPPLEMENT', 'Agreed.'])),
    reading: { reads: COL2_READ },
    by: ['claude', 'grok', 'antigravity'],
  },
  {
    name: 'collab-summary-table-agrees',
    reader: 'collaborative',
    ids: COL2,
    text: (x) => w(x, `${col2(x)}\n### ${x.sum}\n\n| ID | Verdict |\n| --- | --- |\n| F-004 | supplement |\n| F-002 | agree |\n`),
    reading: { reads: COL2_READ },
    by: ['kimi', 'codex', 'antigravity'],
  },
  // ---- Ambiguous / contradicting reverify answers: all exit 2 ----
  {
    name: 'summary-table-contradicts',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) =>
      w(x, `${adv3(x)}\n## ${x.sum}\n\n| Finding | Verdict |\n|---|---|\n| F-001 | REFUTED |\n| F-002 | REFUTED |\n| F-003 | SURVIVES-WITH-CAVEAT |\n`),
    reading: must('the closing table says F-002 REFUTED, its block SURVIVES', /F-002/),
  },
  {
    name: 'summary-bullets-contradict',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) => w(x, `${adv3(x)}\n**${x.sum}:**\n- F-001 → SURVIVES\n- F-002 → SURVIVES\n- F-003 → SURVIVES-WITH-CAVEAT\n`),
    reading: must('the summary says F-001 SURVIVES, its block REFUTED', /F-001/),
    by: ['claude', 'grok', 'kimi', 'codex'],
  },
  {
    name: 'summary-one-line-two-ids-contradicts',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) => w(x, `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n## ${x.sum}\n\nF-001: SURVIVES, F-002: SURVIVES.\n`),
    reading: must('the summary line says F-001 SURVIVES, its block REFUTED', /F-001/),
    by: ['codex', 'grok', 'antigravity'],
  },
  {
    name: 'later-correction-paragraph',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n**Correction:** re-reading \`src/queue.ts:131\`, the second writer does not take the lock — F-001: SURVIVES.\n`,
      ),
    reading: must('a later correction says F-001 SURVIVES', /F-001/),
    by: ['claude', 'kimi', 'grok'],
  },
  {
    name: 'revised-verdict-label',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n**Revised verdict**: SURVIVES — the second writer skips the lock.\n\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}`,
      ),
    reading: must('a revised verdict for F-001 differs from its Verdict', /F-001/),
    by: ['claude', 'antigravity', 'grok', 'kimi', 'codex'],
  },
  {
    name: 'final-verdict-label-contradicts',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n**Final verdict**: SURVIVES\n`),
    reading: must('the final verdict differs from the block', /F-001/),
    by: ['antigravity', 'kimi', 'codex'],
  },
  {
    name: 'heading-verdict-contradicts',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, `### F-001 — SURVIVES\n${x.f('Verdict', 'REFUTED')}\n${x.f('Basis', x.b[0])}\n`),
    reading: must('heading SURVIVES, field REFUTED', /F-001/),
    by: ['grok', 'antigravity'],
  },
  {
    name: 'hedged-verdict',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) => w(x, `${blk(x, 'F-001', 'REFUTED (mostly)', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}`),
    reading: must('a hedged verdict', /F-001/),
  },
  {
    name: 'likely-prefix',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, blk(x, 'F-001', 'Likely REFUTED', x.b[0])),
    reading: must('a hedge before the word', /F-001/),
    by: ['grok', 'claude', 'kimi'],
  },
  {
    name: 'not-refuted',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, blk(x, 'F-001', 'NOT REFUTED', x.b[1])),
    reading: must('"NOT REFUTED" is no verdict word; never REFUTED', /F-001/),
    by: ['grok', 'codex', 'antigravity'],
  },
  {
    name: 'two-verdict-words',
    reader: 'adversarial',
    ids: ['F-002'],
    text: (x) => w(x, blk(x, 'F-002', 'SURVIVES / SURVIVES-WITH-CAVEAT', x.b[1])),
    reading: must('two verdict words', /F-002/),
    by: ['codex', 'kimi', 'claude'],
  },
  {
    name: 'question-mark',
    reader: 'adversarial',
    ids: ['F-003'],
    text: (x) => w(x, blk(x, 'F-003', 'SURVIVES-WITH-CAVEAT?', x.b[2])),
    reading: must('a question', /F-003/),
    by: ['kimi', 'grok'],
  },
  {
    name: 'unverifiable-leaning',
    reader: 'adversarial',
    ids: ['F-004'],
    text: (x) => w(x, blk(x, 'F-004', 'UNVERIFIABLE, leaning REFUTED', x.b[3])),
    reading: must('two verdict words', /F-004/),
    by: ['claude', 'antigravity'],
  },
  {
    name: 'struck-verdict',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, blk(x, 'F-001', '~~SURVIVES~~ REFUTED', x.b[0])),
    reading: must('two verdict words, one struck out', /F-001/),
    by: ['grok', 'claude'],
  },
  {
    name: 'two-ids-one-heading',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) => w(x, `### F-001 / F-002\n${x.f('Verdict', 'SURVIVES')}\n${x.f('Basis', x.b[1])}\n`),
    reading: must('two ids in one heading', /F-00[12]/),
    by: ['codex', 'antigravity', 'kimi'],
  },
  {
    name: 'repeat-with-changed-verdict',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n${blk(x, 'F-001', 'SURVIVES', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}`,
      ),
    reading: must('F-001 answered twice with different verdicts', /F-001/),
    by: ['kimi', 'grok', 'codex'],
  },
  {
    name: 'draft-then-final',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `## Draft\n\n${blk(x, 'F-001', 'SURVIVES', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n## Final\n\n${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}`,
      ),
    reading: must('a draft and a final verdict for F-001 differ', /F-001/),
    by: ['claude', 'antigravity'],
  },
  {
    name: 'wrong-mode-word',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, blk(x, 'F-001', 'DISAGREE', x.b[0])),
    reading: must('collaborative word in an adversarial run', /F-001/),
    by: ['codex', 'antigravity'],
  },
  {
    name: 'missing-finding',
    reader: 'adversarial',
    ids: ADV3,
    text: (x) => w(x, `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}`),
    reading: must('F-003 unanswered', /F-003/),
    by: ['grok', 'kimi'],
  },
  {
    name: 'basis-self-correction',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) =>
      w(
        x,
        blk(
          x,
          'F-001',
          'REFUTED',
          `${x.b[0]}\n\n**Update:** on a second look \`src/queue.ts:131\` releases the lock before writing, so F-001 actually SURVIVES.`,
        ),
      ),
    reading: must('an update inside the block reverses the verdict', /F-001/),
    by: ['claude', 'grok', 'kimi'],
  },
  {
    name: 'collab-partially-agree',
    reader: 'collaborative',
    ids: COL2,
    text: (x) => w(x, col2(x, ['supplement', 'partially agree'])),
    reading: must('a hedge', /F-002/),
    by: ['kimi', 'claude', 'codex'],
  },
  {
    name: 'collab-summary-contradicts',
    reader: 'collaborative',
    ids: COL2,
    text: (x) => w(x, `${col2(x)}\n## ${x.sum}\n\n| ID | Verdict |\n|---|---|\n| F-004 | agree |\n| F-002 | agree |\n`),
    reading: must('the table says F-004 agree, its block supplement', /F-004/),
    by: ['antigravity', 'grok'],
  },
  // ---- Clear plan answers ----
  { name: 'plan-plain', reader: 'plan', ids: PLAN3, text: (x) => w(x, plan3(x)), reading: { reads: PLAN3_READ } },
  {
    name: 'plan-kind-field',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(
        x,
        `${blk(x, 'P-Opt-1', 'AGREE', x.pb[0])}\n${blk(x, 'P-Step-2-3', 'DISAGREE', x.pb[1], [x.f('Breakage kind', 'b'), x.f('Fixability', 'in-place')])}\n${blk(x, 'P-Rb-1-1', 'SUPPLEMENT', x.pb[2])}`,
      ),
    reading: { reads: PLAN3_READ },
  },
  {
    name: 'plan-kind-variants',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'Disagree (kind: b)', 'In-place.')),
    reading: { reads: PLAN3_READ },
    by: ['claude', 'grok', 'codex'],
  },
  {
    name: 'plan-uppercase-kind',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'DISAGREE (B)', 'IN-PLACE')),
    reading: { reads: PLAN3_READ },
    by: ['antigravity', 'codex'],
  },
  {
    name: 'plan-kind-and-fix-in-brackets',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'DISAGREE (b, in-place)', null)),
    reading: { reads: PLAN3_READ },
    by: ['codex', 'kimi', 'grok'],
  },
  {
    name: 'plan-fullwidth-brackets',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'DISAGREE（b）', 'in-place')),
    reading: { reads: PLAN3_READ },
    by: ['kimi'],
  },
  {
    name: 'plan-fixability-prose',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'DISAGREE (b)', 'easy fix — the path can be corrected in-place')),
    reading: { reads: PLAN3_READ },
    by: ['claude', 'grok', 'kimi'],
  },
  {
    name: 'plan-summary-table-agrees',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(
        x,
        `${plan3(x)}\n## ${x.sum}\n\n| Item | Verdict | Fixability |\n|---|---|---|\n| P-Opt-1 | AGREE | — |\n| P-Step-2-3 | DISAGREE (b) | in-place |\n| P-Rb-1-1 | SUPPLEMENT | — |\n`,
      ),
    reading: { reads: PLAN3_READ },
  },
  {
    name: 'plan-summary-bullet-without-kind',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, `${plan3(x)}\n### ${x.sum}\n\n- P-Opt-1: AGREE\n- P-Step-2-3: DISAGREE\n- P-Rb-1-1: SUPPLEMENT\n`),
    reading: { reads: PLAN3_READ },
    by: ['claude', 'codex', 'grok'],
  },
  {
    name: 'plan-overall-agrees',
    reader: 'plan',
    ids: ['P-Opt-1', 'P-Rb-1-1'],
    text: (x) =>
      w(x, `${blk(x, 'P-Opt-1', 'AGREE', x.pb[0])}\n${blk(x, 'P-Rb-1-1', 'AGREE', x.pb[2])}\n## ${x.sum}\n\nVerdict: AGREE — the plan is ready to approve.\n`),
    reading: { reads: { 'P-Opt-1': 'AGREE', 'P-Rb-1-1': 'AGREE' } },
    by: ['antigravity', 'claude', 'kimi'],
  },
  {
    name: 'plan-table-answer',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(
        x,
        `| Item | Verdict | Kind | Fixability | Basis |\n|---|---|---|---|---|\n| P-Opt-1 | AGREE | | | matches \`src/payments/refunds/gateway-client.ts:31\` |\n| P-Step-2-3 | DISAGREE | b | in-place | \`src/payments/…/gateway-client.ts\` does not resolve |\n| P-Rb-1-1 | SUPPLEMENT | | | also drop the key column (\`migrations/0031_refund_key.sql:4\`) |\n`,
      ),
    reading: { reads: PLAN3_READ },
    by: ['codex', 'antigravity', 'grok'],
  },
  {
    name: 'plan-na-fields-on-agree',
    reader: 'plan',
    ids: ['P-Opt-1', 'P-Step-1-1'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'P-Opt-1', 'AGREE', x.pb[0], [x.f('Breakage kind', 'n/a'), x.f('Fixability', 'n/a')])}\n${blk(x, 'P-Step-1-1', 'AGREE ✅', 'the RED step says FAIL, as it must.', [x.f('Fixability', 'N/A')])}`,
      ),
    reading: { reads: { 'P-Opt-1': 'AGREE', 'P-Step-1-1': 'AGREE' } },
    by: ['antigravity', 'kimi', 'claude'],
  },
  {
    name: 'plan-think-and-crlf',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => `<think>\nP-Step-2-3 — maybe DISAGREE (d)? No: the path is the problem, so (b).\n</think>\n${w(x, plan3(x))}`.replace(/\n/g, '\r\n'),
    reading: { reads: PLAN3_READ },
    by: ['kimi', 'grok', 'codex'],
  },
  {
    name: 'plan-basis-with-list-and-fence',
    reader: 'plan',
    ids: ['P-Step-2-3'],
    text: (x) =>
      w(
        x,
        blk(
          x,
          'P-Step-2-3',
          'DISAGREE (b)',
          `${x.pb[1]}\n\n1. open the files cell\n2. replace the path\n\n\`\`\`diff\n- src/payments/…/gateway-client.ts\n+ src/payments/refunds/gateway-client.ts\n\`\`\`\n\n> The step is otherwise AGREE-worthy.`,
          [x.f('Fixability', 'in-place')],
        ),
      ),
    reading: { reads: { 'P-Step-2-3': 'DISAGREE (b, in-place)' }, basisHas: { 'P-Step-2-3': ['replace the path', '```diff'] } },
    by: ['claude', 'antigravity', 'kimi', 'codex'],
  },
  {
    name: 'plan-bold-paragraph-headings',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(
        x,
        `**P-Opt-1 — Deadline option**\n\n${x.f('Verdict', 'AGREE')}\n${x.f('Basis', x.pb[0])}\n\n**P-Step-2-3 — Outbox files**\n\n${x.f('Verdict', 'DISAGREE (b)')}\n${x.f('Fixability', 'in-place')}\n${x.f('Basis', x.pb[1])}\n\n**P-Rb-1-1 — Rollback**\n\n${x.f('Verdict', 'SUPPLEMENT')}\n${x.f('Basis', x.pb[2])}\n`,
      ),
    reading: { reads: PLAN3_READ },
    by: ['antigravity', 'grok'],
  },
  // ---- Ambiguous / contradicting plan answers: all exit 2 ----
  {
    name: 'plan-overall-contradicts',
    reader: 'plan',
    ids: ['P-Opt-1', 'P-Rb-1-1'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'P-Opt-1', 'AGREE', x.pb[0])}\n${blk(x, 'P-Rb-1-1', 'AGREE', x.pb[2])}\n## ${x.sum}\n\n${x.f('Verdict', 'DISAGREE (c)')}\n${x.f('Fixability', 'replan')}\n`,
      ),
    reading: must('an overall DISAGREE no block states', /DISAGREE|overall|summary/i),
  },
  {
    name: 'plan-summary-kind-contradicts',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(x, `${plan3(x)}\n## ${x.sum}\n\n| Item | Verdict |\n|---|---|\n| P-Opt-1 | AGREE |\n| P-Step-2-3 | DISAGREE (c) |\n| P-Rb-1-1 | SUPPLEMENT |\n`),
    reading: must('the table says kind c, the block b', /P-Step-2-3/),
    by: ['claude', 'antigravity', 'codex', 'kimi'],
  },
  {
    name: 'plan-summary-fixability-contradicts',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, `${plan3(x)}\n## ${x.sum}\n\n- P-Opt-1: AGREE\n- P-Step-2-3: DISAGREE (b) — replan\n- P-Rb-1-1: SUPPLEMENT\n`),
    reading: must('the summary says replan, the block in-place', /P-Step-2-3/),
    by: ['claude', 'grok', 'kimi'],
  },
  {
    name: 'plan-summary-table-fixability-contradicts',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(
        x,
        `${plan3(x)}\n## ${x.sum}\n\n| Item | Verdict | Fixability |\n|---|---|---|\n| P-Opt-1 | AGREE | — |\n| P-Step-2-3 | DISAGREE (b) | replan |\n| P-Rb-1-1 | SUPPLEMENT | — |\n`,
      ),
    reading: must('the table says replan, the block in-place', /P-Step-2-3/),
    by: ['antigravity', 'codex', 'grok'],
  },
  {
    name: 'plan-summary-verdict-contradicts',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, `${plan3(x)}\n**${x.sum}**: P-Opt-1 AGREE, P-Step-2-3 AGREE, P-Rb-1-1 SUPPLEMENT.\n`),
    reading: must('the summary says P-Step-2-3 AGREE, the block DISAGREE', /P-Step-2-3/),
    by: ['codex', 'grok', 'kimi', 'antigravity'],
  },
  {
    name: 'plan-kind-range',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'DISAGREE (b/d)')),
    reading: must('a kind range', /P-Step-2-3/),
  },
  {
    name: 'plan-two-fixabilities',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'DISAGREE (b)', 'in-place, or replan if the team prefers a new step')),
    reading: must('two fixabilities', /P-Step-2-3/),
    by: ['claude', 'antigravity', 'kimi', 'grok'],
  },
  {
    name: 'plan-kind-field-contradicts',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(
        x,
        `${blk(x, 'P-Opt-1', 'AGREE', x.pb[0])}\n${blk(x, 'P-Step-2-3', 'DISAGREE (b)', x.pb[1], [x.f('Breakage kind', 'd'), x.f('Fixability', 'in-place')])}\n${blk(x, 'P-Rb-1-1', 'SUPPLEMENT', x.pb[2])}`,
      ),
    reading: must('kind b in the verdict, d in the field', /P-Step-2-3/),
    by: ['codex', 'antigravity', 'grok'],
  },
  {
    name: 'plan-missing-fixability',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'DISAGREE (b)', null)),
    reading: must('a DISAGREE with no fixability', /P-Step-2-3/),
    by: ['codex', 'kimi', 'claude'],
  },
  {
    name: 'plan-hedged-fixability',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'DISAGREE (b)', 'in-place, probably')),
    reading: must('a hedged fixability', /P-Step-2-3/),
    by: ['grok', 'kimi'],
  },
  {
    name: 'plan-agree-but',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'AGREE, but DISAGREE (d) on the test file', 'in-place')),
    reading: must('two verdict words', /P-Step-2-3/),
    by: ['claude', 'antigravity', 'grok'],
  },
  {
    name: 'plan-later-correction',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, `${plan3(x)}\n**Correction:** P-Opt-1: DISAGREE (a) — the option contradicts the brief's 4 s budget. Fixability: replan.\n`),
    reading: must('a later correction for P-Opt-1', /P-Opt-1/),
    by: ['claude', 'kimi', 'codex'],
  },
  {
    name: 'plan-two-ids-heading',
    reader: 'plan',
    ids: ['P-Opt-1', 'P-Step-2-3'],
    text: (x) => w(x, `### P-Opt-1 & P-Step-2-3\n${x.f('Verdict', 'AGREE')}\n${x.f('Basis', x.pb[0])}\n`),
    reading: must('two ids in one heading', /P-Opt-1|P-Step-2-3/),
    by: ['antigravity', 'grok', 'kimi'],
  },
  {
    name: 'plan-template-copied',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, plan3(x, 'DISAGREE (<kind>)')),
    reading: must('the template copied', /P-Step-2-3/),
    by: ['codex', 'grok'],
  },
  {
    name: 'plan-replan-on-agree',
    reader: 'plan',
    ids: ['P-Opt-1'],
    text: (x) => w(x, blk(x, 'P-Opt-1', 'AGREE', x.pb[0], [x.f('Fixability', 'replan')])),
    reading: must('replan on an AGREE would block the plan', /P-Opt-1/),
    by: ['antigravity', 'claude'],
  },
  // ---- Second wave, written after the first fixes: summaries that dress the id up ----
  {
    name: 'summary-bullet-with-title-contradicts',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n## ${x.sum}\n\n- F-001 (queue race): SURVIVES\n- F-002 (retry): SURVIVES\n`,
      ),
    reading: must('the summary says F-001 SURVIVES, its block REFUTED', /F-001/),
  },
  {
    name: 'summary-bold-id-title-contradicts',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n## ${x.sum}\n\n- **F-001 — Queue race**: SURVIVES\n- **F-002 — Retry**: SURVIVES\n`,
      ),
    reading: must('the summary says F-001 SURVIVES, its block REFUTED', /F-001/),
    by: ['claude', 'antigravity', 'grok'],
  },
  {
    name: 'summary-bullet-with-title-agrees',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n## ${x.sum}\n\n- F-001 (queue race): REFUTED\n- **F-002 — Retry**: SURVIVES ✅\n`,
      ),
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['claude', 'kimi', 'grok'],
  },
  {
    name: 'summary-table-id-with-title-contradicts',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n## ${x.sum}\n\n| Finding | Verdict |\n|---|---|\n| F-001 (queue race) | SURVIVES |\n| F-002 (retry) | SURVIVES |\n`,
      ),
    reading: must('the table says F-001 SURVIVES, its block REFUTED', /F-001/),
    by: ['claude', 'antigravity', 'codex'],
  },
  {
    name: 'summary-table-link-id-contradicts',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}\n## ${x.sum}\n\n| Finding | Verdict |\n|---|---|\n| [F-001](#f-001) | ✅ SURVIVES |\n| [F-002](#f-002) | ✅ SURVIVES |\n`,
      ),
    reading: must('the table says F-001 SURVIVES, its block REFUTED', /F-001/),
    by: ['antigravity', 'grok'],
  },
  {
    name: 'heading-title-verdict-in-brackets-contradicts',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, `### F-001 (SURVIVES)\n${x.f('Verdict', 'REFUTED')}\n${x.f('Basis', x.b[0])}\n`),
    reading: must('heading SURVIVES, field REFUTED', /F-001/),
    by: ['grok', 'kimi', 'codex'],
  },
  {
    name: 'heading-title-then-verdict-contradicts',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, `### F-001 — Queue race — SURVIVES\n${x.f('Verdict', 'REFUTED')}\n${x.f('Basis', x.b[0])}\n`),
    reading: must('heading SURVIVES, field REFUTED', /F-001/),
    by: ['antigravity', 'claude'],
  },
  {
    name: 'preamble-states-other-verdict',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      `Short version: F-001 is SURVIVES and F-002 is SURVIVES; details below.\n\n${blk(x, 'F-001', 'REFUTED', x.b[0])}\n${blk(x, 'F-002', 'SURVIVES', x.b[1])}`,
    reading: must('the opening says F-001 SURVIVES, its block REFUTED', /F-001/),
    by: ['codex', 'grok', 'claude'],
  },
  {
    name: 'quote-in-block-other-verdict',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, blk(x, 'F-001', 'REFUTED', `${x.b[0]}\n\n> **Verdict**: SURVIVES\n> (the first reviewer's answer, quoted)`)),
    reading: { reads: { 'F-001': 'REFUTED' } },
    by: ['claude', 'kimi'],
  },
  {
    name: 'plan-summary-bullet-with-title-contradicts',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(x, `${plan3(x)}\n## ${x.sum}\n\n- P-Opt-1 (deadline option): AGREE\n- P-Step-2-3 (outbox files): DISAGREE (c)\n- P-Rb-1-1 (rollback): SUPPLEMENT\n`),
    reading: must('the summary says kind c, the block b', /P-Step-2-3/),
    by: ['claude', 'kimi', 'antigravity'],
  },
  {
    name: 'plan-summary-table-id-with-title-contradicts',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(
        x,
        `${plan3(x)}\n## ${x.sum}\n\n| Item | Verdict |\n|---|---|\n| P-Opt-1 — deadline | AGREE |\n| P-Step-2-3 — outbox | AGREE |\n| P-Rb-1-1 — rollback | SUPPLEMENT |\n`,
      ),
    reading: must('the table says P-Step-2-3 AGREE, the block DISAGREE', /P-Step-2-3/),
    by: ['codex', 'grok', 'antigravity'],
  },
  {
    name: 'plan-heading-verdict-agrees',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(
        x,
        `### P-Opt-1 — AGREE\n${x.f('Verdict', 'AGREE')}\n${x.f('Basis', x.pb[0])}\n\n### P-Step-2-3 — DISAGREE (b)\n${x.f('Verdict', 'DISAGREE (b)')}\n${x.f('Fixability', 'in-place')}\n${x.f('Basis', x.pb[1])}\n\n### P-Rb-1-1 — SUPPLEMENT\n${x.f('Verdict', 'SUPPLEMENT')}\n${x.f('Basis', x.pb[2])}\n`,
      ),
    reading: { reads: PLAN3_READ },
    by: ['grok', 'antigravity', 'codex'],
  },
  {
    name: 'plan-heading-kind-contradicts',
    reader: 'plan',
    ids: ['P-Step-2-3'],
    text: (x) => w(x, `### P-Step-2-3 — DISAGREE (c)\n${x.f('Verdict', 'DISAGREE (b)')}\n${x.f('Fixability', 'in-place')}\n${x.f('Basis', x.pb[1])}\n`),
    reading: must('heading kind c, field kind b', /P-Step-2-3/),
    by: ['grok', 'kimi'],
  },
  // ---- Third wave ----
  {
    name: 'verdict-label-with-note-later',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n**Verdict (after re-check)**: SURVIVES — \`src/queue.ts:131\` skips the lock.\n`),
    reading: must('a second verdict for F-001 after a re-check', /F-001/),
    by: ['claude', 'antigravity', 'kimi'],
  },
  {
    name: 'rule-right-after-basis',
    reader: 'adversarial',
    ids: ['F-001', 'F-002'],
    text: (x) =>
      w(
        x,
        `${x.h('F-001', 'race')}\n${x.f('Verdict', 'REFUTED')}\n${x.f('Basis', x.b[0])}\n\n---\n${x.h('F-002', 'retry')}\n${x.f('Verdict', 'SURVIVES')}\n${x.f('Basis', 'the 503 branch at `src/http/client.ts:42` never reads the header.')}\n\n---\n`,
      ),
    reading: { reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' } },
    by: ['antigravity', 'grok', 'codex'],
  },
  {
    name: 'final-conclusion-chinese-agrees',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n**最终结论**：REFUTED\n`),
    reading: { reads: { 'F-001': 'REFUTED' } },
    by: ['kimi'],
  },
  {
    name: 'final-conclusion-chinese-contradicts',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, `${blk(x, 'F-001', 'REFUTED', x.b[0])}\n**最终结论**：SURVIVES\n`),
    reading: must('the final conclusion differs from the block', /F-001/),
    by: ['kimi'],
  },
  {
    name: 'correction-negates',
    reader: 'adversarial',
    ids: ['F-001'],
    text: (x) => w(x, blk(x, 'F-001', 'REFUTED', `${x.b[0]}\n\n**Edit:** F-001 is not REFUTED after all — the second writer skips the lock.`)),
    reading: must('a correction takes the verdict back', /F-001/),
    by: ['grok', 'claude'],
  },
  {
    name: 'collab-summary-title-contradicts',
    reader: 'collaborative',
    ids: COL2,
    text: (x) => w(x, `${col2(x)}\n## ${x.sum}\n\n- F-004 (TTL cache): agree\n- F-002 (retry): agree\n`),
    reading: must('the summary says F-004 agree, its block supplement', /F-004/),
    by: ['claude', 'codex', 'kimi'],
  },
  {
    name: 'plan-correction-no-id',
    reader: 'plan',
    ids: PLAN3,
    text: (x) =>
      w(
        x,
        `${blk(x, 'P-Opt-1', 'AGREE', `${x.pb[0]}\n\n**Update:** on reflection this is DISAGREE (a): the brief caps the deadline at 2 s.`)}\n${blk(x, 'P-Step-2-3', 'DISAGREE (b)', x.pb[1], [x.f('Fixability', 'in-place')])}\n${blk(x, 'P-Rb-1-1', 'SUPPLEMENT', x.pb[2])}`,
      ),
    reading: must('an update inside P-Opt-1 says DISAGREE', /P-Opt-1/),
    by: ['claude', 'grok', 'kimi'],
  },
  {
    name: 'plan-revised-fixability-restated',
    reader: 'plan',
    ids: PLAN3,
    text: (x) => w(x, `${plan3(x)}\n**Final verdict**: every item as above; P-Step-2-3 DISAGREE (b), in-place.\n`),
    reading: { reads: PLAN3_READ },
    by: ['antigravity', 'codex'],
  },
];

/** Every held-out-style answer, one per (scenario, provider), with its intended reading. */
export const HABITS_AND_TRAPS: readonly CorpusAnswer[] = SCENARIOS.flatMap((s) =>
  (s.by ?? ALL).map((p) => {
    const x = H[p];
    const reading = typeof s.reading === 'function' ? s.reading(x) : s.reading;
    return { form: s.name, reader: s.reader, ids: s.ids, text: s.text(x), ...reading, provider: p, name: `${p}/${s.name}` };
  }),
);

/** The held-out answers one reader reads. */
export function habitsAndTrapsFor(reader: CorpusReader | readonly CorpusReader[]): CorpusAnswer[] {
  const readers: readonly CorpusReader[] = typeof reader === 'string' ? [reader] : reader;
  return HABITS_AND_TRAPS.filter((a) => readers.includes(a.reader));
}
