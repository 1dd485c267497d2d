import { describe, expect, it } from 'vitest';
import { roundPlan } from './test-support/round-plan.js';
import { collectRoundResults } from './collect-results.js';

/** One worker (codex) asked about F-001 and F-002 in adversarial mode. */
const plan = roundPlan({ codex: ['F-001', 'F-002'] }, 2);
const collect = (text: string) =>
  collectRoundResults({
    plan,
    planFile: 'plan.json',
    mode: 'adversarial',
    responses: [{ workerId: 'codex', file: 'codex.md', text }],
    dispatches: [{ workerId: 'codex', status: 'completed', durationMs: 1 }],
  }).workers[0].verdicts;
const F2 = '\n\n### F-002\n\n**Verdict**: SURVIVES\n**Basis**: fine.\n';

describe('Basis is kept whole and exact (docs/convergence.md "Response blocks")', () => {
  const basisOf = (block: string) => collect(block + F2)[0].explanation;

  it('keeps a caveat written in a second paragraph', () => {
    expect(basisOf('### F-001\n\n**Verdict**: SURVIVES-WITH-CAVEAT\n**Basis**: the cap is real.\n\nThe caveat: only card refunds hit it.')).toBe(
      'the cap is real.\n\nThe caveat: only card refunds hit it.',
    );
  });
  it('keeps a continuation line that looks like a field', () => {
    expect(basisOf('### F-001\n**Verdict**: REFUTED\n**Basis**: the lock is taken first.\nIn production: the pool is 32.')).toBe(
      'the lock is taken first.\nIn production: the pool is 32.',
    );
  });
  it('keeps every bullet', () => {
    expect(basisOf('### F-001\n\n**Verdict**: REFUTED\n**Basis**:\n\n- `a.ts:1` locks\n- `b.ts:2` re-reads')).toBe('- `a.ts:1` locks\n- `b.ts:2` re-reads');
  });
  it('keeps backticks and link targets', () => {
    expect(basisOf('### F-001\n\nVerdict: SURVIVES\nBasis: `src/a.ts:9` per [the doc](https://x.test/d).')).toBe(
      '`src/a.ts:9` per [the doc](https://x.test/d).',
    );
  });
  it('accepts a code block as the Basis', () => {
    const votes = collect('### F-001\n\n**Verdict**: REFUTED\n\n**Basis**:\n\n```ts\nawait lock(row);\n```' + F2);
    expect(votes[0]).toMatchObject({ verdict: 'disagree', explanation: '```ts\nawait lock(row);\n```', disagreeBasis: '```ts\nawait lock(row);\n```' });
  });
  it('refuses two Basis fields naming both lines; keeps Basis and Explanation both, in order', () => {
    expect(() => collect('### F-001\n\n**Verdict**: REFUTED\n**Basis**: one\n\n**Basis**: two' + F2)).toThrow(
      /finding F-001: two \*\*Basis\*\* fields in one block \(lines 4 and 6\)/,
    );
    expect(collect('### F-001\n\n**Verdict**: REFUTED\n**Explanation**: one\n**Basis**: two' + F2)[0].explanation).toBe('one\n\ntwo');
  });
  it('refuses two Verdict fields naming both lines', () => {
    expect(() => collect('### F-001\n\n**Verdict**: REFUTED\n**Basis**: one\n\n**Verdict**: SURVIVES' + F2)).toThrow(
      /two \*\*Verdict\*\* fields in one block \(lines 3 and 6\)/,
    );
  });
});

describe('accept what is unambiguous, refuse what is not (docs/convergence.md "Verdict words")', () => {
  const verdictOf = (block: string) => collect(block + F2)[0];

  it('reads a verdict on the heading line, with the Basis below', () => {
    for (const heading of ['### F-001: REFUTED', '### F-001 — REFUTED', '### F-001 - **Refuted**', '#### `F-001`: refuted.']) {
      expect(verdictOf(`${heading}\n\n**Basis**: the lock.`)).toMatchObject({
        verdict: 'disagree',
        explanation: 'the lock.',
        sourceVerdict: 'REFUTED',
        line: 1,
      });
    }
    expect(verdictOf('### F-001 — Survives with caveat\n\nBasis: cards only.').verdict).toBe('supplement');
  });
  it('accepts a heading verdict and a Verdict field that agree, refuses them when they differ', () => {
    expect(verdictOf('### F-001: REFUTED\n\n**Verdict**: refuted\n**Basis**: x').line).toBe(3);
    expect(() => verdictOf('### F-001: REFUTED\n\n**Verdict**: SURVIVES\n**Basis**: x')).toThrow(
      /the heading says REFUTED \(line 1\) but the \*\*Verdict\*\* field says SURVIVES \(line 3\)/,
    );
  });
  it('refuses a heading that starts with a verdict word but says more', () => {
    expect(() => verdictOf('### F-001: REFUTED — the lock is taken first\n\n**Basis**: x')).toThrow(/heading .* starts with the verdict REFUTED but says more/);
    expect(() => verdictOf('### F-001 — **SURVIVES**, mostly\n\n**Basis**: x')).toThrow(/starts with the verdict SURVIVES but says more/);
  });
  it('reads a title that merely starts with a verdict-like word as a title', () => {
    expect(verdictOf('### F-001 — Unverifiable webhook signature\n\n**Verdict**: SURVIVES\n**Basis**: x').verdict).toBe('agree');
    expect(() => verdictOf('### F-001 — Unverifiable webhook signature\n\n**Basis**: x')).toThrow(/F-001: dispatched finding with no verdict/);
  });
  it('reads numbered and emboldened headings and ids in another case as the dispatched id', () => {
    const votes = collect('### 1. **f-001**\n\nVerdict: SURVIVES\nBasis: a\n\n### 2) F-002\n\nVerdict: REFUTED\nBasis: b\n');
    expect(votes.map((v) => [v.findingId, v.verdict])).toEqual([
      ['F-001', 'agree'],
      ['F-002', 'disagree'],
    ]);
    expect(() => collect('### F-001\nVerdict: SURVIVES\nBasis: a\n\n### f-001\nVerdict: REFUTED\nBasis: a' + F2)).toThrow(/two verdicts for one finding/);
    // The same block printed twice is one answer (docs/convergence.md "Response blocks").
    expect(collect('### F-001\nVerdict: SURVIVES\nBasis: a\n\n### f-001\nVerdict: SURVIVES\nBasis: a' + F2)[0]).toMatchObject({
      verdict: 'agree',
      explanation: 'a',
    });
  });
  it('refuses an id that matches two dispatched ids in another case', () => {
    const twoCase = { ...plan, batches: [{ ...plan.batches[0], findingIds: ['F-a', 'F-A'] }] };
    const run = () =>
      collectRoundResults({
        plan: twoCase,
        planFile: 'plan.json',
        mode: 'adversarial',
        responses: [{ workerId: 'codex', file: 'codex.md', text: '### f-a\nVerdict: SURVIVES\nBasis: x\n' }],
        dispatches: [{ workerId: 'codex', status: 'completed', durationMs: 1 }],
      });
    expect(run).toThrow(/f-a: the id matches F-a and F-A in another case/);
  });
  it('reads decorated words whose meaning is beyond doubt, and refuses a word with more words', () => {
    for (const v of ['**SURVIVES**', '`survives`', '_Survives._', '[SURVIVES]']) expect(verdictOf(`### F-001\nVerdict: ${v}\nBasis: x`).verdict).toBe('agree');
    expect(() => verdictOf('### F-001\nVerdict: **SURVIVES**, mostly\nBasis: x')).toThrow(
      /verdict '\*\*SURVIVES\*\*, mostly' is SURVIVES with more words: write the word alone and the rest in \*\*Basis\*\*/,
    );
    expect(() => verdictOf('### F-001\nVerdict: REFUTED — see below\nBasis: x')).toThrow(/is REFUTED with more words/);
  });
  it('a verdict asked or trailing off is no vote: `?` after the word, an ellipsis (`...` as `…`), in the field and the heading', () => {
    for (const v of ['REFUTED? Not really', 'SURVIVES?', 'SURVIVES ?', '**SURVIVES**?', 'SURVIVES (?)', 'SURVIVES...', 'SURVIVES…', '_Survives.._'])
      expect(() => verdictOf(`### F-001\nVerdict: ${v}\nBasis: x`), v).toThrow(/is SURVIVES with more words|is REFUTED with more words/);
    for (const h of ['### F-001: REFUTED?', '### F-001 — SURVIVES...', '### F-001 — SURVIVES ?'])
      expect(() => verdictOf(`${h}\nBasis: x`), h).toThrow(/starts with the verdict (REFUTED|SURVIVES) but says more/);
    // One final stop or `!` is still decoration.
    for (const v of ['SURVIVES.', 'SURVIVES!', '**SURVIVES.**', 'SURVIVES!!']) expect(verdictOf(`### F-001\nVerdict: ${v}\nBasis: x`).verdict, v).toBe('agree');
  });
});

describe('a heading that names two dispatched findings (breaker)', () => {
  it('refuses `### F-001, F-002` with one verdict: which findings it covers is not beyond doubt (was a silent vote for F-001 only)', () => {
    for (const h of ['### F-001, F-002', '### F-001 / F-002', '### F-001 and F-002', '### F-001 & f-002']) {
      expect(() => collect(`${h}\n**Verdict**: REFUTED\n**Basis**: x.` + F2)).toThrow(/F-001: the heading names more than one finding \(F-001 and F-002\)/);
    }
  });
  it('still reads a title that mentions another finding later', () => {
    expect(collect('### F-001 — same root cause as F-002\n**Verdict**: REFUTED\n**Basis**: x.' + F2)[0].verdict).toBe('disagree');
  });
});
