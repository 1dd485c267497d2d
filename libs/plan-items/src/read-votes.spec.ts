import { describe, expect, it } from 'vitest';
import { CORPUS, HABITS_AND_TRAPS, TEXT_AROUND_BLOCKS, readVoteFigures, type CorpusAnswer, type CorpusOutcome } from '@okstra/verdict-blocks/test-support';
import { PLAN_FIELD_LABELS } from '@okstra/verdict-blocks';
import { collectVerdicts } from './collect.js';
import { PLAN_ITEM_HEADING_ID } from './ids.js';

function read(answer: CorpusAnswer): CorpusOutcome {
  try {
    const envelope = collectVerdicts(answer.ids, [{ workerId: answer.provider, file: `${answer.provider}.md`, markdown: answer.text }]);
    return { votes: Object.fromEntries(envelope.items.flatMap((item) => item.verdicts.map((v) => [item.id, v.verdict]))), bases: {} };
  } catch (error) {
    return { refusal: (error as Error).message };
  }
}

describe('what the user gets is a read vote (collect-verdicts, issue #37 item 4)', () => {
  it.each([
    ['forms', CORPUS],
    ['habits-and-traps', HABITS_AND_TRAPS],
    ['text-around-blocks', TEXT_AROUND_BLOCKS],
  ] as const)('%s: read directly / after one repair / still refused', (name, answers) => {
    const f = readVoteFigures(
      `collect-verdicts ${name}`,
      answers.filter((a) => a.reader === 'plan'),
      read,
      { idPattern: PLAN_ITEM_HEADING_ID, fieldLabels: PLAN_FIELD_LABELS },
    );
    console.log(`read votes: ${JSON.stringify(f)}`);
    expect(f.readDirectly + f.readAfterOneRepair + f.stillRefused).toBe(f.answers);
    expect(f.clear.stillRefused).toBeLessThanOrEqual(Math.floor(f.clear.answers * 0.1));
  });
});
