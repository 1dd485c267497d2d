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
