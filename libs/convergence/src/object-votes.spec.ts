import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAnswerRecord, renderAnswerMarkdown, resultDigest } from '@okstra/verdict-blocks';
import type { ConvergenceAnswer } from '@okstra/schemas/answers';
import { readObjectVotes } from './object-votes.js';
import { readResponseVotesWithProblems } from './response-votes.js';

const dir = mkdtempSync(join(tmpdir(), 'okstra-object-votes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const answer: ConvergenceAnswer = {
  votes: [
    { id: 'F-001', verdict: 'SURVIVES', basis: 'src/refund.ts:88 never clears the timer.' },
    { id: 'F-002', verdict: 'REFUTED', basis: 'the retry cap is 3 (src/retry.ts:12), not 5.' },
  ],
};
const wanted = ['F-001', 'F-002'];
const base = { workerId: 'claude', file: 'claude-reverify-r1.md', mode: 'adversarial' as const, wanted, thing: 'finding' };

/** Write a record beside nothing (the path is what matters) and read it back as a collector does. */
function recordOf(over: Record<string, unknown>, resultText: string) {
  const path = join(dir, `r-${Math.random().toString(36).slice(2)}.answer.json`);
  const record = {
    schemaVersion: '1.0',
    kind: 'reverify',
    workerId: 'claude',
    dispatchKind: 'reverify-r1',
    startedAt: '2026-12-08T00:00:00.000Z',
    source: 'claude-structured-output',
    status: 'read',
    answer,
    problems: [],
    resultSha256: resultDigest(resultText),
    ...over,
  };
  writeFileSync(path, JSON.stringify(record));
  return readAnswerRecord(path, { kind: 'reverify', resultText });
}

describe('schema-bound votes: read from the object, never from the prose', () => {
  it('the Markdown written from an object reads back as the same votes (the seed form stays)', () => {
    const markdown = renderAnswerMarkdown('reverify', answer);
    const fromProse = readResponseVotesWithProblems({ ...base, text: markdown });
    const read = recordOf({}, markdown)!;
    const fromObject = readObjectVotes({ ...base, object: read });
    expect(fromProse.problems).toEqual([]);
    expect(fromObject.problems).toEqual([]);
    expect(fromObject.votes.map(({ id, verdict, explanation, line }) => ({ id, verdict, explanation, line }))).toEqual(
      fromProse.votes.map(({ id, verdict, explanation, line }) => ({ id, verdict, explanation, line })),
    );
  });

  it('a result rewritten after the wrapper wrote it (prose that contradicts the object) is not believed: the answer is refused', () => {
    const written = renderAnswerMarkdown('reverify', answer);
    const contradicting = written.replace('**Verdict**: SURVIVES', '**Verdict**: REFUTED');
    const read = recordOf({ resultSha256: resultDigest(written) }, contradicting)!;
    const out = readObjectVotes({ ...base, object: read });
    expect(out.votes).toEqual([]);
    expect(out.problems[0]!.message).toMatch(/not the Markdown the wrapper wrote from the answer object/);
  });

  it('an object whose vote the prose contradicts in a postscript is read as the object says', () => {
    const read = recordOf({}, 'whatever the file says\n\nP.S. overall every finding is REFUTED\n')!;
    // The digest binds the record to this text: the object is the answer, the postscript is not read.
    const out = readObjectVotes({ ...base, object: read });
    expect(out.votes.map((v) => v.sourceVerdict)).toEqual(['SURVIVES', 'REFUTED']);
  });

  it('a refused object, a missing or extra id, or a word of the other mode is a problem (repair path), never a guess', () => {
    const refused = recordOf({ status: 'refused', answer: null, problems: ['votes.0.verdict: Invalid option'] }, 'x')!;
    expect(readObjectVotes({ ...base, object: refused }).problems.map((p) => p.message)).toEqual(['answer object refused: votes.0.verdict: Invalid option']);
    const missing = { votes: [answer.votes[0]!, { ...answer.votes[0]!, id: 'F-009' }], problems: [] };
    expect(readObjectVotes({ ...base, object: missing }).problems.map((p) => `${p.id}: ${p.message}`)).toEqual([
      'F-009: votes[1]: a vote for a finding not dispatched to this worker',
      'F-002: dispatched finding with no vote in the answer object',
    ]);
    const twice = { votes: [answer.votes[0]!, answer.votes[0]!, answer.votes[1]!], problems: [] };
    expect(readObjectVotes({ ...base, object: twice }).problems.map((p) => p.message)).toEqual([
      'votes[1]: a second vote for one finding in the answer object',
    ]);
    const otherMode = { votes: [{ ...answer.votes[0]!, verdict: 'AGREE' }, answer.votes[1]!], problems: [] };
    expect(readObjectVotes({ ...base, object: otherMode }).problems[0]!.message).toMatch(
      /unknown verdict 'AGREE' in the answer object \(adversarial mode accepts/,
    );
    expect(
      readObjectVotes({
        ...base,
        mode: 'collaborative',
        object: {
          votes: [
            { ...answer.votes[0]!, verdict: 'AGREE' },
            { ...answer.votes[1]!, verdict: 'DISAGREE' },
          ],
          problems: [],
        },
      }).votes.map((v) => v.verdict),
    ).toEqual(['agree', 'disagree']);
  });

  it('an invalid record file is exit 2 naming it and the field; no record is a Markdown answer', () => {
    expect(() => recordOf({ status: 'maybe' }, 'x')).toThrow(expect.objectContaining({ field: 'status', file: expect.stringMatching(/\.answer\.json$/) }));
    expect(() => recordOf({ kind: 'plan-verify' }, 'x')).toThrow(/a plan-verify answer record where a reverify answer was expected/);
    expect(readAnswerRecord(join(dir, 'absent.answer.json'), { kind: 'reverify', resultText: '' })).toBeNull();
  });
});
