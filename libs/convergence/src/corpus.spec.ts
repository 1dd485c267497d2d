import { corpusFor, describeCorpus, habitsAndTrapsFor, textAroundBlocksFor, type CorpusAnswer, type CorpusOutcome } from '@okstra/verdict-blocks/test-support';
import type { ConvergenceMode } from '@okstra/schemas/convergence';
import { roundPlan } from './test-support/round-plan.js';
import { collectRoundResults } from './collect-results.js';

/** The corpus answers collect-results does not read as intended: none (a name here runs as it.fails). */
const KNOWN_FAILING = new Set<string>([]);

/**
 * The habits-and-traps answers collect-results does not read as intended yet (each runs as it.fails):
 * an unknown `**Missing**: …` label line between Verdict and Basis is read as more words of the
 * verdict (refused, a clear answer lost). Not loosened yet: the same rule keeps `Actually: DISAGREE (c)`
 * under a Verdict line refused, and dropping the line would lose what it says from the Basis.
 */
const HABITS_KNOWN_FAILING = new Set<string>([
  'antigravity/unknown-label-before-basis',
  'claude/unknown-label-before-basis',
  'codex/unknown-label-before-basis',
]);

/** Read one corpus (or habits-and-traps) answer with collect-results, as worker `<provider>` asked about the answer's ids. */
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
describeCorpus('collect-results (habits and traps)', habitsAndTrapsFor(['adversarial', 'collaborative']), read, HABITS_KNOWN_FAILING);

/** The text-around-blocks answers (issue #37) not read as intended yet (each runs as it.fails). */
const TEXT_AROUND_KNOWN_FAILING = new Set<string>([]);
describeCorpus('collect-results (text around blocks)', textAroundBlocksFor(['adversarial', 'collaborative']), read, TEXT_AROUND_KNOWN_FAILING);
