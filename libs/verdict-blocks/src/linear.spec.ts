import { describe, expect, it } from 'vitest';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { MAX_RESPONSE_BYTES, parseMarkdownLinear } from './linear.js';
import { parseAnswer } from './parse.js';

const OPTIONS = { idPattern: /[A-Z][A-Z0-9]*-[A-Za-z0-9]+/i, fieldLabels: ['verdict', 'basis'] };

/** An answer of `bytes` whose F-001 Basis holds lists, quotes and fences (issue #25: 47 s at 1 MiB before). */
function bigAnswer(bytes: number): string {
  const unit =
    '- re-read `src/queue.ts:88`: the lock is taken **first**\n  > quoted from the log: `lock acquired`\n\n```ts\nawait lock(row); // non-null\n```\n\n> a quote\n> of two lines\n\n1. step `one`\n2. step two\n\nA paragraph with [a link](https://x.test/d) and _emphasis_.\n\n';
  const head = '### F-001\n**Verdict**: REFUTED\n**Basis**: start\n\n';
  const tail = '\n### F-002\n**Verdict**: SURVIVES\n**Basis**: ok\n';
  return head + unit.repeat(Math.ceil((bytes - head.length - tail.length) / unit.length)) + tail;
}

describe('linear parse (docs/convergence.md "Response blocks")', () => {
  it('gives the same tree positions as one parse, for a text cut into chunks', () => {
    const text = bigAnswer(40_000);
    const whole = fromMarkdown(text).children.map((n) => [n.type, n.position?.start.line, n.position?.end.offset]);
    const cut = parseMarkdownLinear(text).children.map((n) => [n.type, n.position?.start.line, n.position?.end.offset]);
    expect(cut.filter((n) => n[0] === 'heading')).toEqual(whole.filter((n) => n[0] === 'heading'));
    expect(cut.length).toBeGreaterThan(100);
  });

  it('never cuts inside a fence: a fake block in a long fence stays code', () => {
    const fence = '```md\n' + 'filler line\n\n'.repeat(3000) + '### F-009\n**Verdict**: SURVIVES\n**Basis**: fake\n' + 'more\n\n'.repeat(3000) + '```\n';
    const answer = parseAnswer(`### F-001\n**Verdict**: REFUTED\n**Basis**: x\n\n${fence}`, OPTIONS);
    expect(answer.blocks.map((b) => b.id)).toEqual(['F-001']);
    expect(answer.blocks[0].fields.basis.source).toContain('### F-009');
  });

  it('keeps the whole Basis of a big answer, and reads in linear time: time(8 MiB) ≤ 10 × time(1 MiB)', () => {
    const time = (text: string) => {
      const t = performance.now();
      const answer = parseAnswer(text, OPTIONS);
      expect(answer.blocks.map((b) => b.id)).toEqual(['F-001', 'F-002']);
      return performance.now() - t;
    };
    const one = bigAnswer(1024 * 1024);
    const eight = bigAnswer(MAX_RESPONSE_BYTES - 64);
    time(bigAnswer(64 * 1024)); // warm up
    const t1 = time(one);
    const t8 = time(eight);
    expect(parseAnswer(eight, OPTIONS).blocks[0].fields.basis.source.length).toBeGreaterThan(MAX_RESPONSE_BYTES - 200);
    expect(t8).toBeLessThanOrEqual(10 * t1);
  }, 600_000);

  it('refuses an answer over 8,388,608 bytes naming the file', () => {
    expect(() => parseAnswer('x'.repeat(MAX_RESPONSE_BYTES + 1), { ...OPTIONS, file: 'big.md' })).toThrow(/8388609 bytes, over the 8388608-byte limit/);
    expect(() => parseAnswer('é'.repeat(MAX_RESPONSE_BYTES / 2 + 1), OPTIONS)).toThrow(/over the 8388608-byte limit/);
  });
});
