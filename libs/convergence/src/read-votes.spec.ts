import { describe, expect, it } from 'vitest';
import { CORPUS, HABITS_AND_TRAPS, TEXT_AROUND_BLOCKS, readVoteFigures, type CorpusAnswer, type CorpusOutcome } from '@okstra/verdict-blocks/test-support';
import type { ConvergenceMode } from '@okstra/schemas/convergence';
import { roundPlan } from './test-support/round-plan.js';
import { collectRoundResults } from './collect-results.js';
import { VOTE_FIELD_LABELS } from './response-votes.js';

function read(answer: CorpusAnswer): CorpusOutcome {
  const mode = answer.reader as ConvergenceMode;
  try {
    const results = collectRoundResults({
      plan: { ...roundPlan({ [answer.provider]: [...answer.ids] }), mode },
      planFile: 'plan.json',
      mode,
      responses: [{ workerId: answer.provider, file: `${answer.provider}.md`, text: answer.text }],
      dispatches: [{ workerId: answer.provider, status: 'completed', durationMs: 1 }],
    });
    const votes = results.workers[0].verdicts;
    return { votes: Object.fromEntries(votes.map((v) => [v.findingId, v.sourceVerdict ?? ''])), bases: {} };
  } catch (error) {
    return { refusal: (error as Error).message };
  }
}

const OPTIONS = { idPattern: /[A-Z][A-Z0-9]*-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/i, fieldLabels: VOTE_FIELD_LABELS };
const convergence = (answers: readonly CorpusAnswer[]) => answers.filter((a) => a.reader !== 'plan');

describe('what the user gets is a read vote (collect-results, issue #37 item 4)', () => {
  it.each([
    ['forms', CORPUS],
    ['habits-and-traps', HABITS_AND_TRAPS],
    ['text-around-blocks', TEXT_AROUND_BLOCKS],
  ] as const)('%s: read directly / after one repair / still refused', (name, answers) => {
    const f = readVoteFigures(`collect-results ${name}`, convergence(answers), read, OPTIONS);
    console.log(`read votes: ${JSON.stringify(f)}`);
    expect(f.readDirectly + f.readAfterOneRepair + f.stillRefused).toBe(f.answers);
    // A clear answer the reader refuses is one repair away from its vote (at most 10 % stay refused).
    expect(f.clear.stillRefused).toBeLessThanOrEqual(Math.floor(f.clear.answers * 0.1));
  });
});
