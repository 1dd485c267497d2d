import { corpusFor, describeCorpus, type CorpusAnswer, type CorpusOutcome } from '@okstra/verdict-blocks/test-support';
import { collectVerdicts } from './collect.js';

/** The corpus answers collect-verdicts reads as the issue #25 reader would not yet (expected to fail until the reader change). */
const KNOWN_FAILING = new Set<string>([
  'claude/item-prefix-h4-plan',
  'claude/fullwidth-colon-plan',
  'claude/reasoning-label-plan',
  'claude/one-markdown-fence-plan',
  'claude/agreed-plan',
  'claude/kind-after-colon',
  'claude/kind-after-hyphen',
  'claude/fixability-after-bracket',
  'claude/fixability-in-prose',
  'claude/summary-verdict-contradicts-plan',
  'claude/heading-contradicts-field-plan',
  'codex/item-prefix-h4-plan',
  'codex/fullwidth-colon-plan',
  'codex/reasoning-label-plan',
  'codex/one-markdown-fence-plan',
  'codex/agreed-plan',
  'codex/kind-after-colon',
  'codex/kind-after-hyphen',
  'codex/fixability-after-bracket',
  'codex/fixability-in-prose',
  'codex/summary-verdict-contradicts-plan',
  'codex/heading-contradicts-field-plan',
  'antigravity/item-prefix-h4-plan',
  'antigravity/fullwidth-colon-plan',
  'antigravity/reasoning-label-plan',
  'antigravity/one-markdown-fence-plan',
  'antigravity/agreed-plan',
  'antigravity/kind-after-colon',
  'antigravity/kind-after-hyphen',
  'antigravity/fixability-after-bracket',
  'antigravity/fixability-in-prose',
  'antigravity/summary-verdict-contradicts-plan',
  'antigravity/heading-contradicts-field-plan',
  'grok/item-prefix-h4-plan',
  'grok/fullwidth-colon-plan',
  'grok/reasoning-label-plan',
  'grok/one-markdown-fence-plan',
  'grok/agreed-plan',
  'grok/kind-after-colon',
  'grok/kind-after-hyphen',
  'grok/fixability-after-bracket',
  'grok/fixability-in-prose',
  'grok/summary-verdict-contradicts-plan',
  'grok/heading-contradicts-field-plan',
  'kimi/item-prefix-h4-plan',
  'kimi/fullwidth-colon-plan',
  'kimi/reasoning-label-plan',
  'kimi/one-markdown-fence-plan',
  'kimi/agreed-plan',
  'kimi/kind-after-colon',
  'kimi/kind-after-hyphen',
  'kimi/fixability-after-bracket',
  'kimi/fixability-in-prose',
  'kimi/summary-verdict-contradicts-plan',
  'kimi/heading-contradicts-field-plan',
]);

/** Read one corpus answer with collect-verdicts, as worker `<provider>` given the answer's ids as the queue. */
function read(answer: CorpusAnswer): CorpusOutcome {
  try {
    const envelope = collectVerdicts(answer.ids, [{ workerId: answer.provider, file: `${answer.provider}.md`, markdown: answer.text }]);
    const votes: Record<string, string> = {};
    const bases: Record<string, string> = {};
    for (const item of envelope.items) {
      for (const v of item.verdicts) {
        votes[item.id] = v.verdict === 'DISAGREE' ? `DISAGREE (${v.breakageKind}, ${v.fixability})` : v.verdict;
        bases[item.id] = v.basis ?? '';
      }
    }
    return { votes, bases };
  } catch (error) {
    return { refusal: (error as Error).message };
  }
}

describeCorpus('collect-verdicts', corpusFor('plan'), read, KNOWN_FAILING);
