import { describe, expect, it } from 'vitest';
import { EVIDENCE_LEDGER_MARKER, evidenceReadRows, extractCitations, hasReadingConfirmationHeading, isCitation, requiresEvidenceLedger } from './ledger.js';

describe('evidence ledger', () => {
  it('the marker counts only as a whole line', () => {
    expect(requiresEvidenceLedger(`# P\n  ${EVIDENCE_LEDGER_MARKER}  \n`)).toBe(true);
    expect(requiresEvidenceLedger(`say ${EVIDENCE_LEDGER_MARKER} inline`)).toBe(false);
    expect(requiresEvidenceLedger('<!-- okstra:evidence-ledger required-v2 -->')).toBe(false);
  });

  it('citations: backticked path:line or path:a-b, outside fences, deduplicated in order', () => {
    const md =
      'See `src/a.ts:3`, `lib/b.py:10-20`, `src/a.ts:3` again, `a:1`, `http://x.io:80`, `src/a.ts`, `src/c.ts:0`.\n```\n`src/fenced.ts:1`\n```\n~~~\n`src/tilde.ts:2`\n~~~\nand `README.md:7`';
    expect(extractCitations(md)).toEqual(['src/a.ts:3', 'lib/b.py:10-20', 'README.md:7']);
    expect(isCitation('path with space.ts:1')).toBe(false);
  });

  it('fences as CommonMark closes them: a longer fence holds a shorter one, a list item holds an indented fence; a line-opening ``` span is a span', () => {
    expect(extractCitations('````md\n```\n`src/in.ts:1`\n```\n`src/in.ts:2`\n````\nsee `src/out.ts:3`\n')).toEqual(['src/out.ts:3']);
    expect(extractCitations('1. Reproduce:\n    ```sh\n    grep `src/in.ts:1`\n    ```\n2. then `src/out.ts:2`\n')).toEqual(['src/out.ts:2']);
    expect(extractCitations('```retry()``` is never awaited: `src/out.ts:1`\n')).toEqual(['src/out.ts:1']);
    expect(extractCitations('text\n    ```\n`src/out.ts:1`\n')).toEqual(['src/out.ts:1']);
  });
  it('host:port and IP:port are not citations; path:line:col, dotted files and Makefile:12 are (docs/worker-audit-check.md "Citations")', () => {
    for (const notCitation of [
      'db.internal:5432',
      '127.0.0.1:8080',
      'localhost:3000',
      'api.example.com:443',
      '[::1]:8080',
      'buildbox07:22',
      'a:1',
      'https://x.io:443',
    ])
      expect(isCitation(notCitation), notCitation).toBe(false);
    for (const citation of [
      'schema.sql:5432',
      'src/a.ts:9',
      'src/a.ts:9:1',
      'Makefile:12',
      'src/a.ts:9:1-12:4',
      'Dockerfile:3',
      'README.md:7',
      'db.internal/x.ts:4',
    ])
      expect(isCitation(citation), citation).toBe(true);
    expect(extractCitations('`db.internal:5432` `127.0.0.1:8080` `localhost:3000` `schema.sql:5432` `src/a.ts:9` `src/a.ts:9:1` `Makefile:12`')).toEqual([
      'schema.sql:5432',
      'src/a.ts:9',
      'src/a.ts:9:1',
      'Makefile:12',
    ]);
  });

  it('Evidence read rows: first cell of each table row of that section only', () => {
    const sidecar = [
      '# Audit',
      '| `src/before.ts:1` | not in section |',
      '## Evidence read',
      '',
      '| citation | note |',
      '| --- | --- |',
      '| `src/a.ts:3` | x |',
      '|`lib/b.py:10-20`|y|',
      '| src/plain.ts:4 | not backticked |',
      '### detail',
      '| `src/sub.ts:5` | sub-heading keeps the section |',
      '## Other',
      '| `src/after.ts:9` | no |',
    ].join('\n');
    expect(evidenceReadRows(sidecar)).toEqual(['src/a.ts:3', 'lib/b.py:10-20', 'src/sub.ts:5']);
  });

  it('the Reading Confirmation heading at any level, not in prose or fences', () => {
    expect(hasReadingConfirmationHeading('## 0. Reading Confirmation\n')).toBe(true);
    expect(hasReadingConfirmationHeading('### 0. reading confirmation (files)\n')).toBe(true);
    expect(hasReadingConfirmationHeading('We skip the 0. Reading Confirmation section.\n')).toBe(false);
    expect(hasReadingConfirmationHeading('```\n## 0. Reading Confirmation\n```\n')).toBe(false);
  });
});
