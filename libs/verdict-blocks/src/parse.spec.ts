import { describe, expect, it } from 'vitest';
import { MAX_MARKDOWN_NESTING, markdownNesting, parseVerdictBlocks, type VerdictBlock } from './index.js';

const FINDING = /F-\d{3}/;

/** `{ id: { field: value } }` for compact assertions. */
function valuesOf(blocks: VerdictBlock[]): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const b of blocks) out[b.id] = Object.fromEntries(Object.entries(b.fields).map(([k, f]) => [k, f.value]));
  return out;
}

const REALISTIC = `I'll re-verify each finding in my batch against the current tree. I read
\`src/refunds/queue.ts\`, \`src/refunds/timeout.ts\` and the retry worker.

- PROGRESS: 2026-11-29T08:00:00Z round-1 reading src/refunds/queue.ts

## Re-verification results

### F-001 — refund timeout races the settlement webhook

**Verdict**: REFUTED
**Basis**: \`settle()\` takes the row lock (\`queue.ts:88\`) before the timeout
handler reads the status, so the "race" cannot interleave the way the finding
claims. The handler re-reads inside the same transaction.

Some extra prose the model wrote between blocks, which must not become a field.

### \`F-002\`

**Verdict:** SURVIVES
**Basis:** confirmed — \`timeout.ts:41\` compares seconds against milliseconds.

#### F-003

- **Verdict**: survives-with-caveat
- **Basis**: the retry cap is real, but only for card refunds; bank transfers
  take a different path (\`bank.ts:12\`).

### **F-004**: stale idempotency key

Verdict: UNVERIFIABLE
Basis: the key store is behind an interface whose implementation is not in the
repository.

To illustrate what the lead's prompt asked for, the expected shape is:

\`\`\`markdown
### F-999
**Verdict**: SURVIVES
**Basis**: this is an example, not a verdict
\`\`\`

## Summary

Verdict: overall the refund queue is sound.
`;

describe('parseVerdictBlocks on a realistic adversarial response', () => {
  const blocks = parseVerdictBlocks(REALISTIC, { idPattern: FINDING });

  it('finds exactly the four real blocks, ignoring the fenced example and the summary', () => {
    expect(blocks.map((b) => b.id)).toEqual(['F-001', 'F-002', 'F-003', 'F-004']);
    expect(blocks.map((b) => b.depth)).toEqual([3, 3, 4, 3]);
  });

  it('reads every Verdict spelling and multi-line Basis paragraphs', () => {
    expect(valuesOf(blocks)).toEqual({
      'F-001': {
        verdict: 'REFUTED',
        basis:
          'settle() takes the row lock (queue.ts:88) before the timeout\nhandler reads the status, so the "race" cannot interleave the way the finding\nclaims. The handler re-reads inside the same transaction.',
      },
      'F-002': { verdict: 'SURVIVES', basis: 'confirmed — timeout.ts:41 compares seconds against milliseconds.' },
      'F-003': {
        verdict: 'survives-with-caveat',
        basis: 'the retry cap is real, but only for card refunds; bank transfers\ntake a different path (bank.ts:12).',
      },
      'F-004': {
        verdict: 'UNVERIFIABLE',
        basis: 'the key store is behind an interface whose implementation is not in the\nrepository.',
      },
    });
  });

  it('gives 1-based source lines for headings and fields', () => {
    const lines = REALISTIC.split('\n');
    for (const block of blocks) {
      expect(lines[block.headingLine - 1]).toMatch(new RegExp(`^#{3,4} .*${block.id}`));
      expect(lines[block.fields.verdict.line - 1].toLowerCase()).toContain('verdict');
      expect(lines[block.fields.basis.line - 1].toLowerCase()).toContain('basis');
    }
    expect(blocks[0].headingLine).toBe(8);
    expect(blocks[0].fields.verdict.line).toBe(10);
  });

  it('keeps the prose between blocks in text but not in fields', () => {
    expect(blocks[0].text).toContain('Some extra prose the model wrote between blocks');
    expect(Object.keys(blocks[0].fields)).toEqual(['verdict', 'basis']);
    expect(blocks[3].text).not.toContain('F-999');
    expect(blocks[3].text).toContain('To illustrate what the lead');
  });

  it('parses CRLF text to the same blocks and lines', () => {
    const crlf = parseVerdictBlocks(REALISTIC.replace(/\n/g, '\r\n'), { idPattern: FINDING });
    expect(crlf).toEqual(blocks);
  });

  it('is not moved by trailing spaces and extra blank lines', () => {
    const noisy = REALISTIC.replace(/\n/g, '   \n\n\n').replace(/\*\*Basis\*\*: /g, '**Basis**:    ');
    const again = parseVerdictBlocks(noisy, { idPattern: FINDING });
    expect(again.map((b) => [b.id, b.fields.verdict.value])).toEqual(blocks.map((b) => [b.id, b.fields.verdict.value]));
    // every line now stands alone, so only the first line of each Basis is in the field
    expect(again[1].fields.basis.value).toBe('confirmed — timeout.ts:41 compares seconds against milliseconds.');
  });
});

describe('headings', () => {
  it('takes the id from backticks, emphasis, brackets and trailing text', () => {
    const md = ['### `F-001`', '### **F-002** — title', '### [F-003] title', '### F-004: title', '### _F-005_', '### (F-006)', '#### F-007 - with a dash'].join(
      '\n\nVerdict: x\n\n',
    );
    expect(parseVerdictBlocks(md, { idPattern: FINDING }).map((b) => b.id)).toEqual(['F-001', 'F-002', 'F-003', 'F-004', 'F-005', 'F-006', 'F-007']);
  });

  it('without a pattern takes the first token of every depth-2/3/4 heading', () => {
    const md = '# Title\n\n## Part\n\n### F-001 — race\n\n#### Notes here\n\n##### deep\n';
    expect(parseVerdictBlocks(md).map((b) => [b.id, b.depth])).toEqual([
      ['Part', 2],
      ['F-001', 3],
      ['Notes', 4],
    ]);
  });

  it('does not take an id that continues past the pattern', () => {
    expect(parseVerdictBlocks('### F-0031\n\nVerdict: x', { idPattern: FINDING })).toEqual([]);
    expect(parseVerdictBlocks('### XF-003\n\nVerdict: x', { idPattern: FINDING })).toEqual([]);
  });

  it('accepts anchored patterns and ids with several dashes', () => {
    const md = '### P-Step-2-3 — wire the adapter\n\n**Verdict**: AGREE\n\n### `P-Dep-1`\n\nVerdict: DISAGREE (b)\n';
    const blocks = parseVerdictBlocks(md, { idPattern: /^P-(Opt|Step|Dep|Val|Rb)-[0-9]+(-[0-9]+)*$/ });
    expect(valuesOf(blocks)).toEqual({ 'P-Step-2-3': { verdict: 'AGREE' }, 'P-Dep-1': { verdict: 'DISAGREE (b)' } });
  });

  it('accepts patterns with spaces, matched at the start of the heading', () => {
    const blocks = parseVerdictBlocks('### Finding 12 is wrong\n\nVerdict: x', { idPattern: /Finding \d+/ });
    expect(blocks.map((b) => b.id)).toEqual(['Finding 12']);
  });

  it('reads depths 2–4 (setext level 2 too), ignores other depths, and honours the depths option', () => {
    const md = '# F-000\n\nVerdict: z\n\n## F-001\n\nVerdict: a\n\nF-002\n-----\n\nVerdict: b\n\n##### F-003\n\nVerdict: c\n';
    expect(parseVerdictBlocks(md, { idPattern: FINDING }).map((b) => b.id)).toEqual(['F-001', 'F-002']);
    expect(parseVerdictBlocks(md, { idPattern: FINDING, depths: [2, 5] }).map((b) => b.id)).toEqual(['F-001', 'F-002', 'F-003']);
  });
});

describe('block extent', () => {
  it('ends at a heading of the same or lower depth even when it is not a block', () => {
    const md = '### F-001\n\nVerdict: a\n\n### Closing remarks\n\nBasis: not part of F-001\n';
    const [block] = parseVerdictBlocks(md, { idPattern: FINDING });
    expect(block.fields.basis).toBeUndefined();
    expect(block.text).toBe('Verdict: a');
  });

  it('keeps a deeper non-block heading inside the block', () => {
    const md = '### F-001\n\nVerdict: a\n\n#### Evidence\n\nBasis: in the evidence section\n\n### F-002\n\nVerdict: b\n';
    const blocks = parseVerdictBlocks(md, { idPattern: FINDING });
    expect(valuesOf(blocks)).toEqual({ 'F-001': { verdict: 'a', basis: 'in the evidence section' }, 'F-002': { verdict: 'b' } });
    expect(blocks[0].text).toBe('Verdict: a\n\nEvidence\n\nBasis: in the evidence section');
  });

  it('ends a ### block at a nested #### block so fields belong to the innermost block', () => {
    const md = '### F-001\n\nVerdict: a\n\n#### F-002\n\nVerdict: b\n\nBasis: b-basis\n';
    expect(valuesOf(parseVerdictBlocks(md, { idPattern: FINDING }))).toEqual({
      'F-001': { verdict: 'a' },
      'F-002': { verdict: 'b', basis: 'b-basis' },
    });
  });

  it('returns nothing for empty text or text without blocks', () => {
    expect(parseVerdictBlocks('')).toEqual([]);
    expect(parseVerdictBlocks('\r\n\r\n')).toEqual([]);
    expect(parseVerdictBlocks('I could not complete the review.\n', { idPattern: FINDING })).toEqual([]);
  });
});

describe('code and quotes are ignored', () => {
  it('ignores fake headings and fields in ``` and ~~~ fences, indented code, quotes and HTML', () => {
    const md = [
      '### F-001',
      '',
      '```',
      '**Verdict**: SURVIVES',
      '```',
      '',
      '~~~text',
      '### F-002',
      '**Verdict**: REFUTED',
      '~~~',
      '',
      '    ### F-003 indented code',
      '',
      '> ### F-004',
      '> **Verdict**: SURVIVES',
      '',
      '<!--',
      '### F-005',
      '-->',
      '',
      '**Verdict**: REFUTED',
      '**Basis**: the real one',
    ].join('\n');
    const blocks = parseVerdictBlocks(md, { idPattern: FINDING });
    expect(blocks.map((b) => b.id)).toEqual(['F-001']);
    expect(blocks[0].fields.verdict).toEqual({ value: 'REFUTED', source: 'REFUTED', line: 21 });
    expect(blocks[0].duplicateFields).toEqual([]);
    expect(blocks[0].text).toBe('Verdict: REFUTED\nBasis: the real one');
  });

  it('treats an unclosed fence as running to the end of the document', () => {
    const md = '### F-001\n\nVerdict: a\n\n```\n### F-002\nVerdict: b\n';
    expect(parseVerdictBlocks(md, { idPattern: FINDING }).map((b) => b.id)).toEqual(['F-001']);
  });
});

describe('fields', () => {
  it('accepts bold, bold-with-colon, italic, plain and list forms, any case', () => {
    const md = [
      '### F-001',
      '**Verdict**: a',
      '### F-002',
      '**Verdict:** b',
      '### F-003',
      '*Verdict*: c',
      '### F-004',
      'VERDICT: d',
      '### F-005',
      '- **verdict**: e',
      '### F-006',
      '* Verdict: f',
      '### F-007',
      '1. **Verdict** : g',
      '### F-008',
      '- outer\n  - **Verdict**: h',
      '### F-009',
      '__Verdict__:   i   ',
    ].join('\n\n');
    const blocks = parseVerdictBlocks(md, { idPattern: FINDING });
    expect(blocks.map((b) => b.fields.verdict?.value)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  });

  it('normalizes multi-word labels', () => {
    const md = '### F-001\n\n- **Breakage  Kind**: b\n- **Fixability**: local-fix\n- Disagree basis: because\n';
    expect(valuesOf(parseVerdictBlocks(md))).toEqual({
      'F-001': { 'breakage kind': 'b', fixability: 'local-fix', 'disagree basis': 'because' },
    });
  });

  it('strips inline Markdown from values', () => {
    const md = '### F-001\n\n**Basis**: see [the queue](https://x.test/q) and `queue.ts:88`, **really** ![img](a.png)\n';
    expect(parseVerdictBlocks(md)[0].fields.basis.value).toBe('see the queue and queue.ts:88, really img');
  });

  it('splits one paragraph into several fields and keeps continuation lines', () => {
    const md = '### F-001\nVerdict: REFUTED\nBasis: first line\nsecond line\nthird line\nConfidence: high\n';
    const [block] = parseVerdictBlocks(md);
    expect(block.fields).toEqual({
      verdict: { value: 'REFUTED', source: 'REFUTED', line: 2 },
      basis: { value: 'first line\nsecond line\nthird line', source: 'first line\nsecond line\nthird line', line: 3 },
      confidence: { value: 'high', source: 'high', line: 6 },
    });
  });

  it('takes the next paragraph for a label left empty', () => {
    const md = '### F-001\n\n**Verdict**: SURVIVES\n\n**Basis**:\n\nThe handler compares seconds\nwith milliseconds.\n\nMore prose.\n';
    const [block] = parseVerdictBlocks(md);
    expect(block.fields.basis).toEqual({
      value: 'The handler compares seconds\nwith milliseconds.',
      source: 'The handler compares seconds\nwith milliseconds.\n\nMore prose.',
      line: 5,
    });
  });

  it('keeps an empty value when the next paragraph is another field', () => {
    const md = '### F-001\n\n**Basis**:\n\n**Verdict**: SURVIVES\n';
    expect(valuesOf(parseVerdictBlocks(md))).toEqual({ 'F-001': { basis: '', verdict: 'SURVIVES' } });
  });

  it('keeps the first occurrence and reports duplicates once', () => {
    const md = '### F-001\n\n**Verdict**: SURVIVES\n\n**Verdict**: REFUTED\n\nverdict: again\n\nBasis: x\n';
    const [block] = parseVerdictBlocks(md);
    expect(block.fields.verdict).toMatchObject({ value: 'SURVIVES', line: 3 });
    expect(block.occurrences.verdict.map((f) => f.line)).toEqual([3, 5, 7]);
    expect(block.duplicateFields).toEqual(['verdict']);
  });

  it('does not take URLs, times or long sentences as labels', () => {
    const md = '### F-001\n\nhttps://example.test/path\n\nAt 10:30 the job ran.\n\nThis is a long sentence that ends with a colon: and more\n';
    expect(parseVerdictBlocks(md)[0].fields).toEqual({});
  });

  it('handles hard line breaks (two trailing spaces and backslash)', () => {
    const md = '### F-001\n**Verdict**: SURVIVES  \n**Basis**: one\\\ntwo\n';
    expect(valuesOf(parseVerdictBlocks(md))).toEqual({ 'F-001': { verdict: 'SURVIVES', basis: 'one\ntwo' } });
    expect(parseVerdictBlocks(md)[0].fields.basis.line).toBe(3);
  });

  it('reads fields inside a table-free block that mixes lists and paragraphs', () => {
    const md = [
      '#### `F-010` — duplicate refund on retry',
      '',
      'After reading the retry worker:',
      '',
      '- **Verdict**: SURVIVES-WITH-CAVEAT',
      '- **Basis**: duplicates happen only when the webhook',
      '  arrives after the second attempt.',
      '',
      '| file | line |',
      '| --- | --- |',
      '| retry.ts | 20 |',
    ].join('\r\n');
    const [block] = parseVerdictBlocks(md, { idPattern: FINDING });
    expect(block.fields.basis).toEqual({
      value: 'duplicates happen only when the webhook\narrives after the second attempt.',
      source: 'duplicates happen only when the webhook\narrives after the second attempt.\n\n| file | line |\n| --- | --- |\n| retry.ts | 20 |',
      line: 6,
    });
    expect(block.text).toContain('retry.ts | 20');
  });
});

describe('nesting guard (docs/convergence.md "Response blocks")', () => {
  it('64k nested block quotes (128 KB) are refused at once, naming the file and line', () => {
    const text = '### F-001\n\n' + '> '.repeat(65_536) + 'x\n';
    expect(() => parseVerdictBlocks(text, { file: 'r.md' })).toThrow(
      expect.objectContaining({ exitCode: 2, file: 'r.md', field: 'line 3', message: expect.stringContaining('nested 65536 levels deep') }),
    );
  });

  it('a list nested by indentation past the limit is refused; normal nesting parses', () => {
    const deep = Array.from({ length: MAX_MARKDOWN_NESTING + 2 }, (_, i) => ' '.repeat(2 * i) + '- x').join('\n');
    expect(markdownNesting(deep).depth).toBeGreaterThan(MAX_MARKDOWN_NESTING);
    expect(() => parseVerdictBlocks(deep)).toThrow(/nested/);
    const fine = '### F-001\n\n> quote\n> > nested\n\n- a\n  - b\n    1. c\n\n**Verdict**: AGREE\n';
    expect(markdownNesting(fine).depth).toBeLessThan(8);
    expect(parseVerdictBlocks(fine).map((b) => b.id)).toEqual(['F-001']);
  });
});
