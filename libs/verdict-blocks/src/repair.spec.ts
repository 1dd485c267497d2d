import { describe, expect, it } from 'vitest';
import { renderRepairPrompt } from './repair.js';

const problem = { workerId: 'codex', id: 'F-002', thing: 'finding', file: 'codex.md', line: 7, message: 'unknown verdict' };

describe('renderRepairPrompt (issue #25 item 4)', () => {
  it('names every problem, the form and the answer verbatim, asking to change no verdict', () => {
    const answer = '### F-002\n**Verdict**: SURVIVES, mostly\n**Basis**: `a.ts:1`\n\n```ts\nx\n```\n';
    const text = renderRepairPrompt({ problems: [problem], expectedForm: '### <id>\n**Verdict**: …', answer });
    expect(text).toContain('- codex.md: line 7: worker codex: finding F-002: unknown verdict');
    expect(text).toContain('change no verdict');
    expect(text).toContain(answer.trimEnd());
    expect(text).toContain('````markdown\n');
  });
  it('quotes an answer holding fences in a longer fence, so nothing in it closes the quote', () => {
    const answer = 'Draft:\n\n````md\n### F-002\n````\n';
    const text = renderRepairPrompt({ problems: [problem], expectedForm: 'form', answer });
    const quoted = /`{5}markdown\n([\s\S]*)\n`{5}\n$/.exec(text);
    expect(quoted?.[1]).toBe(answer.trimEnd());
  });
  it('with `to`, starts with the worker, the Batch line and the file the restated answer replaces', () => {
    const text = renderRepairPrompt({
      problems: [problem],
      expectedForm: 'form',
      answer: 'x\n',
      to: { workerId: 'codex', kind: 'reverify-r2', ids: ['F-002', 'F-005'], resultPath: 'w/codex-reverify-r2.md' },
    });
    expect(text.split('\n').slice(0, 5)).toEqual([
      '# Repair of your reverify-r2 answer: codex',
      '',
      'Batch: F-002, F-005',
      '',
      expect.stringContaining('`w/codex-reverify-r2.md`'),
    ]);
    expect(text).toContain('## Restate your answer (repair)');
  });
});
