import { describe, expect, it } from 'vitest';
import { ruleNeighbours } from '@okstra/verdict-blocks/test-support';
import { readResponseVotes } from './response-votes.js';

/**
 * The rule of docs/contracts.md "Which answers give a vote", both sides: every
 * generated marker x label x id spelling is read, and every nearest neighbour —
 * two ids in a marker, an ambiguous or foreign id, a line that bears on a vote
 * outside its block or inside its Basis, a contrary decoration, a cut-off end —
 * is refused with a message naming what it found.
 */
describe('which answers give a vote (generated neighbours of the rule)', () => {
  for (const n of ruleNeighbours()) {
    it(n.name, () => {
      const read = () => readResponseVotes({ workerId: 'w', file: 'w.md', text: n.text, mode: 'adversarial', wanted: n.ids, thing: 'finding' });
      if (n.reads) {
        const votes = read();
        expect(Object.fromEntries(votes.map((v) => [v.id, v.sourceVerdict]))).toEqual(n.reads);
      } else expect(read).toThrow(n.refused!);
    });
  }
});

describe('an answer captured without the end-of-turn signal is refused as truncated', () => {
  const text = '### F-001\n**Verdict**: REFUTED\n**Basis**: `src/queue.ts:88` takes the lock first.\n';
  const read = (endOfTurn: { signal: string } | null | undefined) =>
    readResponseVotes({ workerId: 'w', file: 'w.md', text, mode: 'adversarial', wanted: ['F-001'], thing: 'finding', endOfTurn });
  it.each(['max-tokens', 'max-turns', 'none', 'error', 'refusal'])('signal %s: exit 2 naming it', (signal) => {
    expect(() => read({ signal })).toThrow(new RegExp(`cut off: the provider's turn did not end \\(end-of-turn signal '${signal}'`));
  });
  it.each([[{ signal: 'end-turn' }], [null], [undefined]])('%j: read', (endOfTurn) => {
    expect(read(endOfTurn).map((v) => v.sourceVerdict)).toEqual(['REFUTED']);
  });
});
