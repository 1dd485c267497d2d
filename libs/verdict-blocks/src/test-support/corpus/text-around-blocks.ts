// Answers whose text around or inside the per-id blocks bears on the vote, and
// clear answers in layouts the prompts do not ask for (issue #37 items 2 and 3).
// Written from the issue's failure classes — a closing line over every id, a
// change of mind at the end of a Basis, a postscript, a quoted correction, a
// decoration saying the opposite, a Basis naming another kind or fixability, an
// answer cut off mid-way — and from the seeds' answer forms, before the readers
// were changed and without reading them. Half must be refused, half read; the
// first-run figures against the readers of that time are in docs/contracts.md
// ("Which answers give a vote").
import type { CorpusAnswer, CorpusReader } from './index.js';
import type { CorpusProvider } from './voices.js';

/** How one provider's model writes: its block layout and its words. */
interface Voice {
  pre: string;
  post: string;
  /** A block: heading line, verdict line, extra lines, Basis line(s). */
  block: (id: string, verdict: string, basis: string, extra?: readonly string[]) => string;
  /** Bases: F-001 refuted, F-002 holds, F-003 holds with a limit, F-004 supplement, F-007 agree. */
  b: Readonly<Record<'F-001' | 'F-002' | 'F-003' | 'F-004' | 'F-007', string>>;
  /** Plan Bases: option agreed, broken path (b), rollback supplement. */
  p: readonly [string, string, string];
  /** A closing line over every id that says they all hold. */
  overallHold: string;
  /** A postscript taking F-002's vote back (it is refuted after all). */
  postscript: string;
  /** A change of mind appended to F-001's Basis: it holds after all. */
  mindChange: string;
  /** A retraction with no verdict word, about F-003. */
  withdraw: string;
}

const VOICES: Record<CorpusProvider, Voice> = {
  claude: {
    pre: 'I read the cited code for each finding before settling on a verdict.\n\n',
    post: '\nHappy to expand on any of these if useful.\n',
    block: (id, v, b, extra = []) => [`### ${id}`, `**Verdict**: ${v}`, ...extra, `**Basis**: ${b}`, ''].join('\n'),
    b: {
      'F-001':
        '`src/worker/pool.ts:57` checks `draining` under `poolMutex`, and `src/worker/pool.ts:102` sets it under the same mutex, so a job cannot slip in after shutdown starts.',
      'F-002': '`src/cache/session.ts:23` stores the token with no TTL, and nothing under `src/cache/` evicts it; I found no path that expires it.',
      'F-003': 'The REST handler at `src/api/upload.ts:40` has no size limit, but the gRPC path (`src/grpc/upload.ts:18`) already enforces one.',
      'F-004': 'Confirmed at `src/auth/jwt.ts:31`; the same missing `aud` check is in `src/auth/refresh.ts:12`, which the finding does not name.',
      'F-007': '`db/migrations/0042_users.sql:8` drops the unique index and no later migration re-creates it.',
    },
    p: [
      'The option fits `src/billing/ledger.ts:64`, where the rounding happens.',
      'The files cell says `src/billing/…/ledger.ts`, which does not resolve; the module is `src/billing/core/ledger.ts:1`.',
      'The rollback also needs to drop `ledger_rounding_mode`, added in `db/migrations/0050_rounding.sql:3`.',
    ],
    overallHold: 'Overall, all three findings hold up under scrutiny.',
    postscript: 'P.S. Looking again at F-002, the session store is wrapped by `src/cache/expiring.ts:9`, so F-002 should be REFUTED.',
    mindChange: 'Having re-read `src/worker/pool.ts:110`, though, the mutex is released before the check, so on reflection the finding stands.',
    withdraw: 'I withdraw my verdict on F-003 — I looked at the wrong handler.',
  },
  codex: {
    pre: '',
    post: '',
    block: (id, v, b, extra = []) => [`### ${id}`, `Verdict: ${v}`, ...extra, `Basis: ${b}`, ''].join('\n'),
    b: {
      'F-001': '`src/worker/pool.ts:57` reads `draining` under `poolMutex`; writer `src/worker/pool.ts:102` same mutex. No window.',
      'F-002': '`src/cache/session.ts:23` sets token w/o TTL; no eviction under `src/cache/`.',
      'F-003': 'REST only: `src/api/upload.ts:40` unbounded; gRPC `src/grpc/upload.ts:18` bounded.',
      'F-004': 'confirmed `src/auth/jwt.ts:31`; also `src/auth/refresh.ts:12` skips `aud`.',
      'F-007': '`db/migrations/0042_users.sql:8` drops index; not re-created.',
    },
    p: [
      'fits `src/billing/ledger.ts:64`.',
      '`src/billing/…/ledger.ts` unresolvable; real path `src/billing/core/ledger.ts:1`.',
      'also drop `ledger_rounding_mode` (`db/migrations/0050_rounding.sql:3`).',
    ],
    overallHold: '요약: 세 건 모두 유효합니다.',
    postscript: 'Note: F-002 is wrong — `src/cache/expiring.ts:9` wraps the store. Treat as REFUTED.',
    mindChange: 'Edit: `src/worker/pool.ts:110` drops the mutex before the check. Finding holds.',
    withdraw: 'Retracting F-003; wrong handler read.',
  },
  antigravity: {
    pre: '# Verification Results\n\nI examined the repository for each item. Findings below.\n\n---\n\n',
    post: '\n---\n\n*End of report. Every item in the batch was examined.*\n',
    block: (id, v, b, extra = []) => [`### 🔎 ${id}`, `**Verdict:** ${v}`, ...extra, `**Basis:** **Analysis:** ${b}`, ''].join('\n'),
    b: {
      'F-001':
        'The flag `draining` is checked at `src/worker/pool.ts:57` while `poolMutex` is held. The shutdown path at `src/worker/pool.ts:102` takes the same mutex. The described interleaving is therefore impossible.',
      'F-002': 'The session token is written at `src/cache/session.ts:23` without a TTL. No eviction logic exists in `src/cache/`.',
      'F-003': 'The REST upload handler (`src/api/upload.ts:40`) lacks a size limit. However, the gRPC handler (`src/grpc/upload.ts:18`) enforces it.',
      'F-004': 'Confirmed at `src/auth/jwt.ts:31`. Additionally, `src/auth/refresh.ts:12` also omits the `aud` validation.',
      'F-007': 'The unique index is dropped at `db/migrations/0042_users.sql:8` and is not re-created.',
    },
    p: [
      'The option is consistent with `src/billing/ledger.ts:64`.',
      'The path `src/billing/…/ledger.ts` is abbreviated and does not resolve. The correct path is `src/billing/core/ledger.ts:1`.',
      'The rollback should also remove `ledger_rounding_mode` (`db/migrations/0050_rounding.sql:3`).',
    ],
    overallHold: '**Conclusion:** ✅ All findings in this batch are confirmed.',
    postscript: '> **Note:** Upon further review, F-002 is not an issue: `src/cache/expiring.ts:9` wraps the store.',
    mindChange: '**Update:** Further analysis of `src/worker/pool.ts:110` shows the mutex is released first. The finding is valid.',
    withdraw: '**訂正:** F-003 の判定は撤回します。別のハンドラを読んでいました。',
  },
  grok: {
    pre: "Alright, went through the code. Here's the rundown.\n\n",
    post: '\nThat wraps it up. 🤘\n',
    block: (id, v, b, extra = []) => [`## ${id}`, `**Verdict:** ${v}`, ...extra, `**Basis:** ${b}`, ''].join('\n'),
    b: {
      'F-001':
        'Nah. `src/worker/pool.ts:57` checks `draining` under `poolMutex`, and `src/worker/pool.ts:102` takes the same mutex. No gap for a job to sneak through.',
      'F-002': 'Yep. `src/cache/session.ts:23` stashes the token with no TTL and nothing in `src/cache/` ever evicts it.',
      'F-003': 'Real for REST (`src/api/upload.ts:40`), but gRPC (`src/grpc/upload.ts:18`) already caps the size.',
      'F-004': 'Checks out at `src/auth/jwt.ts:31` — and `src/auth/refresh.ts:12` skips `aud` too.',
      'F-007': '`db/migrations/0042_users.sql:8` nukes the unique index. Nothing brings it back.',
    },
    p: [
      'Solid — `src/billing/ledger.ts:64` is where the rounding lives.',
      "That `src/billing/…/ledger.ts` path is bogus; it's `src/billing/core/ledger.ts:1`.",
      "Don't forget `ledger_rounding_mode` (`db/migrations/0050_rounding.sql:3`).",
    ],
    overallHold: 'Bottom line: none of these are bogus — they all stick.',
    postscript: "Oh, and scratch what I said on F-002 — `src/cache/expiring.ts:9` wraps the store, so it's busted.",
    mindChange: 'Wait, no — `src/worker/pool.ts:110` drops the mutex first. It survives after all.',
    withdraw: 'Ignore my F-003 take, I was looking at the wrong handler.',
  },
  kimi: {
    pre: '好的，我逐条查看了相关代码。\n\n',
    post: '\n以上。\n',
    block: (id, v, b, extra = []) => [`### ${id}`, `**结论**：${v}`, ...extra, `**依据**：${b}`, ''].join('\n'),
    b: {
      'F-001': '`src/worker/pool.ts:57` 在持有 `poolMutex` 时检查 `draining`，`src/worker/pool.ts:102` 也持有同一把锁，因此任务无法在关闭后插入。',
      'F-002': '`src/cache/session.ts:23` 写入令牌时没有设置 TTL，`src/cache/` 下也没有任何淘汰逻辑。',
      'F-003': 'REST 处理器 `src/api/upload.ts:40` 没有大小限制，但 gRPC 路径 `src/grpc/upload.ts:18` 已经限制。',
      'F-004': '已在 `src/auth/jwt.ts:31` 确认；`src/auth/refresh.ts:12` 同样缺少 `aud` 校验。',
      'F-007': '`db/migrations/0042_users.sql:8` 删除了唯一索引，之后没有重建。',
    },
    p: [
      '与 `src/billing/ledger.ts:64` 一致。',
      '文件列中的 `src/billing/…/ledger.ts` 无法解析，实际路径为 `src/billing/core/ledger.ts:1`。',
      '回滚还需删除 `db/migrations/0050_rounding.sql:3` 添加的 `ledger_rounding_mode`。',
    ],
    overallHold: '总体来看，以上发现均成立。',
    postscript: '补充更正：F-002 其实不成立，`src/cache/expiring.ts:9` 包装了该存储。',
    mindChange: '不过再看 `src/worker/pool.ts:110`，锁在检查前已释放，所以该发现其实成立。',
    withdraw: '撤回我对 F-003 的判断，我看错了处理器。',
  },
};

type Reading = Pick<CorpusAnswer, 'reads' | 'refused' | 'basisHas'>;
const must = (because: string, message: RegExp): Reading => ({ refused: { because, message } });

const ADV = ['F-001', 'F-002', 'F-003'] as const;
const ADV_READ = { 'F-001': 'REFUTED', 'F-002': 'SURVIVES', 'F-003': 'SURVIVES-WITH-CAVEAT' };
const COL = ['F-004', 'F-007'] as const;
const COL_READ = { 'F-004': 'SUPPLEMENT', 'F-007': 'AGREE' };
const PLAN = ['P-Opt-1', 'P-Step-2-3', 'P-Rb-1-1'] as const;
const PLAN_READ = { 'P-Opt-1': 'AGREE', 'P-Step-2-3': 'DISAGREE (b, in-place)', 'P-Rb-1-1': 'SUPPLEMENT' };
const w = (v: Voice, body: string) => `${v.pre}${body}${v.post}`;

function adv(v: Voice, override: Partial<Record<'F-001' | 'F-002' | 'F-003', [string, string]>> = {}): string {
  const [v1, b1] = override['F-001'] ?? ['REFUTED', v.b['F-001']];
  const [v2, b2] = override['F-002'] ?? ['SURVIVES', v.b['F-002']];
  const [v3, b3] = override['F-003'] ?? ['SURVIVES-WITH-CAVEAT', v.b['F-003']];
  return `${v.block('F-001', v1, b1)}\n${v.block('F-002', v2, b2)}\n${v.block('F-003', v3, b3)}`;
}
function col(v: Voice): string {
  return `${v.block('F-004', 'supplement', v.b['F-004'])}\n${v.block('F-007', 'agree', v.b['F-007'])}`;
}
function plan(v: Voice, basis2 = v.p[1], fix = 'in-place'): string {
  return `${v.block('P-Opt-1', 'AGREE', v.p[0])}\n${v.block('P-Step-2-3', 'DISAGREE (b)', basis2, [v.block === VOICES.codex.block ? `Fixability: ${fix}` : `**Fixability**: ${fix}`])}\n${v.block('P-Rb-1-1', 'SUPPLEMENT', v.p[2])}`;
}

interface Scenario {
  name: string;
  reader: CorpusReader;
  ids: readonly string[];
  text: (v: Voice, p: CorpusProvider) => string;
  reading: Reading;
}

/** Labels in the languages workers answer in, per provider, for the relabelled scenario. */
const LABELS: Record<CorpusProvider, [string, string]> = {
  claude: ['Verdict', 'Basis'],
  codex: ['판정', '근거'],
  antigravity: ['判定', '根拠'],
  grok: ['Verdict', 'Reason'],
  kimi: ['判定', '依据'],
};

const SCENARIOS: Scenario[] = [
  // ---- Clear: read as written ----
  { name: 'plain-with-voice', reader: 'adversarial', ids: ADV, text: (v) => w(v, adv(v)), reading: { reads: ADV_READ } },
  { name: 'collaborative-plain', reader: 'collaborative', ids: COL, text: (v) => w(v, col(v)), reading: { reads: COL_READ } },
  { name: 'plan-plain', reader: 'plan', ids: PLAN, text: (v) => w(v, plan(v)), reading: { reads: PLAN_READ } },
  {
    name: 'h4-equals-labels',
    reader: 'adversarial',
    ids: ADV,
    text: (v) => w(v, ADV.map((id) => `#### ${id}\nVerdict = ${ADV_READ[id]}\nBasis = ${v.b[id]}\n`).join('\n')),
    reading: { reads: ADV_READ },
  },
  {
    name: 'numbered-items-em-dash',
    reader: 'adversarial',
    ids: ADV,
    text: (v) => w(v, ADV.map((id, n) => `${n + 1}. **${id}** — ${ADV_READ[id]}\n   Basis — ${v.b[id]}\n`).join('\n')),
    reading: { reads: ADV_READ },
  },
  {
    name: 'bold-line-marker',
    reader: 'collaborative',
    ids: COL,
    text: (v) => w(v, `**F-004**\nVerdict: SUPPLEMENT\nBasis: ${v.b['F-004']}\n\n**F-007**\nVerdict: AGREE\nBasis: ${v.b['F-007']}\n`),
    reading: { reads: COL_READ },
  },
  {
    name: 'table-rows',
    reader: 'plan',
    ids: PLAN,
    text: (v) =>
      w(
        v,
        `| Item | Verdict | Fixability | Basis |\n|---|---|---|---|\n| P-Opt-1 | AGREE | | ${v.p[0]} |\n| P-Step-2-3 | DISAGREE (b) | in-place | ${v.p[1]} |\n| P-Rb-1-1 | SUPPLEMENT | | ${v.p[2]} |\n`,
      ),
    reading: { reads: PLAN_READ },
  },
  {
    name: 'labels-in-worker-language',
    reader: 'adversarial',
    ids: ADV,
    text: (v, p) => {
      const [lv, lb] = LABELS[p];
      return w(v, ADV.map((id) => `### ${id}\n**${lv}**: ${ADV_READ[id]}\n**${lb}**: ${v.b[id]}\n`).join('\n'));
    },
    reading: { reads: ADV_READ },
  },
  {
    name: 'zero-padding-differs',
    reader: 'adversarial',
    ids: ADV,
    text: (v) => w(v, adv(v)).replace(/F-00(\d)/g, 'F-$1'),
    reading: { reads: ADV_READ },
  },
  {
    name: 'summary-repeats-each-vote',
    reader: 'collaborative',
    ids: COL,
    text: (v) => w(v, `${col(v)}\n## Summary\n\n| Finding | Verdict |\n|---|---|\n| F-004 | supplement |\n| F-007 | agree |\n`),
    reading: { reads: COL_READ },
  },
  // ---- Must refuse: the text around or inside a block bears on its vote ----
  {
    name: 'closing-line-over-every-id',
    reader: 'adversarial',
    ids: ADV,
    text: (v) => w(v, `${adv(v)}\n${v.overallHold}\n`),
    reading: must('a closing line says every finding holds; F-001 is REFUTED in its block', /F-001|all|every|none|均|全/i),
  },
  {
    name: 'change-of-mind-ending-basis',
    reader: 'adversarial',
    ids: ADV,
    text: (v) => w(v, adv(v, { 'F-001': ['REFUTED', `${v.b['F-001']}\n\n${v.mindChange}`] })),
    reading: must('the end of F-001 Basis says the finding holds after all', /F-001/),
  },
  {
    name: 'postscript-takes-vote-back',
    reader: 'adversarial',
    ids: ADV,
    text: (v) => w(v, `${adv(v)}\n${v.postscript}\n`),
    reading: must('a postscript says F-002 is refuted; its block says SURVIVES', /F-002/),
  },
  {
    name: 'quoted-correction',
    reader: 'collaborative',
    ids: COL,
    text: (v) =>
      w(v, `${col(v)}\n> Correction: F-007 — I misread the migration order; \`db/migrations/0043_users.sql:4\` re-creates the index, so I disagree.\n`),
    reading: must('a quoted correction after the blocks turns F-007 to disagree', /F-007/),
  },
  {
    name: 'decoration-says-opposite',
    reader: 'adversarial',
    ids: ADV,
    text: (v) => w(v, adv(v, { 'F-001': ['REFUTED ✅ (finding confirmed)', v.b['F-001']] })),
    reading: must('F-001 verdict line says REFUTED and "finding confirmed"', /F-001/),
  },
  {
    name: 'basis-names-other-kind',
    reader: 'plan',
    ids: PLAN,
    text: (v) => w(v, plan(v, `${v.p[1]} Strictly this is a kind (c) breakage: the step runs before \`P-Step-1-2\` creates the module.`)),
    reading: must('P-Step-2-3 says DISAGREE (b) but its Basis names kind (c)', /P-Step-2-3/),
  },
  {
    name: 'basis-names-other-fixability',
    reader: 'plan',
    ids: PLAN,
    text: (v) => w(v, plan(v, `${v.p[1]} Fixing it needs a replan: the stage order changes.`)),
    reading: must('P-Step-2-3 says in-place but its Basis says it needs a replan', /P-Step-2-3/),
  },
  {
    name: 'cut-off-mid-basis',
    reader: 'adversarial',
    ids: ADV,
    text: (v) =>
      `${v.pre}${v.block('F-001', 'REFUTED', v.b['F-001'])}\n${v.block('F-002', 'SURVIVES', v.b['F-002'])}\n${v.block('F-003', 'SURVIVES-WITH-CAVEAT', v.b['F-003'].slice(0, 30))}`.replace(
        /\n+$/,
        '',
      ),
    reading: must('the answer stops in the middle of F-003 Basis', /F-003|truncat|cut off/i),
  },
  {
    name: 'retraction-without-verdict-word',
    reader: 'adversarial',
    ids: ADV,
    text: (v) => w(v, `${adv(v)}\n${v.withdraw}\n`),
    reading: must('a line after the blocks withdraws the F-003 vote', /F-003/),
  },
  {
    name: 'rest-of-ids-statement',
    reader: 'plan',
    ids: PLAN,
    text: (v) => w(v, `${plan(v)}\nThe rest of the items I could not check against the code; treat them as unverified.\n`),
    reading: must('a line about "the rest" of the items after every block', /rest|unverif/i),
  },
];

/** Every answer, one per (scenario, provider), with its intended reading. */
export const TEXT_AROUND_BLOCKS: readonly CorpusAnswer[] = SCENARIOS.flatMap((s) =>
  (Object.keys(VOICES) as CorpusProvider[]).map((p) => {
    const v = VOICES[p];
    return { form: s.name, reader: s.reader, ids: s.ids, text: s.text(v, p), ...s.reading, provider: p, name: `${p}/${s.name}` };
  }),
);

/** The answers one reader reads. */
export function textAroundBlocksFor(reader: CorpusReader | readonly CorpusReader[]): CorpusAnswer[] {
  const readers: readonly CorpusReader[] = typeof reader === 'string' ? [reader] : reader;
  return TEXT_AROUND_BLOCKS.filter((a) => readers.includes(a.reader));
}
