import { describe, expect, it } from 'vitest';
import { renderAnswerMarkdown } from '@okstra/verdict-blocks';
import type { PlanVerifyAnswer } from '@okstra/schemas/answers';
import { collectVerdictsWithProblems } from './collect.js';

const queue = ['P-Opt-1', 'P-Step-1-1'];
const answer: PlanVerifyAnswer = {
  votes: [
    { id: 'P-Opt-1', verdict: 'AGREE', breakageKind: null, fixability: null, basis: 'the option fits the constraint.' },
    { id: 'P-Step-1-1', verdict: 'DISAGREE', breakageKind: 'b', fixability: 'in-place', basis: 'step 1 edits a file step 2 deletes.' },
  ],
};

describe('plan-verify votes from an answer object', () => {
  it('the Markdown written from the object reads back as the same verdicts', () => {
    const markdown = renderAnswerMarkdown('plan-verify', answer);
    const fromProse = collectVerdictsWithProblems(queue, [{ workerId: 'codex', file: 'r.md', markdown }]);
    const fromObject = collectVerdictsWithProblems(queue, [{ workerId: 'codex', file: 'r.md', markdown, object: { votes: answer.votes, problems: [] } }]);
    expect(fromProse.problems).toEqual([]);
    expect(fromObject).toEqual(fromProse);
  });
  it('prose that contradicts the object is never read: the object’s verdicts stand', () => {
    const markdown = '### P-Opt-1\n**Verdict**: DISAGREE (a)\n**Fixability**: replan\n**Basis**: no\n\nOverall: every item AGREE.\n';
    const read = collectVerdictsWithProblems(queue, [{ workerId: 'codex', file: 'r.md', markdown, object: { votes: answer.votes, problems: [] } }]);
    expect(read.problems).toEqual([]);
    expect(read.envelope.items.map((i) => i.verdicts[0]!.verdict)).toEqual(['AGREE', 'DISAGREE']);
  });
  it('a refused object or a missing item is a problem for that worker (the repair path), with no votes', () => {
    const refused = collectVerdictsWithProblems(queue, [
      { workerId: 'codex', file: 'r.md', markdown: '', object: { votes: null, problems: ['no answer object'] } },
    ]);
    expect(refused.problems).toEqual([{ workerId: 'codex', itemId: '(all)', file: 'r.md', line: 0, message: 'answer object refused: no answer object' }]);
    expect(refused.envelope.items.every((i) => i.verdicts.length === 0)).toBe(true);
    const missing = collectVerdictsWithProblems(queue, [
      { workerId: 'codex', file: 'r.md', markdown: '', object: { votes: [answer.votes[0]!], problems: [] } },
    ]);
    expect(missing.problems.map((p) => `${p.itemId}: ${p.message}`)).toEqual(['P-Step-1-1: dispatched item with no vote in the answer object']);
  });
});
