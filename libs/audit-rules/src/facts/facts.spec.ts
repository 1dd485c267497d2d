// The fact table is data the checks and the generator read; docs/run-audit.md renders it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVARIANTS } from '../invariants.js';
import { select } from './path.js';
import { renderFactTable } from './render.js';
import { FACT_ARTIFACTS, FACT_EDGES } from './table.js';

const DOC_PATH = join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'run-audit.md');
const START = '<!-- fact-table:start (generated from libs/audit-rules/src/facts/table.ts; UPDATE_FACT_TABLE=1 npx vitest run src/facts) -->';
const END = '<!-- fact-table:end -->';

describe('the fact table', () => {
  it('is what docs/run-audit.md shows (UPDATE_FACT_TABLE=1 rewrites the doc section)', () => {
    const doc = readFileSync(DOC_PATH, 'utf8');
    const from = doc.indexOf(START);
    const to = doc.indexOf(END);
    expect(from, 'docs/run-audit.md has the fact-table markers').toBeGreaterThan(0);
    const want = `${START}\n${renderFactTable()}\n${END}`;
    if (process.env.UPDATE_FACT_TABLE === '1') writeFileSync(DOC_PATH, doc.slice(0, from) + want + doc.slice(to + END.length));
    else expect(doc.slice(from, to + END.length)).toBe(want);
  });

  it('names each edge once, ends in known artifacts with paths that parse, and known invariants', () => {
    expect(new Set(FACT_EDGES.map((e) => e.id)).size).toBe(FACT_EDGES.length);
    const invariants = new Set(INVARIANTS.map((i) => i.id as string));
    for (const e of FACT_EDGES) {
      expect(invariants.has(e.invariant), e.id).toBe(true);
      for (const end of [e.a, e.b]) {
        const [artifact, path] = end.split('#') as [string, string];
        expect(Object.keys(FACT_ARTIFACTS), `${e.id}: ${end}`).toContain(artifact);
        expect(() => select({}, path), `${e.id}: ${end}`).not.toThrow();
      }
    }
  });
});

describe('fact paths', () => {
  const doc = {
    workers: [
      { workerId: 'a', status: 'completed', model: 'm1' },
      { workerId: 'b', status: 'not-run' },
    ],
    records: [
      { workerId: 'a', kind: 'initial' },
      { workerId: 'a', kind: 'initial-retry' },
    ],
  };
  it('keys array items, filters them and keeps the last per key', () => {
    expect(select(doc, 'workers[@workerId].model').map((h) => [h.key, h.value])).toEqual([
      ['a', 'm1'],
      ['b', undefined],
    ]);
    expect(select(doc, 'workers[?status=completed|error][@workerId].workerId').map((h) => h.key)).toEqual(['a']);
    expect(select(doc, 'records[@workerId:last].kind').map((h) => h.value)).toEqual(['initial-retry']);
    expect(select(doc, 'records[*].kind', 'doc').map((h) => [h.key, h.loc])).toEqual([
      ['doc', ['records', 0, 'kind']],
      ['doc', ['records', 1, 'kind']],
    ]);
  });
});
