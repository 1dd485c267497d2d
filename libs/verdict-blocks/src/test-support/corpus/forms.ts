// The layouts real worker answers take (issue #25 "Why"), each written in a
// provider's voice (voices.ts) with the reading a careful reader gets from it:
// read-as (one vote per id) or refused-because (exit 2 and what it names).
import type { Voice } from './voices.js';

/** Which reader an answer is for: collect-results in a mode, or plan-items collect-verdicts. */
export type CorpusReader = 'adversarial' | 'collaborative' | 'plan';

/** One answer of the corpus without its provider (forms.ts), see {@link CorpusAnswer}. */
export interface CorpusForm {
  /** The form's name, unique within a provider: `h2-heading`, `summary-contradicts`. */
  form: string;
  reader: CorpusReader;
  /** The ids the worker was asked about, in dispatch order. */
  ids: readonly string[];
  text: string;
  /**
   * Read as: id → the vote. collect-results: the verdict word as the mode spells it
   * (`SURVIVES-WITH-CAVEAT`, `AGREE`); collect-verdicts: `AGREE`, `SUPPLEMENT` or
   * `DISAGREE (<kind>, <fixability>)`.
   */
  reads?: Readonly<Record<string, string>>;
  /** Read as, too: text each id's Basis must hold (kept whole, in order). */
  basisHas?: Readonly<Record<string, readonly string[]>>;
  /** Refused because: why, and what the exit-2 message must match. */
  refused?: { because: string; message: RegExp };
}

const ADV = ['F-001', 'F-002'] as const;
const COL = ['F-004', 'F-009'] as const;
const PLAN = ['P-Opt-1', 'P-Step-2-1'] as const;
const ADV_READ = { 'F-001': 'REFUTED', 'F-002': 'SURVIVES' };
const PLAN_READ = { 'P-Opt-1': 'AGREE', 'P-Step-2-1': 'DISAGREE (b, in-place)' };

/** Two canonical adversarial blocks, `verdict1`/`verdict2` as written on the Verdict lines. */
function adv(v: Voice, heading1 = '### F-001', heading2 = '### F-002', verdict1 = 'REFUTED', verdict2 = 'SURVIVES', label = '**Verdict**: '): string {
  return `${heading1}\n${label}${verdict1}\n**Basis**: ${v.basis[0]}\n\n${heading2}\n${label}${verdict2}\n**Basis**: ${v.basis[1]}\n`;
}

/** Two plan blocks: an AGREE and a broken-path DISAGREE (b) in-place. */
function plan(v: Voice, verdict2 = 'DISAGREE (b)', fix2: string | null = 'in-place', label = '**Verdict**: '): string {
  const fix = fix2 === null ? '' : `**Fixability**: ${fix2}\n`;
  return `### P-Opt-1\n${label}AGREE\n**Basis**: the option matches \`src/billing/invoice.ts:40\`.\n\n### P-Step-2-1\n${label}${verdict2}\n${fix}**Basis**: ${v.planBasis}\n`;
}

const wrap = (v: Voice, body: string) => `${v.pre}${body}${v.post}`;
const refused = (because: string, message: RegExp) => ({ refused: { because, message } });

/** Every form, in the order of the list. */
export const FORMS: ReadonlyArray<(v: Voice) => CorpusForm> = [
  // The forms the prompts ask for.
  (v) => ({ form: 'canonical', reader: 'adversarial', ids: ADV, text: wrap(v, adv(v)), reads: ADV_READ }),
  (v) => ({
    form: 'canonical-collaborative',
    reader: 'collaborative',
    ids: COL,
    text: wrap(v, `### F-004\n**Verdict**: supplement\n**Basis**: ${v.basis[2]}\n\n### F-009\n**Verdict**: agree\n**Basis**: ${v.basis[1]}\n`),
    reads: { 'F-004': 'SUPPLEMENT', 'F-009': 'AGREE' },
  }),
  (v) => ({ form: 'canonical-plan', reader: 'plan', ids: PLAN, text: wrap(v, plan(v)), reads: PLAN_READ }),
  (v) => ({
    form: 'titled-headings',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, `### F-001 — ${v.title[0]}`, `### F-002: ${v.title[1]}`)),
    reads: ADV_READ,
  }),
  // Headings.
  (v) => ({ form: 'h2-heading', reader: 'adversarial', ids: ADV, text: wrap(v, adv(v, '## F-001', '## F-002')), reads: ADV_READ }),
  (v) => ({
    form: 'finding-prefix',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, `### Finding F-001: ${v.title[0]}`, `### Finding F-002: ${v.title[1]}`)),
    reads: ADV_READ,
  }),
  (v) => ({
    form: 'bold-paragraph-heading',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, `**F-001 — ${v.title[0]}**\n`, `**F-002 — ${v.title[1]}**\n`)),
    reads: ADV_READ,
  }),
  (v) => ({
    form: 'item-prefix-h4-plan',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v).replace('### P-Opt-1', '#### Item P-Opt-1').replace('### P-Step-2-1', '#### Item P-Step-2-1: path check')),
    reads: PLAN_READ,
  }),
  // Label spacing and punctuation.
  (v) => ({
    form: 'no-space-after-label',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v).replace(/\*\*Verdict\*\*: /g, '**Verdict**:')),
    reads: ADV_READ,
  }),
  (v) => ({
    form: 'nbsp-after-label',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v).replace(/\*\*Verdict\*\*: /g, '**Verdict**:\u00a0')),
    reads: ADV_READ,
  }),
  (v) => ({
    form: 'fullwidth-colon',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v).replace(/\*\*(Verdict|Basis)\*\*: /g, '**$1**：')),
    reads: ADV_READ,
  }),
  (v) => ({
    form: 'fullwidth-colon-plan',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v).replace(/\*\*(Verdict|Basis|Fixability)\*\*: /g, '**$1**：')),
    reads: PLAN_READ,
  }),
  // After the word.
  (v) => ({
    form: 'emoji-after-word',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, undefined, undefined, 'REFUTED ❌', 'SURVIVES ✅')),
    reads: ADV_READ,
  }),
  (v) => ({
    form: 'confidence-note',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, undefined, undefined, 'REFUTED (high confidence)', 'SURVIVES (medium confidence)')),
    reads: ADV_READ,
  }),
  (v) => ({
    form: 'caveats-plural',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, undefined, undefined, 'REFUTED', 'SURVIVES-WITH-CAVEATS')),
    reads: { 'F-001': 'REFUTED', 'F-002': 'SURVIVES-WITH-CAVEAT' },
  }),
  (v) => ({
    form: 'confidence-field',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v).replace(/(\*\*Verdict\*\*: \w+)\n/g, '$1\n**Confidence**: High\n')),
    reads: ADV_READ,
  }),
  (v) => ({
    form: 'confidence-field-plan',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v).replace('**Verdict**: AGREE\n', '**Verdict**: AGREE\n**Confidence**: 0.9\n')),
    reads: PLAN_READ,
  }),
  // Explanation labels.
  (v) => ({
    form: 'rationale-label',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v).replace(/\*\*Basis\*\*/g, '**Rationale**')),
    reads: ADV_READ,
    basisHas: { 'F-001': ['src/queue.ts:88'] },
  }),
  (v) => ({
    form: 'reasoning-label-plan',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v).replace(/\*\*Basis\*\*/g, '**Reasoning**')),
    reads: PLAN_READ,
    basisHas: { 'P-Step-2-1': ['src/billing/money/round.ts:12'] },
  }),
  (v) => ({
    form: 'basis-then-explanation',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v).replace(`**Basis**: ${v.basis[0]}\n`, `**Basis**: ${v.basis[0]}\n**Explanation**: the lock was added in \`src/queue.ts:80\`.\n`)),
    reads: ADV_READ,
    basisHas: { 'F-001': ['src/queue.ts:88', 'src/queue.ts:80'] },
  }),
  // The whole answer wrapped, tabled, repeated, drafted.
  (v) => ({ form: 'one-markdown-fence', reader: 'adversarial', ids: ADV, text: `${v.pre}\`\`\`markdown\n${adv(v)}\`\`\`\n${v.post}`, reads: ADV_READ }),
  (v) => ({ form: 'one-markdown-fence-plan', reader: 'plan', ids: PLAN, text: `\`\`\`markdown\n${plan(v)}\`\`\`\n`, reads: PLAN_READ }),
  (v) => ({
    form: 'answer-as-table',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(
      v,
      '| Finding | Verdict | Basis |\n|---|---|---|\n| F-001 | REFUTED | `src/queue.ts:88` takes the lock first |\n| F-002 | SURVIVES | `src/http/client.ts:42` ignores `Retry-After` |\n',
    ),
    reads: ADV_READ,
    basisHas: { 'F-001': ['src/queue.ts:88'] },
  }),
  (v) => ({ form: 'printed-twice', reader: 'adversarial', ids: ADV, text: wrap(v, `${adv(v)}\n${adv(v)}`), reads: ADV_READ }),
  (v) => ({
    form: 'think-drafts',
    reader: 'adversarial',
    ids: ADV,
    text: `<think>\nLet me draft first.\n\n### F-001\n**Verdict**: SURVIVES\n**Basis**: not sure yet.\n\nHmm, actually the lock is taken first, so F-001: REFUTED.\n</think>\n\n${wrap(v, adv(v))}`,
    reads: ADV_READ,
  }),
  // Words.
  (v) => ({
    form: 'agreed',
    reader: 'collaborative',
    ids: COL,
    text: wrap(v, `### F-004\n**Verdict**: Agreed\n**Basis**: ${v.basis[2]}\n\n### F-009\n**Verdict**: disagree\n**Basis**: ${v.basis[0]}\n`),
    reads: { 'F-004': 'AGREE', 'F-009': 'DISAGREE' },
  }),
  (v) => ({ form: 'agreed-plan', reader: 'plan', ids: PLAN, text: wrap(v, plan(v).replace('**Verdict**: AGREE', '**Verdict**: Agreed')), reads: PLAN_READ }),
  (v) => ({ form: 'kind-after-colon', reader: 'plan', ids: PLAN, text: wrap(v, plan(v, 'DISAGREE: b')), reads: PLAN_READ }),
  (v) => ({ form: 'kind-after-hyphen', reader: 'plan', ids: PLAN, text: wrap(v, plan(v, 'DISAGREE-b')), reads: PLAN_READ }),
  (v) => ({ form: 'fixability-after-bracket', reader: 'plan', ids: PLAN, text: wrap(v, plan(v, 'DISAGREE (b) — in-place', null)), reads: PLAN_READ }),
  (v) => ({
    form: 'fixability-in-prose',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v, 'DISAGREE (b)', 'easy fix — the path can be corrected in-place')),
    reads: PLAN_READ,
  }),
  // Closing summaries: agreeing ones are read, contradicting ones refused.
  (v) => ({
    form: 'summary-table-agrees',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, `${adv(v)}\n## ${v.summary}\n\n| Finding | Verdict |\n|---|---|\n| F-001 | REFUTED |\n| F-002 | SURVIVES |\n`),
    reads: ADV_READ,
  }),
  (v) => ({
    form: 'summary-table-contradicts',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(
      v,
      `${adv(v, '### F-001', '### F-002', 'SURVIVES', 'SURVIVES')}\n## ${v.summary}\n\n| Finding | Verdict |\n|---|---|\n| F-001 | REFUTED |\n| F-002 | SURVIVES |\n`,
    ),
    ...refused('the block says SURVIVES, the closing table REFUTED', /F-001.*(SURVIVES.*REFUTED|REFUTED.*SURVIVES)/s),
  }),
  (v) => ({
    form: 'summary-verdict-contradicts-plan',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, `${plan(v, 'AGREE', null)}\n## ${v.summary}\n\nVerdict: DISAGREE (c)\nFixability: replan\n`),
    ...refused('every item AGREE, the closing summary DISAGREE (c)', /AGREE.*DISAGREE|DISAGREE.*AGREE/s),
  }),
  (v) => ({
    form: 'later-correction',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, `${adv(v)}\n**Correction:** on a second look, F-002: REFUTED — the header is read in \`src/http/retry.ts:9\`.\n`),
    ...refused('the block says SURVIVES, a later correction REFUTED', /F-002.*(SURVIVES.*REFUTED|REFUTED.*SURVIVES)/s),
  }),
  (v) => ({
    form: 'heading-contradicts-field',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, '### F-001 — SURVIVES')),
    ...refused('the heading says SURVIVES, the field REFUTED', /F-001.*heading says SURVIVES/),
  }),
  (v) => ({
    form: 'heading-contradicts-field-plan',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v).replace('### P-Opt-1', '### P-Opt-1 — DISAGREE (a)')),
    ...refused('the heading says DISAGREE (a), the field AGREE', /P-Opt-1.*(AGREE.*DISAGREE|DISAGREE.*AGREE)/s),
  }),
  // Still refused: hedges, two words, kind ranges, two ids, two fixabilities.
  (v) => ({
    form: 'hedge-mostly',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, undefined, undefined, 'REFUTED', '**SURVIVES**, mostly')),
    ...refused('mostly qualifies the verdict', /F-002.*SURVIVES/),
  }),
  (v) => ({
    form: 'hedge-question',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v).replace('**Verdict**: AGREE', '**Verdict**: AGREE?')),
    ...refused('a question is not a vote', /P-Opt-1.*question/),
  }),
  (v) => ({
    form: 'hedge-ellipsis',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, undefined, undefined, 'REFUTED…', 'SURVIVES')),
    ...refused('trailing off is not a vote', /F-001/),
  }),
  (v) => ({
    form: 'hedge-probably-confidence',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, adv(v, undefined, undefined, 'REFUTED (probably)', 'SURVIVES')),
    ...refused('probably hedges the verdict', /F-001/),
  }),
  (v) => ({
    form: 'two-verdict-words-plan',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v).replace('**Verdict**: AGREE', '**Verdict**: AGREE, but DISAGREE (c) on the second file')),
    ...refused('two verdict words', /P-Opt-1.*2 verdict words/),
  }),
  (v) => ({
    form: 'kind-range-plan',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v, 'DISAGREE (a-e)')),
    ...refused('a range of kinds', /P-Step-2-1.*range/),
  }),
  (v) => ({
    form: 'two-ids-one-heading',
    reader: 'adversarial',
    ids: ADV,
    text: wrap(v, `### F-001, F-002\n**Verdict**: SURVIVES\n**Basis**: ${v.basis[1]}\n`),
    ...refused('one verdict for two findings', /more than one finding/),
  }),
  (v) => ({
    form: 'two-fixabilities-plan',
    reader: 'plan',
    ids: PLAN,
    text: wrap(v, plan(v, 'DISAGREE (b)', 'in-place or replan')),
    ...refused('two fixabilities', /P-Step-2-1.*2 values/),
  }),
];
