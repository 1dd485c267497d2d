import { describe, expect, it } from 'vitest';
import { leadingWord, normalizeWord, parseVerdictBlocks } from './index.js';

const FINDING = /[A-Z][A-Z0-9]*-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/i;
const LABELS = ['verdict', 'basis', 'explanation'];
const parse = (md: string) => parseVerdictBlocks(md, { idPattern: FINDING, fieldLabels: LABELS });

describe('field source: the Basis kept whole and exact (docs/convergence.md "Response blocks")', () => {
  it('keeps a caveat in a second paragraph', () => {
    const md = '### F-001\n\n**Verdict**: SURVIVES-WITH-CAVEAT\n**Basis**: the cap is real.\n\nCaveat: only for card refunds.\n';
    expect(parse(md)[0].fields.basis.source).toBe('the cap is real.\n\nCaveat: only for card refunds.');
  });

  it('reads a continuation line that looks like a label as part of the Basis', () => {
    const md = '### F-001\n**Verdict**: REFUTED\n**Basis**: the lock is taken first.\nIn production: the pool is 32.\n';
    const [block] = parse(md);
    expect(Object.keys(block.fields)).toEqual(['verdict', 'basis']);
    expect(block.fields.basis.source).toBe('the lock is taken first.\nIn production: the pool is 32.');
    expect(block.fields.basis.value).toBe('the lock is taken first.\nIn production: the pool is 32.');
  });

  it('keeps every bullet of a bulleted Basis, and nested list-item fields lose only their own indentation', () => {
    const md = '### F-001\n\n**Verdict**: SURVIVES\n\n**Basis**:\n\n- `a.ts:1` compares s with ms\n- `b.ts:2` repeats it\n  on two lines\n';
    expect(parse(md)[0].fields.basis.source).toBe('- `a.ts:1` compares s with ms\n- `b.ts:2` repeats it\n  on two lines');
    const listed = '### F-001\n\n- **Verdict**: SURVIVES\n- **Basis**: first\n  continued\n- second bullet\n';
    expect(parse(listed)[0].fields.basis.source).toBe('first\ncontinued\n- second bullet');
  });

  it('keeps inline code and link targets', () => {
    const md = '### F-001\n\nVerdict: SURVIVES\nBasis: see `src/a.ts:9` and [the runbook](https://x.test/rb#step-2).\n';
    expect(parse(md)[0].fields.basis.source).toBe('see `src/a.ts:9` and [the runbook](https://x.test/rb#step-2).');
  });

  it('keeps a code block after the label, and fences never end the field', () => {
    const md = '### F-001\n\n**Verdict**: REFUTED\n\n**Basis**:\n\n```ts\nif (a) lock();\n**Verdict**: not a field\n```\n\nso the race cannot happen.\n';
    const [block] = parse(md);
    expect(block.fields.basis.source).toBe('```ts\nif (a) lock();\n**Verdict**: not a field\n```\n\nso the race cannot happen.');
    expect(block.duplicateFields).toEqual([]);
  });

  it('runs to the end of the block, not into the next block or a closing section', () => {
    const md =
      '### F-001\n\n**Verdict**: SURVIVES\n**Basis**: one\n\ntwo\n\n### F-002\n\n**Verdict**: REFUTED\n**Basis**: three\n\n## Summary\n\nnot evidence\n';
    expect(parse(md).map((b) => b.fields.basis.source)).toEqual(['one\n\ntwo', 'three']);
  });

  it('ends only at a known field label; the Verdict before the Basis ends at the Basis', () => {
    const md = '### F-001\n\n**Basis**: first the basis\n\n**Verdict**: SURVIVES\n';
    const [block] = parse(md);
    expect(block.fields.basis.source).toBe('first the basis');
    expect(block.fields.verdict.source).toBe('SURVIVES');
  });

  it('records every occurrence of a repeated field with its line', () => {
    const md = '### F-001\n\n**Verdict**: SURVIVES\n**Basis**: one\n\n**Basis**: two\n';
    const [block] = parse(md);
    expect(block.duplicateFields).toEqual(['basis']);
    expect(block.occurrences.basis.map((f) => [f.line, f.source])).toEqual([
      [4, 'one'],
      [6, 'two'],
    ]);
  });

  it('gives the same source for CRLF text, with LF line ends', () => {
    const md = '### F-001\n\n**Verdict**: SURVIVES\n**Basis**: a\nb\n\n- c\n';
    expect(parse(md.replace(/\n/g, '\r\n'))).toEqual(parse(md));
    expect(parse(md)[0].fields.basis.source).toBe('a\nb\n\n- c');
  });

  it('without fieldLabels any Label: line is a field (the default)', () => {
    const md = '### F-001\nBasis: a\nIn production: b\n';
    expect(Object.keys(parseVerdictBlocks(md, { idPattern: FINDING })[0].fields)).toEqual(['basis', 'in production']);
  });
});

describe('headings: numbered, emboldened, any case, with the rest of the heading', () => {
  it('drops a list-style number and keeps what follows the id', () => {
    const md = ['### 2. F-002', '### 3) **F-003** — SURVIVES', '### **F-004**: REFUTED', '### F-005 — Survives with caveat', '### `F-006`'].join(
      '\n\nVerdict: x\n\n',
    );
    expect(parse(md).map((b) => [b.id, b.headingRest])).toEqual([
      ['F-002', ''],
      ['F-003', 'SURVIVES'],
      ['F-004', 'REFUTED'],
      ['F-005', 'Survives with caveat'],
      ['F-006', ''],
    ]);
  });

  it('reads an id in another case as written (the caller maps it), and a bare number is not an id', () => {
    expect(parse('### f-002: title\n\nVerdict: x\n').map((b) => [b.id, b.headingRest])).toEqual([['f-002', 'title']]);
    expect(parse('### 2.\n\nVerdict: x\n')).toEqual([]);
  });
});

describe('one-word values', () => {
  const WORDS = ['REFUTED', 'SURVIVES', 'SURVIVES-WITH-CAVEAT', 'UNVERIFIABLE'];
  it('drops decorations whose meaning is beyond doubt', () => {
    for (const v of ['**SURVIVES**', 'survives.', '`SURVIVES`', '_Survives_', '"SURVIVES"', '[SURVIVES]', '**Survives with caveat.**', 'survives_with_caveat'])
      expect(WORDS).toContain(normalizeWord(v));
  });
  it('never reads a word with more words as the word, and names the word it starts with', () => {
    for (const v of ['**SURVIVES**, mostly', 'SURVIVES — but see below', 'SURVIVES\nmostly', 'REFUTED (partly)']) expect(WORDS).not.toContain(normalizeWord(v));
    expect(leadingWord('**SURVIVES**, mostly', WORDS)).toBe('SURVIVES');
    expect(leadingWord('Survives with caveat — pool size', WORDS)).toBe('SURVIVES-WITH-CAVEAT');
    expect(leadingWord('SURVIVES', WORDS)).toBeUndefined();
    expect(leadingWord('Survivesish', WORDS)).toBeUndefined();
    expect(leadingWord('stale idempotency key', WORDS)).toBeUndefined();
  });
});

describe("field source keeps the value's own emphasis", () => {
  it('drops only the emphasis that closes the label', () => {
    const md = '### F-001\n\n**Verdict:** **SURVIVES**\n\n**Verdict**: *SURVIVES*\n\n- __Basis:__ `x`\n';
    const [block] = parse(md);
    expect(block.occurrences.verdict.map((f) => f.source)).toEqual(['**SURVIVES**', '*SURVIVES*']);
    expect(block.fields.basis.source).toBe('`x`');
  });
});

describe("plan votes keep the Basis whole too (docs/plan-items.md 'Basis')", () => {
  it('a plan vote carries the Basis as Markdown source; two Basis fields are refused naming both lines', async () => {
    const { readPlanVote, PLAN_FIELD_LABELS } = await import('./plan-verdict.js');
    const opts = { idPattern: /P-Opt-[0-9]+/i, fieldLabels: PLAN_FIELD_LABELS };
    const [block] = parseVerdictBlocks('### P-Opt-1\n**Verdict**: AGREE\n**Basis**: see `a.ts:1`\n\n- and [b](https://x.test/b)\n', opts);
    expect(readPlanVote(block)).toMatchObject({ vote: { basis: 'see `a.ts:1`\n\n- and [b](https://x.test/b)' } });
    const [twice] = parseVerdictBlocks('### P-Opt-1\n**Verdict**: AGREE\n**Basis**: one\n\n**Basis**: two\n', opts);
    expect(readPlanVote(twice)).toEqual({ problem: { line: 5, message: expect.stringMatching(/2 \*\*Basis\*\* fields \(lines 3(,| and) 5\)/) } });
  });
});
