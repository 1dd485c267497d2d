import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '@okstra/core';
import { collectVerdicts, collectVerdictsWithProblems } from './collect.js';
import { extractPlanItems } from './extract.js';
import { EXAMPLE_CLAUDE, EXAMPLE_CODEX, examplePlan } from './test-support/fixtures.js';

const QUEUE = ['P-Opt-1', 'P-Step-1-1', 'P-Val-1-1'];

function response(blocks: string, workerId = 'codex') {
  return { workerId, file: `${workerId}.md`, markdown: blocks };
}

function problemOf(markdown: string, queue = QUEUE) {
  const { problems } = collectVerdictsWithProblems(queue, [response(markdown)]);
  return problems;
}

const OK_TAIL = '### P-Step-1-1\n**Verdict**: AGREE\n\n### P-Val-1-1\n**Verdict**: SUPPLEMENT\n**Basis**: add a timeout\n';

describe('collectVerdicts on the committed example responses', () => {
  const queue = extractPlanItems(examplePlan()).map((i) => i.id);
  const envelope = collectVerdicts(queue, [
    { workerId: 'codex', file: 'codex.md', markdown: readFileSync(EXAMPLE_CODEX, 'utf8') },
    { workerId: 'claude', file: 'claude.md', markdown: readFileSync(EXAMPLE_CLAUDE, 'utf8') },
  ]);

  it('runs on real LLM-style files: codex is CRLF, claude has a fenced fake heading', () => {
    expect(
      readFileSync(EXAMPLE_CODEX, 'utf8')
        .split('\n')
        .every((line, i, all) => i === all.length - 1 || line.endsWith('\r')),
    ).toBe(true);
    expect(readFileSync(EXAMPLE_CLAUDE, 'utf8')).toContain('```markdown\n### P-Step-3-2\n**Verdict**: DISAGREE (c)');
  });

  it('reads every item of both workers, contributors sorted, verdicts sorted by worker', () => {
    expect(envelope.contributors).toEqual(['claude', 'codex']);
    expect(envelope.items.map((i) => i.id)).toEqual(queue);
    expect(envelope.items.every((i) => i.verdicts.map((v) => v.workerId).join() === 'claude,codex')).toBe(true);
  });

  it('reads the mixed spellings: DISAGREE(b) + "in place" in CRLF, DISAGREE [d] with a Fixability field, lowercase agree', () => {
    const get = (id: string, w: string) => envelope.items.find((i) => i.id === id)!.verdicts.find((v) => v.workerId === w)!;
    expect(get('P-Step-3-2', 'codex')).toEqual({
      workerId: 'codex',
      verdict: 'DISAGREE',
      breakageKind: 'b',
      fixability: 'in-place',
      basis:
        'The files cell lists `src/payments/…/outbox-registry.ts`, which does not resolve. The registry is\n`src/payments/outbox/registry.ts:1`. Fix the path in the row.',
    });
    expect(get('P-Val-3-2', 'claude')).toMatchObject({ verdict: 'DISAGREE', breakageKind: 'd', fixability: 'in-place' });
    expect(get('P-Opt-1', 'codex')).toMatchObject({ verdict: 'AGREE', breakageKind: null, fixability: null });
    expect(get('P-Step-2-4', 'codex').verdict).toBe('SUPPLEMENT');
    expect(get('P-Step-1-2', 'claude').verdict).toBe('AGREE');
  });

  it('ignores the fake DISAGREE (c) block inside a code fence (claude keeps its AGREE on P-Step-3-2)', () => {
    expect(envelope.items.find((i) => i.id === 'P-Step-3-2')!.verdicts.find((v) => v.workerId === 'claude')!.verdict).toBe('AGREE');
  });
});

describe('verdict grammar', () => {
  it('takes the kind from a Breakage kind field and the fixability from inside the parentheses', () => {
    const env = collectVerdicts(QUEUE, [
      response('### P-Opt-1\n**Verdict**: DISAGREE\n**Breakage kind**: (c) out of order\n**Fixability**: replan\n\n' + OK_TAIL),
    ]);
    expect(env.items[0].verdicts[0]).toMatchObject({ breakageKind: 'c', fixability: 'replan' });
    const env2 = collectVerdicts(QUEUE, [response('### P-Opt-1\n**Verdict**: DISAGREE (a, needs-clarification)\n\n' + OK_TAIL)]);
    expect(env2.items[0].verdicts[0]).toMatchObject({ breakageKind: 'a', fixability: 'needs-clarification' });
  });

  it('text after the kind that is not a fixability is a description: the Fixability field is still needed', () => {
    const env = collectVerdicts(QUEUE, [response('### P-Opt-1\n**Verdict**: DISAGREE (b — abbreviated path)\n**Fixability**: in-place\n\n' + OK_TAIL)]);
    expect(env.items[0].verdicts[0]).toMatchObject({ breakageKind: 'b', fixability: 'in-place' });
    expect(problemOf('### P-Opt-1\n**Verdict**: DISAGREE (b — abbreviated path)\n\n' + OK_TAIL)[0].message).toMatch(/without a fixability value/);
    expect(problemOf('### P-Opt-1\n**Verdict**: DISAGREE (ab)\n**Fixability**: replan\n\n' + OK_TAIL)[0].message).toBe(
      "DISAGREE (ab): 'ab' is not one letter: expected exactly one kind letter a–e",
    );
  });

  it('ignores Fixability/Breakage fields on AGREE (LLMs write "n/a")', () => {
    const env = collectVerdicts(QUEUE, [response('### P-Opt-1\n**Verdict**: AGREE\n**Fixability**: n/a\n\n' + OK_TAIL)]);
    expect(env.items[0].verdicts[0]).toMatchObject({ verdict: 'AGREE', fixability: null, breakageKind: null });
  });
});

describe('hard errors name worker, item and line', () => {
  it('an assigned item left unanswered (no block)', () => {
    const p = problemOf('Preamble.\n\n### P-Opt-1\n**Verdict**: AGREE\n\n### P-Step-1-1\n**Verdict**: AGREE\n');
    expect(p).toEqual([
      { workerId: 'codex', itemId: 'P-Val-1-1', file: 'codex.md', line: 7, message: expect.stringMatching(/^assigned item left unanswered/) },
    ]);
  });

  it('a block with no Verdict value', () => {
    expect(problemOf('### P-Opt-1\n**Basis**: looked at it\n\n' + OK_TAIL)).toMatchObject([
      { itemId: 'P-Opt-1', line: 1, message: expect.stringMatching(/no \*\*Verdict\*\* value/) },
    ]);
  });

  it('a verdict for an item outside the queue', () => {
    expect(problemOf('### P-Opt-1\n**Verdict**: AGREE\n\n### P-Step-9-1\n**Verdict**: AGREE\n\n' + OK_TAIL)).toMatchObject([
      { itemId: 'P-Step-9-1', line: 4, message: 'verdict for an item outside the persisted queue' },
    ]);
  });

  it('a DISAGREE with no breakage kind', () => {
    expect(problemOf('### P-Opt-1\n**Verdict**: DISAGREE\n**Fixability**: in-place\n\n' + OK_TAIL)).toMatchObject([
      { itemId: 'P-Opt-1', line: 2, message: expect.stringMatching(/no breakage kind/) },
    ]);
  });

  it('a DISAGREE without fixability', () => {
    expect(problemOf('### P-Opt-1\n**Verdict**: DISAGREE (b)\n**Basis**: path\n\n' + OK_TAIL)).toMatchObject([
      { itemId: 'P-Opt-1', line: 2, message: expect.stringMatching(/without a fixability value/) },
    ]);
  });

  it('a kind outside a–e, an unknown fixability, an unknown verdict word, two kinds that disagree', () => {
    expect(problemOf('### P-Opt-1\n**Verdict**: DISAGREE (f)\n**Fixability**: in-place\n\n' + OK_TAIL)[0].message).toBe(
      "DISAGREE (f): breakage kind 'f' is not one of a-e",
    );
    expect(problemOf('### P-Opt-1\n**Verdict**: DISAGREE (a)\n**Fixability**: easy\n\n' + OK_TAIL)[0]).toMatchObject({
      line: 3,
      message: expect.stringMatching(/unknown fixability 'easy'/),
    });
    expect(problemOf('### P-Opt-1\n**Verdict**: REFUTED\n\n' + OK_TAIL)[0].message).toMatch(/unknown verdict 'REFUTED'/);
    expect(problemOf('### P-Opt-1\n**Verdict**: DISAGREE (a)\n**Breakage kind**: b\n**Fixability**: replan\n\n' + OK_TAIL)[0].message).toMatch(/disagree/);
    expect(problemOf('### P-Opt-1\n**Verdict**: AGREE (b)\n\n' + OK_TAIL)[0].message).toBe(
      "AGREE takes no breakage kind (got 'b'): a kind goes with DISAGREE only",
    );
  });

  it('an item answered twice, and two Verdict lines in one block', () => {
    expect(problemOf('### P-Opt-1\n**Verdict**: AGREE\n\n### P-Opt-1\n**Verdict**: SUPPLEMENT\n\n' + OK_TAIL)).toMatchObject([
      { itemId: 'P-Opt-1', line: 4, message: 'item answered twice (first at line 1): expected one block per item' },
    ]);
    // The same block printed twice is one answer (docs/plan-items.md "Verdict grammar").
    expect(problemOf('### P-Opt-1\n**Verdict**: AGREE\n\n### P-Opt-1\n**Verdict**: AGREE\n\n' + OK_TAIL)).toEqual([]);
    expect(problemOf('### P-Opt-1\n**Verdict**: AGREE\n**Verdict**: DISAGREE (a)\n\n' + OK_TAIL)[0]).toMatchObject({
      line: 3,
      message: 'the block has 2 **Verdict** lines (lines 2 and 3): expected exactly one',
    });
  });

  it('blocks inside code fences and block quotes are not read, so the item is unanswered', () => {
    expect(problemOf('```md\n### P-Opt-1\n**Verdict**: AGREE\n```\n\n> ### P-Opt-1\n> **Verdict**: AGREE\n\n' + OK_TAIL)).toMatchObject([
      { itemId: 'P-Opt-1', message: expect.stringMatching(/unanswered/) },
    ]);
  });

  it('collectVerdicts throws one InputError: file, line, worker, item, and the count of the rest', () => {
    let caught: unknown;
    try {
      collectVerdicts(QUEUE, [response('### P-Opt-1\n**Verdict**: DISAGREE (b)\n')]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as InputError).toLine()).toBe(
      'codex.md: line 2: worker codex: item P-Opt-1: DISAGREE without a fixability value (in-place, replan or needs-clarification); and 2 more: ' +
        'codex.md: line 2: worker codex: item P-Step-1-1: assigned item left unanswered: no "### P-Step-1-1" block with a Verdict before the end of the response; ' +
        'codex.md: line 2: worker codex: item P-Val-1-1: assigned item left unanswered: no "### P-Val-1-1" block with a Verdict before the end of the response',
    );
  });

  it('refuses the same worker twice; no responses at all gives an envelope with no contributors', () => {
    expect(() => collectVerdicts(QUEUE, [response(OK_TAIL), response(OK_TAIL)])).toThrow(/more than one --result/);
    expect(collectVerdicts(QUEUE, [])).toEqual({ schemaVersion: '1.0', contributors: [], items: QUEUE.map((id) => ({ id, verdicts: [] })) });
  });

  it('matches ids case-insensitively and tolerates CRLF, trailing text in headings and list-style fields', () => {
    const md =
      '# Plan check\r\n\r\n### p-opt-1 — option\r\n- **Verdict:** Agree\r\n\r\n#### P-Step-1-1: RED step\r\nVerdict: disagree [e]\r\nFixability: replan\r\nBasis: the command cannot fail\r\n\r\n### `P-Val-1-1`\r\n**Verdict**: SUPPLEMENT\r\n';
    const env = collectVerdicts(QUEUE, [response(md)]);
    expect(env.items.map((i) => i.verdicts[0].verdict)).toEqual(['AGREE', 'DISAGREE', 'SUPPLEMENT']);
    expect(env.items[1].verdicts[0]).toMatchObject({ breakageKind: 'e', fixability: 'replan', basis: 'the command cannot fail' });
  });
});

/** Issue 12: one vote per block, read exactly. Each was exit 0 (a silent guess) before; now the first problem, as collect-verdicts prints it. */
describe('one vote per block, read exactly (each was a silent guess)', () => {
  const refuse = (block: string) => {
    try {
      collectVerdicts(QUEUE, [response(`### P-Opt-1\n${block}\n\n${OK_TAIL}`)]);
    } catch (error) {
      return (error as InputError).toLine();
    }
    return 'accepted';
  };
  const at = (line: number, message: string) => `codex.md: line ${line}: worker codex: item P-Opt-1: ${message}`;
  const ONE = 'expected exactly one — AGREE, SUPPLEMENT or DISAGREE (<kind>) with one kind letter a–e; put the explanation in **Basis**';

  it.each([
    [
      'a hedged AGREE hiding a blocking DISAGREE',
      '**Verdict**: AGREE, but DISAGREE (c) on the second file\n**Fixability**: replan',
      at(2, `the Verdict line names 2 verdict words (AGREE, DISAGREE): ${ONE}`),
    ],
    [
      'the template placeholder copied literally',
      '**Verdict**: AGREE | SUPPLEMENT | DISAGREE (<kind>)',
      at(
        2,
        "the Verdict is the template placeholder 'AGREE | SUPPLEMENT | DISAGREE (<kind>)': expected AGREE, SUPPLEMENT or DISAGREE (<kind>) with one kind letter a–e",
      ),
    ],
    ['AGREE/DISAGREE', '**Verdict**: AGREE/DISAGREE', at(2, `the Verdict line names 2 verdict words (AGREE, DISAGREE): ${ONE}`)],
    [
      'DISAGREE(a-e), the README wording',
      '**Verdict**: DISAGREE(a-e)\n**Fixability**: replan',
      at(2, 'DISAGREE (a-e): names a range of breakage kinds: expected exactly one kind letter a–e'),
    ],
    [
      'DISAGREE (a/b)',
      '**Verdict**: DISAGREE (a/b)\n**Fixability**: replan',
      at(2, 'DISAGREE (a/b): names a list of breakage kinds: expected exactly one kind letter a–e'),
    ],
    [
      'DISAGREE (a, b)',
      '**Verdict**: DISAGREE (a, b)\n**Fixability**: replan',
      at(2, 'DISAGREE (a, b): names a list of breakage kinds: expected exactly one kind letter a–e'),
    ],
    [
      'two Fixability lines (in-place, then replan)',
      '**Verdict**: DISAGREE (b)\n**Fixability**: in-place\n**Fixability**: replan',
      at(4, 'the block has 2 **Fixability** lines (lines 3 and 4): expected at most one'),
    ],
    [
      'two breakage-kind fields',
      '**Verdict**: DISAGREE\n**Breakage kind**: b\n**Kind**: c\n**Fixability**: replan',
      at(4, 'the block has 2 breakage-kind fields (lines 3 and 4): expected at most one'),
    ],
    [
      'a list in the Breakage kind field',
      '**Verdict**: DISAGREE\n**Breakage kind**: a, b\n**Fixability**: replan',
      at(3, "Breakage kind 'a, b': names a list of breakage kinds: expected exactly one kind letter a–e"),
    ],
    [
      'a Breakage kind on an AGREE',
      '**Verdict**: AGREE\n**Breakage kind**: b',
      at(3, "AGREE takes no breakage kind (got 'b'): a kind goes with DISAGREE only; write DISAGREE (<kind>) or drop the field"),
    ],
    [
      'replan on an AGREE',
      '**Verdict**: AGREE\n**Fixability**: replan',
      at(3, "AGREE takes no fixability 'replan' (it would block the plan): write DISAGREE (<kind>) with it, or drop the field"),
    ],
    [
      'needs-clarification on a SUPPLEMENT',
      '**Verdict**: SUPPLEMENT\n**Fixability**: needs-clarification',
      at(3, "SUPPLEMENT takes no fixability 'needs-clarification' (it would block the plan): write DISAGREE (<kind>) with it, or drop the field"),
    ],
    [
      'two fixability values in one field',
      '**Verdict**: DISAGREE (b)\n**Fixability**: in-place or replan',
      at(3, 'Fixability names 2 values (in-place, replan): expected exactly one of in-place, replan or needs-clarification'),
    ],
    [
      'a fixability in the brackets and a different field',
      '**Verdict**: DISAGREE (b, in-place)\n**Fixability**: replan',
      at(3, "DISAGREE (b, in-place) and Fixability 'replan' disagree: expected one fixability"),
    ],
    [
      'the template copied with its code spans (breaker)',
      '**Verdict**: `AGREE`, `SUPPLEMENT`, or `DISAGREE (<kind>)`',
      at(
        2,
        "the Verdict is the template placeholder 'AGREE, SUPPLEMENT, or DISAGREE (<kind>)': expected AGREE, SUPPLEMENT or DISAGREE (<kind>) with one kind letter a–e",
      ),
    ],
    [
      'a second verdict word in a code span (breaker)',
      '**Verdict**: AGREE — codex says `DISAGREE (b)`',
      at(
        2,
        'the Verdict line names 2 verdict words (AGREE, DISAGREE): expected exactly one — AGREE, SUPPLEMENT or DISAGREE (<kind>) with one kind letter a–e; put the explanation in **Basis**',
      ),
    ],
    [
      'two fixability values in code spans (breaker)',
      '**Verdict**: DISAGREE (b)\n**Fixability**: `in-place` or `replan`',
      at(3, 'Fixability names 2 values (in-place, replan): expected exactly one of in-place, replan or needs-clarification'),
    ],
    [
      'a range of kinds outside brackets',
      '**Verdict**: DISAGREE: a-e\n**Fixability**: replan',
      at(2, 'DISAGREE : a-e: names a range of breakage kinds: expected exactly one kind letter a–e'),
    ],
  ])('%s → exit 2 naming file, line, worker, item and what was expected', (_name, block, line) => {
    expect(refuse(block)).toBe(line);
  });

  it.each([
    ['AGREE — no disagreement here', '**Verdict**: AGREE — no disagreement here', { verdict: 'AGREE', breakageKind: null, fixability: null }],
    ['DISAGREE (b, in-place)', '**Verdict**: DISAGREE (b, in-place)', { verdict: 'DISAGREE', breakageKind: 'b', fixability: 'in-place' }],
    ['DISAGREE (kind b)', '**Verdict**: DISAGREE (kind b)\n**Fixability**: replan', { verdict: 'DISAGREE', breakageKind: 'b', fixability: 'replan' }],
    [
      'DISAGREE (b — a path that does not resolve)',
      '**Verdict**: DISAGREE (b — a path that does not resolve)\n**Fixability**: in-place',
      { verdict: 'DISAGREE', breakageKind: 'b', fixability: 'in-place' },
    ],
    ['a verdict word inside a code span is a path, not a vote', '**Verdict**: AGREE, see `src/agree-disagree.ts`', { verdict: 'AGREE' }],
    [
      'n/a in fields that do not apply',
      '**Verdict**: AGREE\n**Fixability**: n/a\n**Breakage kind**: n/a',
      { verdict: 'AGREE', breakageKind: null, fixability: null },
    ],
    ['in-place on a SUPPLEMENT (blocks nothing)', '**Verdict**: SUPPLEMENT\n**Fixability**: in-place', { verdict: 'SUPPLEMENT', fixability: null }],
  ])('documented form stays accepted: %s', (_name, block, vote) => {
    const env = collectVerdicts(QUEUE, [response(`### P-Opt-1\n${block}\n\n${OK_TAIL}`)]);
    expect(env.items[0].verdicts[0]).toMatchObject(vote);
  });

  it.each([
    ['a # heading', '# P-Opt-1\n**Verdict**: AGREE\n\n', 9, "found '# P-Opt-1' at line 1: a level-1 heading (#) — a block heading is ## or ### or ####"],
    [
      'a block inside a fence',
      'Draft:\n\n```md\n### P-Opt-1\n**Verdict**: AGREE\n```\n\n',
      13,
      "found '### P-Opt-1' at line 4: inside a code fence — code is not read",
    ],
    ['a block in a quote', '> ### P-Opt-1\n> **Verdict**: AGREE\n\n', 9, "found '### P-Opt-1' at line 1: inside a block quote — quotes are not read"],
  ])('a missing block names its near miss: %s', (_name, md, line, hint) => {
    expect(problemOf(md + OK_TAIL)).toEqual([
      {
        workerId: 'codex',
        itemId: 'P-Opt-1',
        file: 'codex.md',
        line,
        message: `assigned item left unanswered: no "### P-Opt-1" block with a Verdict before the end of the response; ${hint}`,
      },
    ]);
  });
});

describe('a heading that names two queue items (breaker)', () => {
  it('is exit 2 naming the heading line, not a silent vote for the first item only', () => {
    const { problems } = collectVerdictsWithProblems(QUEUE, [
      response('### P-Opt-1, P-Step-1-1\n**Verdict**: DISAGREE (a)\n**Fixability**: replan\n\n### P-Val-1-1\n**Verdict**: AGREE\n'),
    ]);
    expect(problems[0]).toMatchObject({
      itemId: 'P-Opt-1',
      line: 1,
      message: 'the heading names more than one item (P-Opt-1 and P-Step-1-1): answer each in its own block',
    });
  });
});
