// parseAnswer's memo (parse.ts): a pure function of text and options, so a
// repeated read returns the same frozen answer, and options that change the
// reading never share an entry.
import { describe, expect, it } from 'vitest';
import { parseAnswer } from './parse.js';

const ANSWER = '### F-001 — timeout\n**Verdict**: AGREE\n**Basis**: `src/a.ts:1`\n\n### P-1\n**Verdict**: DISAGREE\n';

describe('parseAnswer memo', () => {
  it('returns the same frozen answer for the same text and options', () => {
    const a = parseAnswer(ANSWER);
    expect(parseAnswer(ANSWER)).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.blocks) && Object.isFrozen(a.blocks[0]!.fields)).toBe(true);
    expect(() => (a.blocks as unknown as unknown[]).push({})).toThrow(TypeError);
  });

  it('reads the text anew when an option that changes the reading differs', () => {
    const any = parseAnswer(ANSWER);
    const plan = parseAnswer(ANSWER, { idPattern: /P-\d+/ });
    expect(any.blocks.map((b) => b.id)).toEqual(['F-001', 'P-1']);
    expect(plan.blocks.map((b) => b.id)).toEqual(['P-1']);
    expect(parseAnswer(ANSWER, { idPattern: /P-\d+/i })).not.toBe(plan);
    expect(parseAnswer(ANSWER, { depths: [2] }).blocks).toEqual([]);
    expect(parseAnswer(ANSWER, { fieldLabels: ['Verdict'] })).not.toBe(any);
  });

  it('a refusal is never remembered: the same oversized or over-nested text is refused every time', () => {
    const nested = '>'.repeat(200) + ' x\n';
    expect(() => parseAnswer(nested, { file: 'r.md' })).toThrow();
    expect(() => parseAnswer(nested, { file: 'r.md' })).toThrow();
  });

  it('keeps at most 64 answers: the least recently used is read anew', () => {
    const first = parseAnswer('### F-900\n**Verdict**: AGREE\n');
    for (let i = 0; i < 64; i++) parseAnswer(`### F-${i}\n**Verdict**: AGREE\n`);
    expect(parseAnswer('### F-900\n**Verdict**: AGREE\n')).not.toBe(first);
    expect(parseAnswer('### F-900\n**Verdict**: AGREE\n')).toEqual(first);
  });
});
