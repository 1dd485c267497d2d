// How each provider's model answers a worker prompt of prompts/workers/: the
// opening and closing it wraps around the blocks, how it cites evidence, and
// the titles it gives findings. Written from the answers these models give to
// the reverify / gap-vote / plan-body-verification texts; the forms (forms.ts)
// lay the blocks out, the voice fills in the words.

/** The providers whose answers the corpus holds (libs/schemas provider ids). */
export const CORPUS_PROVIDERS = ['claude', 'codex', 'antigravity', 'grok', 'kimi'] as const;
export type CorpusProvider = (typeof CORPUS_PROVIDERS)[number];

/** One model's voice. `basis[n]` are Basis texts citing `path:line`; `title[n]` finding titles. */
export interface Voice {
  provider: CorpusProvider;
  /** What the model writes before the first block (may be empty). */
  pre: string;
  /** What it writes after the last block (may be empty). */
  post: string;
  basis: readonly [string, string, string];
  title: readonly [string, string];
  /** Its Basis for a plan item with a broken path. */
  planBasis: string;
  /** Its word for "the summary" heading. */
  summary: string;
}

export const VOICES: Readonly<Record<CorpusProvider, Voice>> = {
  claude: {
    provider: 'claude',
    pre: "I'll work through each finding in the batch, reading the cited code before deciding on a verdict.\n\n",
    post: '\nLet me know if you want me to dig further into any of these.\n',
    basis: [
      "`src/queue.ts:88` acquires `queueLock` before it reads `head`, and the only other writer (`src/queue.ts:131`) holds the same lock — so the interleaving the finding describes can't actually happen.",
      "I tried to break this one and couldn't. `src/http/client.ts:42` retries on 503 without reading `Retry-After`, exactly as described.\n\n- the loop bound is `MAX_RETRIES = 5` (`src/http/client.ts:12`)\n- nothing upstream sets the header",
      'This holds, but only for card refunds: `src/refunds/timeout.ts:88` applies the 30 s cap to `method === "card"` only.',
    ],
    title: ['Lock ordering in queue consumer', 'Retry loop ignores Retry-After'],
    planBasis: 'The files cell names `src/billing/…/round.ts`, which does not resolve; the function actually lives in `src/billing/money/round.ts:12`.',
    summary: 'Summary',
  },
  codex: {
    provider: 'codex',
    pre: '',
    post: '',
    basis: [
      '`src/queue.ts:88` takes `queueLock` before reading `head`; other writer `src/queue.ts:131` holds same lock. Race impossible.',
      'Confirmed: `src/http/client.ts:42` retries 503 w/o `Retry-After`. Loop bound `src/http/client.ts:12`.',
      'Holds for card only: `src/refunds/timeout.ts:88` gates on `method === "card"`.',
    ],
    title: ['queue lock', 'retry-after'],
    planBasis: 'files cell `src/billing/…/round.ts` does not resolve; real path `src/billing/money/round.ts:12`.',
    summary: 'Summary',
  },
  antigravity: {
    provider: 'antigravity',
    pre: '## Re-verification Results\n\nI analyzed the codebase to verify each finding. Here is what I found:\n\n',
    post: '\n---\n\n*Analysis complete. All findings in the batch were reviewed.*\n',
    basis: [
      '**Analysis:** The lock `queueLock` is acquired at `src/queue.ts:88` before `head` is read. The only other writer, `src/queue.ts:131`, also holds it. The race condition is therefore not possible.',
      '**Analysis:** I confirmed the behaviour at `src/http/client.ts:42`: the 503 branch never consults `Retry-After`.\n\n```ts\nif (res.status === 503) return retry(req);\n```',
      '**Analysis:** The cap at `src/refunds/timeout.ts:88` only applies to card refunds (`method === "card"`).',
    ],
    title: ['Race Condition in Queue Consumer', 'Missing Retry-After Handling'],
    planBasis: '**Analysis:** The path `src/billing/…/round.ts` is abbreviated and does not resolve. The correct path is `src/billing/money/round.ts:12`.',
    summary: 'Summary',
  },
  grok: {
    provider: 'grok',
    pre: "Alright, dug into the code. Here's where each one lands — no fluff.\n\n",
    post: "\nThat's the batch. Ping me if you want the gory details on any of them.\n",
    basis: [
      "Nope, doesn't hold up. `src/queue.ts:88` grabs `queueLock` before touching `head`, and the other writer at `src/queue.ts:131` grabs the same lock. No race.",
      'Yep, real. `src/http/client.ts:42` just hammers 503s with zero regard for `Retry-After`. Bound is 5 (`src/http/client.ts:12`).',
      'Real, but narrower than claimed — `src/refunds/timeout.ts:88` only caps card refunds.',
    ],
    title: ['queue race', 'Retry-After ignored'],
    planBasis: "That `src/billing/…/round.ts` path is bogus — it's `src/billing/money/round.ts:12`.",
    summary: 'TL;DR',
  },
  kimi: {
    provider: 'kimi',
    pre: '好的，我逐条检查了这些发现。\n\n',
    post: '\n以上是全部结论。\n',
    basis: [
      '`src/queue.ts:88` 在读取 `head` 之前已经获取了 `queueLock`，另一个写入方 `src/queue.ts:131` 也持有同一把锁，所以该竞争条件不会发生。',
      '确认：`src/http/client.ts:42` 对 503 直接重试，没有读取 `Retry-After`。重试上限见 `src/http/client.ts:12`。',
      '成立，但仅限于银行卡退款：`src/refunds/timeout.ts:88` 只对 `method === "card"` 生效。',
    ],
    title: ['队列消费者的锁顺序', 'Retry-After 被忽略'],
    planBasis: '文件列写的 `src/billing/…/round.ts` 无法解析，函数实际位于 `src/billing/money/round.ts:12`。',
    summary: '总结',
  },
};
