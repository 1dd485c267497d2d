import { describe, expect, it } from 'vitest';
import { parseAnswer } from './parse.js';
import { summaryStatements, tableRows } from './statements.js';
import { verdictWordsIn } from './words.js';

const ID = /F-\d+/;
const statements = (md: string) => summaryStatements(parseAnswer(md, { idPattern: ID }), ID).map(({ id, text, correction }) => ({ id, text, correction }));
const block = (id: string, verdict: string) => `### ${id}\n**Verdict**: ${verdict}\n**Basis**: \`src/a.ts:1\`.\n`;

describe('verdict statements (issue #25 held-out forms)', () => {
  it('a line naming several ids states, for each, what follows it up to the next', () => {
    expect(statements(`${block('F-001', 'REFUTED')}\n## Summary\n\nF-001: SURVIVES, F-002: REFUTED.\n`)).toEqual([
      { id: 'F-001', text: 'SURVIVES' },
      { id: 'F-002', text: 'REFUTED.' },
    ]);
  });
  it('a correction or restated verdict inside a block speaks of the ids it names, or of its own block', () => {
    expect(statements(`${block('F-001', 'REFUTED')}\n**Update:** on a second look, F-001 actually SURVIVES.\n`)).toEqual([
      { id: 'F-001', text: 'actually SURVIVES.', correction: true },
    ]);
    expect(statements(`${block('F-001', 'REFUTED')}\n**Revised verdict**: SURVIVES — the lock is skipped.\n`)).toEqual([
      { id: 'F-001', text: 'SURVIVES — the lock is skipped.', correction: true },
    ]);
  });
  it('a summary run on into the last Basis is a summary', () => {
    expect(statements(`${block('F-002', 'SURVIVES')}**TL;DR**: F-002 REFUTED\n`)).toEqual([{ id: 'F-002', text: 'REFUTED' }]);
  });
  it('a summary line that titles the id gives what follows the separator; a table id cell may carry a title or a link', () => {
    const md = `${block('F-001', 'REFUTED')}\n## Summary\n\n- F-001 (queue race): SURVIVES\n\n| Finding | Verdict |\n|---|---|\n| [F-001](#f-001) | SURVIVES |\n| F-001 (queue race) | SURVIVES |\n`;
    expect(summaryStatements(parseAnswer(md, { idPattern: ID }), ID)[0]).toMatchObject({ id: 'F-001', afterTitle: 'SURVIVES' });
    expect(tableRows(parseAnswer(md, { idPattern: ID }), ID).map((r) => [r.id, r.verdict])).toEqual([
      ['F-001', 'SURVIVES'],
      ['F-001', 'SURVIVES'],
    ]);
  });
  it('verdictWordsIn finds every word once, longest first, never inside another word, and sees a negation', () => {
    const adv = ['REFUTED', 'SURVIVES', 'SURVIVES-WITH-CAVEAT', 'UNVERIFIABLE'];
    expect(verdictWordsIn('so it actually survives with caveats', adv)).toEqual({ words: ['SURVIVES-WITH-CAVEAT'], negated: false });
    expect(verdictWordsIn('I disagree', ['AGREE', 'DISAGREE'])).toEqual({ words: ['DISAGREE'], negated: false });
    expect(verdictWordsIn('F-001 is not REFUTED after all', adv)).toEqual({ words: ['REFUTED'], negated: true });
  });
});
