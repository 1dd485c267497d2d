import { describe, expect, it } from 'vitest';
import { ANSWER_KINDS, ANSWER_SHAPES, answerJsonSchema, answerKindOfDispatch } from './answers.js';

/**
 * Every place a JSON Schema breaks the structured-output subset both APIs take (OpenAI strict mode:
 * objects closed and fully required, a root object, a small keyword set; Claude Code's StructuredOutput tool takes the same).
 */
function strictProblems(schema: unknown, at = '$'): string[] {
  const allowed = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'anyOf', 'description']);
  if (typeof schema !== 'object' || schema === null) return [`${at}: not a schema`];
  const s = schema as Record<string, unknown>;
  const out = Object.keys(s)
    .filter((k) => !allowed.has(k))
    .map((k) => `${at}: keyword ${k}`);
  if (s.type === 'object') {
    if (s.additionalProperties !== false) out.push(`${at}: additionalProperties is not false`);
    const props = Object.keys((s.properties as object) ?? {});
    const required = (s.required as string[]) ?? [];
    for (const p of props) if (!required.includes(p)) out.push(`${at}.${p}: not required`);
    for (const p of props) out.push(...strictProblems((s.properties as Record<string, unknown>)[p], `${at}.${p}`));
  }
  if (s.items) out.push(...strictProblems(s.items, `${at}[]`));
  if (Array.isArray(s.anyOf)) s.anyOf.forEach((b, i) => out.push(...strictProblems(b, `${at}|${i}`)));
  return out;
}

describe('answer JSON Schemas (generated from the zod shapes the collectors use)', () => {
  it('each kind’s schema keeps to the strict structured-output subset, its root an object', () => {
    for (const kind of ANSWER_KINDS) {
      const schema = answerJsonSchema(kind);
      expect(schema.type, kind).toBe('object');
      expect(strictProblems(schema), kind).toEqual([]);
    }
  });
  it('the checker catches what strict mode refuses (an optional property, an open object, minLength)', () => {
    expect(strictProblems({ type: 'object', properties: { a: { type: 'string', minLength: 1 } }, required: [] })).toEqual([
      '$: additionalProperties is not false',
      '$.a: not required',
      '$.a: keyword minLength',
    ]);
  });
  it('the plan-verify schema names its words, kinds and fixabilities; reverify both modes’ words', () => {
    const plan = JSON.stringify(answerJsonSchema('plan-verify'));
    for (const w of ['AGREE', 'DISAGREE', 'SUPPLEMENT', '"a"', '"e"', 'in-place', 'replan', 'needs-clarification']) expect(plan).toContain(w);
    const reverify = JSON.stringify(answerJsonSchema('reverify'));
    for (const w of ['REFUTED', 'SURVIVES', 'SURVIVES-WITH-CAVEAT', 'UNVERIFIABLE', 'AGREE', 'DISAGREE', 'SUPPLEMENT']) expect(reverify).toContain(`"${w}"`);
  });
  it('the zod shapes check what the schema cannot say: a non-empty basis, DISAGREE’s kind and fixability', () => {
    const plan = ANSWER_SHAPES['plan-verify'];
    const vote = { id: 'P-Opt-1', verdict: 'DISAGREE', breakageKind: 'b', fixability: 'in-place', basis: 'x' };
    expect(plan.safeParse({ votes: [vote] }).success).toBe(true);
    expect(plan.safeParse({ votes: [{ ...vote, fixability: null }] }).success).toBe(false);
    expect(plan.safeParse({ votes: [{ ...vote, verdict: 'AGREE' }] }).success).toBe(false);
    expect(plan.safeParse({ votes: [{ ...vote, basis: '  ' }] }).success).toBe(false);
    expect(plan.safeParse({ votes: [{ ...vote, extra: 1 }] }).success).toBe(false);
    expect(ANSWER_SHAPES.reverify.safeParse({ votes: [{ id: 'F-001', verdict: 'SURVIVES', basis: 'read it' }] }).success).toBe(true);
    expect(ANSWER_SHAPES.reverify.safeParse({ votes: [{ id: 'F-001', verdict: 'SURVIVES, probably', basis: 'read it' }] }).success).toBe(false);
  });
  it('the answer kind of a dispatch kind', () => {
    expect(
      ['reverify-r1', 'reverify-r3-retry', 'repair-reverify-r2', 'gap-vote-retry', 'repair-plan-verify', 'initial', 'report-writer', 'reverify-r01'].map(
        answerKindOfDispatch,
      ),
    ).toEqual(['reverify', 'reverify', 'reverify', 'gap-vote', 'plan-verify', null, null, null]);
  });
});
