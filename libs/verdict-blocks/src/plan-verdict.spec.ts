import { describe, expect, it } from 'vitest';
import { findNearMisses } from './near-miss.js';
import { readFixabilityText, readKindText, readVerdictLine } from './plan-verdict.js';

describe('readVerdictLine (the plan verdict grammar)', () => {
  it.each([
    ['DISAGREE (b)', 'b', null],
    ['DISAGREE(b)', 'b', null],
    ['DISAGREE [b]', 'b', null],
    ['disagree (B) — path', 'b', null],
    ['Disagree[e]', 'e', null],
    ['DISAGREE (kind c)', 'c', null],
    ['DISAGREE (kind: c)', 'c', null],
    ['DISAGREE (b — the path is abbreviated)', 'b', null],
    ['DISAGREE [d: missing case]', 'd', null],
    ['DISAGREE (b, in-place)', 'b', 'in-place'],
    ['DISAGREE: b', 'b', null],
    ['DISAGREE-b', 'b', null],
    ['DISAGREE c — order', 'c', null],
    ['DISAGREE (b) — in-place', 'b', 'in-place'],
    ['Disagree: e, replan', 'e', 'replan'],
    ['DISAGREE (a; needs clarification)', 'a', 'needs-clarification'],
    ['DISAGREE (see the Breakage kind field)', null, null],
  ])('%s → kind %s, fixability %s', (text, kind, fixability) => {
    expect(readVerdictLine(text)).toEqual({ verdict: 'DISAGREE', kind, fixability });
  });

  it('reads AGREE / SUPPLEMENT in any case, as whole words, with descriptions', () => {
    expect(readVerdictLine('agree.')).toEqual({ verdict: 'AGREE', kind: null, fixability: null });
    expect(readVerdictLine('Supplement — see basis')).toMatchObject({ verdict: 'SUPPLEMENT' });
    expect(readVerdictLine('AGREE — no disagreement here')).toMatchObject({ verdict: 'AGREE' });
    expect(readVerdictLine('AGREE (minor wording)')).toMatchObject({ verdict: 'AGREE', kind: null });
    // Neighbours of the hedges that still state the vote.
    for (const t of [
      'AGREE — no issues found',
      'AGREE — not a problem',
      'AGREE — nothing to add',
      'AGREE.',
      'AGREE!',
      'AGREE — likelihood is covered by step 2',
    ])
      expect(readVerdictLine(t), t).toMatchObject({ verdict: 'AGREE' });
    expect(readVerdictLine('DISAGREE (b — the path is abbreviated…)')).toMatchObject({ verdict: 'DISAGREE', kind: 'b' });
  });

  it.each([
    ['AGREEMENT', /^unknown verdict 'AGREEMENT'/],
    ['SURVIVES', /^unknown verdict 'SURVIVES'/],
    ['I mostly AGREE', /^unknown verdict 'I mostly AGREE'.*as the first word/],
    ['AGREE, but DISAGREE (c) on the second file', /names 2 verdict words \(AGREE, DISAGREE\)/],
    ['SUPPLEMENT — I agree with the step', /names 2 verdict words \(SUPPLEMENT, AGREE\)/],
    ['AGREE | SUPPLEMENT | DISAGREE (<kind>)', /template placeholder/],
    ['DISAGREE (<kind>)', /template placeholder/],
    ['DISAGREE (a-e)', /range of breakage kinds/],
    ['DISAGREE (a–e)', /range of breakage kinds/],
    ['DISAGREE (a/b)', /list of breakage kinds/],
    ['DISAGREE (a or b)', /list of breakage kinds/],
    ['DISAGREE (ab)', /'ab' is not one letter/],
    ['DISAGREE (f)', /'f' is not one of a-e/],
    ['DISAGREE (b in-place)', /expected the closing bracket or a separator/],
    ['DISAGREE (b', /not closed/],
    ['DISAGREE: a-e', /range of breakage kinds/],
    ['DISAGREE: a, b', /list of breakage kinds/],
    ['DISAGREE (b) — in-place or replan', /2 fixability values/],
    ['AGREE: a', /AGREE takes no breakage kind/],
    // Asked or hedged: the word taken back is no vote (docs/plan-items.md "Verdict grammar").
    ['AGREE? Not really', /^the Verdict 'AGREE\? Not really' is a question \('\?'\), not a vote: expected AGREE, SUPPLEMENT or DISAGREE/],
    ['AGREE?', /is a question/],
    ['AGREE (?)', /is a question/],
    ['SUPPLEMENT？', /is a question \('？'\)/],
    ['DISAGREE (b)?', /is a question/],
    ['DISAGREE (b, in-place?)', /is a question/],
    ['AGREE...', /trails off/],
    ['AGREE… not really', /trails off/],
    ['AGREE (probably)', /hedges the word \('probably'\)/],
    ['AGREE — not really', /hedges the word \('not really'\)/],
    ['AGREE, I think', /hedges the word \('I think'\)/],
    ['AGREE-ish', /hedges the word \('ish'\)/],
    ['AGREE (mostly)', /hedges the word \('mostly'\)/],
    ['DISAGREE (b) — maybe', /hedges the word \('maybe'\)/],
    ['AGREE: no', /takes the word back \('no'\)/],
    ['AGREE (not)', /takes the word back \('not'\)/],
  ])('refuses %s', (text, message) => {
    const read = readVerdictLine(text);
    expect('error' in read && read.error).toMatch(message);
  });
});

describe('readKindText / readFixabilityText', () => {
  it('a field takes one letter, bracketed or after "kind", then anything', () => {
    for (const t of ['b', '(b) path…', '[B]', 'kind b', 'b — ellipsis path', 'b path mismatch']) expect(readKindText(t, 'field')).toMatchObject({ kind: 'b' });
    expect(readKindText('n/a', 'field')).toEqual({ kind: null, rest: '' });
    for (const t of ['a, b', 'a-e', 'ab', 'f', 'two']) expect(readKindText(t, 'field')).toHaveProperty('error');
  });

  it('one fixability value, any spelling, nothing second', () => {
    expect(readFixabilityText('in place — trivial')).toEqual({ fixability: 'in-place' });
    expect(readFixabilityText('In_Place')).toEqual({ fixability: 'in-place' });
    expect(readFixabilityText('RE-PLAN')).toEqual({ fixability: 'replan' });
    expect(readFixabilityText('needs clarification: ask about keys')).toEqual({ fixability: 'needs-clarification' });
    expect(readFixabilityText('easy')).toMatchObject({ several: false });
    expect(readFixabilityText('replan / in-place')).toMatchObject({ several: true });
  });
});

describe('findNearMisses', () => {
  const id = /P-(?:Opt-[0-9]+|(?:Step|Dep|Val|Rb)-[0-9]+-[0-9]+)/i;
  it('names headings of other depths and headings in code, quotes and list items, with their lines', () => {
    const md = [
      '# P-Step-3-2',
      '',
      '```md',
      '### P-Step-3-3',
      '```',
      '',
      '> #### P-Opt-1',
      '',
      '- ### P-Val-1-1',
      '',
      '### P-Rb-1-1',
      '**Verdict**: AGREE',
    ].join('\n');
    expect(findNearMisses(md, { idPattern: id }).map((n) => [n.heading, n.line, n.why.split(' — ')[0]])).toEqual([
      ['# P-Step-3-2', 1, 'a level-1 heading (#)'],
      ['### P-Step-3-3', 4, 'inside a code fence'],
      ['#### P-Opt-1', 7, 'inside a block quote'],
      ['### P-Val-1-1', 9, 'inside a list item'],
    ]);
  });
});
