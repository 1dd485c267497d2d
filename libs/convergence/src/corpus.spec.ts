import { corpusFor, describeCorpus, type CorpusAnswer, type CorpusOutcome } from '@okstra/verdict-blocks/test-support';
import type { ConvergenceMode } from '@okstra/schemas/convergence';
import { roundPlan } from './test-support/round-plan.js';
import { collectRoundResults } from './collect-results.js';

/** The corpus answers collect-results does not read as intended: none (a name here runs as it.fails). */
const KNOWN_FAILING = new Set<string>([]);

/** Read one corpus answer with collect-results, as worker `<provider>` asked about the answer's ids. */
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
