import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import type { PlanVerdictsEnvelope } from '@okstra/schemas/plan-verdicts';
import { applyVerdicts, applyVerdictsToText } from './apply.js';
import { exampleRaw } from './test-support/fixtures.js';

type Rows = Array<{ id: string; verdicts: unknown[] }>;
const rowsOf = (data: Record<string, unknown>) =>
  (data.implementationPlanning as Record<string, unknown>).planBodyVerification as { planItems: Rows; result: string; contributors: string[] };

const envelope = (items: PlanVerdictsEnvelope['items'], contributors = ['codex']): PlanVerdictsEnvelope => ({ schemaVersion: '1.0', contributors, items });
const v = (verdict: 'AGREE' | 'DISAGREE', extra: Record<string, unknown> = {}) =>
  ({ workerId: 'codex', verdict, breakageKind: null, fixability: null, basis: null, ...extra }) as never;

describe('applyVerdicts', () => {
  it('overwrites every row: the previous round never survives, absent items end with none', () => {
    const raw = exampleRaw();
    const out = applyVerdicts(raw, envelope([{ id: 'P-Opt-1', verdicts: [v('AGREE')] }]));
    const pbv = rowsOf(out.data);
    expect(pbv.planItems[0].verdicts).toEqual([{ workerId: 'codex', verdict: 'AGREE', breakageKind: null, fixability: null, basis: null }]);
    expect(pbv.planItems.slice(1).every((r) => r.verdicts.length === 0)).toBe(true);
    expect(pbv.result).toBe('aborted-non-result');
    expect(pbv.contributors).toEqual(['codex']);
    expect(out).toMatchObject({ result: 'aborted-non-result', itemsWithVerdicts: 1, rows: 25 });
    // the input is not mutated
    expect(rowsOf(raw).planItems[1].verdicts).toHaveLength(2);
  });

  it('sets the aggregate of the new verdicts', () => {
    const raw = exampleRaw();
    const ids = rowsOf(raw).planItems.map((r) => r.id);
    const items = ids.map((id) => ({
      id,
      verdicts: [id === 'P-Step-2-2' ? v('DISAGREE', { breakageKind: 'c', fixability: 'replan', basis: 'needs stage 3 first' }) : v('AGREE')],
    }));
    expect(applyVerdicts(raw, envelope(items)).result).toBe('blocked-by-disagreement');
  });

  it('keeps every other value and the key order of the document', () => {
    const raw = exampleRaw();
    const ids = rowsOf(raw).planItems.map((r) => r.id);
    const out = applyVerdicts(raw, envelope(ids.map((id) => ({ id, verdicts: [v('AGREE')] }))));
    expect(Object.keys(out.data)).toEqual(Object.keys(raw));
    const strip = (d: Record<string, unknown>) => {
      const c = structuredClone(d);
      const p = rowsOf(c);
      p.planItems.forEach((r) => (r.verdicts = []));
      p.result = '';
      p.contributors = [];
      return JSON.stringify(c);
    };
    expect(strip(out.data)).toBe(strip(raw));
  });

  it('refuses an incoming item with no row, naming every such id', () => {
    expect(() =>
      applyVerdicts(
        exampleRaw(),
        envelope([
          { id: 'P-Step-9-1', verdicts: [] },
          { id: 'P-Opt-7', verdicts: [] },
        ]),
        'data.json',
      ),
    ).toThrow(
      expect.objectContaining({
        file: 'data.json',
        field: 'implementationPlanning.planBodyVerification.planItems',
        message: 'the report carries no row for incoming items P-Step-9-1, P-Opt-7',
      }),
    );
  });

  it('refuses a report with no planBodyVerification', () => {
    const raw = exampleRaw();
    delete (raw.implementationPlanning as Record<string, unknown>).planBodyVerification;
    expect(() => applyVerdicts(raw, envelope([]))).toThrow(/no plan item rows/);
  });
});

/** The example data.json as text in a given indentation, with values JSON.parse cannot round-trip planted outside the owned fields. */
function awkwardText(indent: string, eol = '\n', finalNewline = true): string {
  let text = JSON.stringify(exampleRaw(), null, indent);
  const plant = (anchor: string, extra: string) => {
    const at = text.indexOf(anchor);
    if (at < 0) throw new Error(`anchor ${anchor} not found`);
    text = text.slice(0, at) + extra + text.slice(at);
  };
  plant(
    '"implementationPlanning"',
    '"ledger": {"big": 12345678901234567890, "exp": 1e3, "negZero": -0.0, "tiny": 2.50E-7, "esc": "caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\/"},\n' + indent,
  );
  plant('"planItems"', '"roundSeconds": 1.0e2,\n' + indent.repeat(3));
  plant('"verdicts"', '"weight": -0.0, "stamp": 9007199254740993,\n' + indent.repeat(5));
  text = text.split('\n').join(eol);
  return finalNewline ? text + eol : text;
}

/** The text with the values apply-verdicts owns replaced by a marker (offsets from jsonc-parser). */
function maskOwned(text: string): string {
  const root = parseTree(text)!;
  const base = ['implementationPlanning', 'planBodyVerification'];
  const rows = findNodeAtLocation(root, [...base, 'planItems'])!.children!;
  const nodes = [
    ...rows.map((_, i) => findNodeAtLocation(root, [...base, 'planItems', i, 'verdicts'])!),
    findNodeAtLocation(root, [...base, 'result'])!,
    findNodeAtLocation(root, [...base, 'contributors'])!,
  ].sort((a, b) => b.offset - a.offset);
  let out = text;
  for (const n of nodes) out = out.slice(0, n.offset) + '<owned>' + out.slice(n.offset + n.length);
  return out;
}

describe('applyVerdictsToText: every byte outside the owned fields is kept', () => {
  const ids = () => rowsOf(exampleRaw()).planItems.map((r) => r.id);
  const round = () =>
    envelope(
      ids()
        .filter((id) => id !== 'P-Rb-3-1')
        .map((id) => ({
          id,
          verdicts: [id === 'P-Step-2-2' ? v('DISAGREE', { breakageKind: 'c', fixability: 'replan', basis: 'needs stage 3 — café ✓' }) : v('AGREE')],
        })),
    );

  it.each([
    ['4-space', '    ', '\n', true],
    ['tab', '\t', '\n', true],
    ['2-space CRLF', '  ', '\r\n', true],
    ['4-space, no final newline', '    ', '\n', false],
  ])('%s: big integers, exponents, -0.0 and unicode escapes survive; only verdicts, result and contributors change', (_name, indent, eol, finalNewline) => {
    const text = awkwardText(indent, eol, finalNewline);
    const out = applyVerdictsToText(text, JSON.parse(text), round(), 'data.json');
    expect(out.text).not.toBe(text);
    expect(maskOwned(out.text)).toBe(maskOwned(text));
    for (const planted of ['12345678901234567890', '1e3', '"negZero": -0.0', '2.50E-7', 'caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\/', '1.0e2', '9007199254740993']) {
      expect(out.text).toContain(planted);
    }
    const after = JSON.parse(out.text);
    const pbv = rowsOf(after);
    expect(pbv.result).toBe('aborted-non-result');
    expect(pbv.contributors).toEqual(['codex']);
    expect(pbv.planItems.find((r) => r.id === 'P-Step-2-2')!.verdicts).toEqual([
      { workerId: 'codex', verdict: 'DISAGREE', breakageKind: 'c', fixability: 'replan', basis: 'needs stage 3 — café ✓' },
    ]);
    expect(pbv.planItems.find((r) => r.id === 'P-Rb-3-1')!.verdicts).toEqual([]);
    expect(out.uncoveredRows).toEqual(['P-Rb-3-1']);
    // the new values are written in the file's own style
    expect(out.text.includes('\r\n')).toBe(eol === '\r\n');
    expect(
      out.text
        .replace(/\r\n/g, '\n')
        .split('\n')
        .filter((l) => /^\s/.test(l))
        .every((l) => l.startsWith(indent[0])),
    ).toBe(true);
    expect(out.text.endsWith(eol)).toBe(finalNewline);
    // and a second application of the same round changes nothing
    expect(applyVerdictsToText(out.text, after, round()).text).toBe(out.text);
  });

  it('keeps a one-line (minified) document on one line', () => {
    const text = JSON.stringify(exampleRaw()).replace('"implementationPlanning"', '"n":1E+2,"implementationPlanning"');
    const out = applyVerdictsToText(text, JSON.parse(text), round());
    expect(out.text).not.toContain('\n');
    expect(out.text).toContain('"n":1E+2,');
    expect(maskOwned(out.text)).toBe(maskOwned(text));
  });

  it('refuses a key on an owned path that occurs twice (JSON.parse keeps the last, an edit could hit the first)', () => {
    const text = awkwardText('  ').replace('"planBodyVerification": {', '"planBodyVerification": {"result": "passed",');
    expect(() => applyVerdictsToText(text, JSON.parse(text), round(), 'data.json')).toThrow(
      expect.objectContaining({
        file: 'data.json',
        field: 'implementationPlanning.planBodyVerification.result',
        message: expect.stringMatching(/occurs 2 times/),
      }),
    );
  });
});
