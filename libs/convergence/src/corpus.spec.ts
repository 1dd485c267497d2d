import { corpusFor, describeCorpus, heldOutFor, textAroundBlocksFor, type CorpusAnswer, type CorpusOutcome } from '@okstra/verdict-blocks/test-support';
import type { ConvergenceMode } from '@okstra/schemas/convergence';
import { roundPlan } from './test-support/round-plan.js';
import { collectRoundResults } from './collect-results.js';

/** The corpus answers collect-results does not read as intended: none (a name here runs as it.fails). */
const KNOWN_FAILING = new Set<string>([]);

/**
 * The held-out-style answers collect-results does not read as intended yet (each runs as it.fails):
 * an unknown `**Missing**: …` label line between Verdict and Basis is read as more words of the
 * verdict (refused, a clear answer lost). Not loosened yet: the same rule keeps `Actually: DISAGREE (c)`
 * under a Verdict line refused, and dropping the line would lose what it says from the Basis.
 */
const HELD_OUT_KNOWN_FAILING = new Set<string>([
  'antigravity/unknown-label-before-basis',
  'claude/unknown-label-before-basis',
  'codex/unknown-label-before-basis',
]);

/** Read one corpus (or held-out-style) answer with collect-results, as worker `<provider>` asked about the answer's ids. */
function read(answer: CorpusAnswer): CorpusOutcome {
  const mode = answer.reader as ConvergenceMode;
  try {
    const plan = { ...roundPlan({ [answer.provider]: [...answer.ids] }), mode };
    const results = collectRoundResults({
      plan,
      planFile: 'plan.json',
      mode,
      responses: [{ workerId: answer.provider, file: `${answer.provider}.md`, text: answer.text }],
      dispatches: [{ workerId: answer.provider, status: 'completed', durationMs: 1 }],
    });
    const votes = results.workers[0].verdicts;
    return {
      votes: Object.fromEntries(votes.map((v) => [v.findingId, v.sourceVerdict ?? ''])),
      bases: Object.fromEntries(votes.map((v) => [v.findingId, v.explanation])),
    };
  } catch (error) {
    return { refusal: (error as Error).message };
  }
}

describeCorpus('collect-results', corpusFor(['adversarial', 'collaborative']), read, KNOWN_FAILING);
describeCorpus('collect-results (held-out style)', heldOutFor(['adversarial', 'collaborative']), read, HELD_OUT_KNOWN_FAILING);

/** The text-around-blocks answers (issue #37) not read as intended yet (each runs as it.fails). */
const TEXT_AROUND_KNOWN_FAILING = new Set<string>([
  'kimi/plain-with-voice',
  'kimi/collaborative-plain',
  'claude/h4-equals-labels',
  'codex/h4-equals-labels',
  'antigravity/h4-equals-labels',
  'grok/h4-equals-labels',
  'kimi/h4-equals-labels',
  'claude/numbered-items-em-dash',
  'codex/numbered-items-em-dash',
  'antigravity/numbered-items-em-dash',
  'grok/numbered-items-em-dash',
  'kimi/numbered-items-em-dash',
  'claude/bold-line-marker',
  'codex/bold-line-marker',
  'antigravity/bold-line-marker',
  'grok/bold-line-marker',
  'kimi/bold-line-marker',
  'codex/labels-in-worker-language',
  'antigravity/labels-in-worker-language',
  'grok/labels-in-worker-language',
  'kimi/labels-in-worker-language',
  'claude/zero-padding-differs',
  'codex/zero-padding-differs',
  'antigravity/zero-padding-differs',
  'grok/zero-padding-differs',
  'kimi/zero-padding-differs',
  'kimi/summary-repeats-each-vote',
  'claude/closing-line-over-every-id',
  'codex/closing-line-over-every-id',
  'antigravity/closing-line-over-every-id',
  'grok/closing-line-over-every-id',
  'claude/change-of-mind-ending-basis',
  'codex/change-of-mind-ending-basis',
  'antigravity/change-of-mind-ending-basis',
  'grok/change-of-mind-ending-basis',
  'claude/postscript-takes-vote-back',
  'codex/postscript-takes-vote-back',
  'antigravity/postscript-takes-vote-back',
  'grok/postscript-takes-vote-back',
  'claude/quoted-correction',
  'codex/quoted-correction',
  'antigravity/quoted-correction',
  'grok/quoted-correction',
  'claude/cut-off-mid-basis',
  'codex/cut-off-mid-basis',
  'antigravity/cut-off-mid-basis',
  'grok/cut-off-mid-basis',
  'claude/retraction-without-verdict-word',
  'codex/retraction-without-verdict-word',
  'antigravity/retraction-without-verdict-word',
  'grok/retraction-without-verdict-word',
]);
describeCorpus('collect-results (text around blocks)', textAroundBlocksFor(['adversarial', 'collaborative']), read, TEXT_AROUND_KNOWN_FAILING);
