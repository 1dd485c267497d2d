import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyExampleRun, EXAMPLE_RUN, RUN_FILES, runBin, UMBRELLA } from '../test-support/run-bin.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = copyExampleRun()));
afterEach(() => cleanup());

const read = (p: string) => readFileSync(join(dir, p), 'utf8');
const collect = (results: string[], output = 'out/verdicts.json') =>
  runBin(['collect-verdicts', ...results.flatMap((r) => ['--result', r]), '--items', RUN_FILES.items, '--output', output], dir);

describe('okstra-plan-items collect-verdicts (real bin)', () => {
  it('reads the two LLM-written responses into the committed envelope', () => {
    const r = collect([`codex=${RUN_FILES.codex}`, `claude=${RUN_FILES.claude}`]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const { citations, ...summary } = JSON.parse(r.stdout);
    expect(summary).toEqual({ contributors: ['claude', 'codex'], items: 25, verdicts: 50, output: join(dir, 'out/verdicts.json') }); // absolute (README)
    // Each response's citation signal beside the verdicts (a signal, never a change of vote).
    expect(Object.keys(citations).sort()).toEqual(['claude', 'codex']);
    expect(read('out/verdicts.json')).toBe(readFileSync(join(EXAMPLE_RUN, RUN_FILES.verdicts), 'utf8'));
  });

  const lastLine = (md: string) => md.replace(/\n$/, '').split('\n').length;
  const cases: Array<[string, (md: string) => string, (md: string) => string]> = [
    [
      'an assigned item left unanswered',
      // the whole block, Basis included: a Basis left behind would join the block above (two Basis fields, refused)
      (md) => md.replace(/### P-Rb-3-1\n\*\*Verdict\*\*: AGREE\n\*\*Basis\*\*: [^\n]*\n\n/, ''),
      (md) =>
        `okstra-plan-items: claude.md: line ${lastLine(md)}: worker claude: item P-Rb-3-1: assigned item left unanswered: no "### P-Rb-3-1" block with a Verdict before the end of the response\n`,
    ],
    [
      'a verdict for an item outside the queue',
      (md) => md.replace('### P-Opt-2', '### P-Opt-3'),
      (md) =>
        `okstra-plan-items: claude.md: line 17: worker claude: item P-Opt-3: verdict for an item outside the persisted queue; and 1 more: claude.md: line ${lastLine(md)}: worker claude: item P-Opt-2: assigned item left unanswered: no "### P-Opt-2" block with a Verdict before the end of the response\n`,
    ],
    [
      'a DISAGREE with no breakage kind',
      (md) => md.replace('DISAGREE [d]', 'DISAGREE'),
      () => 'okstra-plan-items: claude.md: line 113: worker claude: item P-Val-3-2: DISAGREE with no breakage kind (write DISAGREE (a) … DISAGREE (e))\n',
    ],
    [
      'a DISAGREE without fixability',
      (md) => md.replace('**Fixability**: in-place\n', ''),
      () =>
        'okstra-plan-items: claude.md: line 113: worker claude: item P-Val-3-2: DISAGREE without a fixability value (in-place, replan or needs-clarification)\n',
    ],
    [
      'a hedged AGREE that hides a blocking DISAGREE',
      (md) =>
        md.replace('### P-Rb-3-1\n**Verdict**: AGREE\n', '### P-Rb-3-1\n**Verdict**: AGREE, but DISAGREE (c) on the second file\n**Fixability**: replan\n'),
      () =>
        'okstra-plan-items: claude.md: line 120: worker claude: item P-Rb-3-1: the Verdict line names 2 verdict words (AGREE, DISAGREE): expected exactly one — AGREE, SUPPLEMENT or DISAGREE (<kind>) with one kind letter a–e; put the explanation in **Basis**\n',
    ],
    [
      'a verdict asked, not stated (AGREE? Not really)',
      (md) => md.replace('### P-Rb-3-1\n**Verdict**: AGREE\n', '### P-Rb-3-1\n**Verdict**: AGREE? Not really\n'),
      () =>
        "okstra-plan-items: claude.md: line 120: worker claude: item P-Rb-3-1: the Verdict 'AGREE? Not really' is a question ('?'), not a vote: expected AGREE, SUPPLEMENT or DISAGREE (<kind>) with one kind letter a–e, stated plainly; put doubts in **Basis**\n",
    ],
    [
      'a hedged fixability on a DISAGREE (in-place, probably)',
      (md) => md.replace('**Fixability**: in-place\n', '**Fixability**: in-place, probably\n'),
      () =>
        "okstra-plan-items: claude.md: line 114: worker claude: item P-Val-3-2: Fixability 'in-place, probably' hedges the word ('probably'), not a vote: expected exactly one of in-place, replan or needs-clarification\n",
    ],
    [
      'two Fixability lines',
      (md) => md.replace('**Fixability**: in-place\n', '**Fixability**: in-place\n**Fixability**: replan\n'),
      () =>
        'okstra-plan-items: claude.md: line 115: worker claude: item P-Val-3-2: the block has 2 **Fixability** lines (lines 114 and 115): expected at most one\n',
    ],
    [
      'a block under a # heading (near miss named)',
      (md) => md.replace('### P-Rb-3-1\n', '# P-Rb-3-1\n'),
      (md) =>
        `okstra-plan-items: claude.md: line ${lastLine(md)}: worker claude: item P-Rb-3-1: assigned item left unanswered: no "### P-Rb-3-1" block with a Verdict before the end of the response; found '# P-Rb-3-1' at line 119: a level-1 heading (#) — a block heading is ## or ### or ####\n`,
    ],
  ];
  it.each(cases)('%s: exit 2, one line naming worker, item and line, nothing written', (_what, edit, expected) => {
    const edited = edit(read(RUN_FILES.claude));
    writeFileSync(join(dir, 'claude.md'), edited);
    const r = collect(['claude=claude.md', `codex=${RUN_FILES.codex}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(expected(edited));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
    expect(existsSync(join(dir, 'out/verdicts.json'))).toBe(false);
  });

  it('exit 2 for a bad --result, a missing response file, the same worker twice', () => {
    expect(collect(['claude'])).toMatchObject({ code: 2, stderr: "okstra-plan-items: --result expects <key>=<value>, got 'claude'\n" });
    expect(collect(['claude=missing.md'])).toMatchObject({ code: 2, stderr: 'okstra-plan-items: missing.md: file not found\n' });
    expect(collect([`claude=${RUN_FILES.claude}`, `claude=${RUN_FILES.codex}`]).stderr).toBe(
      "okstra-plan-items: --result: worker 'claude' is given more than one --result\n",
    );
    expect(collect(['../x=a.md']).stderr).toBe("okstra-plan-items: --result: invalid worker id '../x'\n");
  });
});

describe('okstra-plan-items apply-verdicts (real bin)', () => {
  const rows = () => JSON.parse(read(RUN_FILES.data)).implementationPlanning.planBodyVerification;

  it('overwrites the previous round: only the new worker votes survive, result and contributors set', () => {
    expect(collect([`codex=${RUN_FILES.codex}`])).toMatchObject({ code: 0 });
    const r = runBin(['apply-verdicts', '--data', RUN_FILES.data, '--verdicts', 'out/verdicts.json'], dir);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const report = RUN_FILES.data.replace(/\.data\.json$/, '.md');
    expect(JSON.parse(r.stdout)).toEqual({
      report: join(dir, report),
      result: 'passed-with-dissent',
      contributors: ['codex'],
      rows: 25,
      itemsWithVerdicts: 25,
      uncoveredRows: [],
      agree: 23,
      supplement: 1,
      dissent: 1,
      blocking: 0,
    });
    // The report's Markdown shows what data.json now says (issue #36: it kept the previous round's section).
    const section = read(report).slice(read(report).indexOf('## 6. Plan-body Verification'));
    expect(section).toContain('Result: **passed-with-dissent** (contributors: codex)');
    expect(section).not.toContain('claude: ');
    expect(read(report)).toContain('## 5.5.4 Stage 4: Document the refund timeout runbook');
    const pbv = rows();
    expect(pbv.contributors).toEqual(['codex']);
    expect(pbv.planItems.every((row: { verdicts: Array<{ workerId: string }> }) => row.verdicts.length === 1 && row.verdicts[0].workerId === 'codex')).toBe(
      true,
    );
  });

  it('changes nothing but the owned fields: big integers, exponents, -0.0, escapes and 4-space indentation survive', () => {
    const data = JSON.parse(read(RUN_FILES.data));
    const text =
      JSON.stringify(data, null, 4)
        .replace(
          '"implementationPlanning"',
          '"ledger": {"big": 12345678901234567890, "exp": 1e3, "negZero": -0.0, "esc": "caf\\u00e9"},\n    "implementationPlanning"',
        )
        .replace('"planItems"', '"roundSeconds": 1.0e2,\n            "planItems"') + '\n';
    writeFileSync(join(dir, RUN_FILES.data), text);
    expect(collect([`codex=${RUN_FILES.codex}`])).toMatchObject({ code: 0 });
    const r = runBin(['apply-verdicts', '--data', RUN_FILES.data, '--verdicts', 'out/verdicts.json'], dir);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const after = read(RUN_FILES.data);
    for (const planted of [
      '"big": 12345678901234567890',
      '"exp": 1e3',
      '"negZero": -0.0',
      '"esc": "caf\\u00e9"',
      '"roundSeconds": 1.0e2,\n            "planItems"',
    ]) {
      expect(after).toContain(planted);
    }
    // outside planBodyVerification the text is byte-identical, and 4-space indented throughout
    const cut = (t: string) => t.slice(0, t.indexOf('"planBodyVerification"'));
    expect(cut(after)).toBe(cut(text));
    expect(
      after
        .split('\n')
        .filter((l) => /^ +/.test(l))
        .every((l) => /^( {4})+\S/.test(l)),
    ).toBe(true);
    expect(after.endsWith('}\n')).toBe(true);
  });

  it('names the rows the envelope does not cover, in the JSON output and on stderr', () => {
    const envelope = JSON.parse(readFileSync(join(EXAMPLE_RUN, RUN_FILES.verdicts), 'utf8'));
    envelope.items = envelope.items.filter((item: { id: string }) => item.id !== 'P-Val-2-1' && item.id !== 'P-Rb-3-1');
    writeFileSync(join(dir, 'partial.json'), JSON.stringify(envelope));
    const r = runBin(['apply-verdicts', '--data', RUN_FILES.data, '--verdicts', 'partial.json'], dir);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'aborted-non-result', uncoveredRows: ['P-Val-2-1', 'P-Rb-3-1'] });
    expect(r.stderr).toBe(`okstra-plan-items: ${RUN_FILES.data}: 2 rows not covered by the envelope now carry no verdicts: P-Val-2-1, P-Rb-3-1\n`);
    // through the umbrella the line names the command as typed, as error lines do
    const again = copyExampleRun();
    writeFileSync(join(again.dir, 'partial.json'), JSON.stringify(envelope));
    const via = runBin(['plan-items', 'apply-verdicts', '--data', RUN_FILES.data, '--verdicts', 'partial.json'], again.dir, UMBRELLA);
    again.cleanup();
    expect(via.stderr).toBe(`okstra plan-items: ${RUN_FILES.data}: 2 rows not covered by the envelope now carry no verdicts: P-Val-2-1, P-Rb-3-1\n`);
  });

  it('no contributor at all → aborted-non-result with empty verdict tables', () => {
    expect(collect([])).toMatchObject({ code: 0 });
    const r = runBin(['apply-verdicts', '--data', RUN_FILES.data, '--verdicts', 'out/verdicts.json'], dir);
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'aborted-non-result', contributors: [], itemsWithVerdicts: 0 });
    expect(rows().planItems.every((row: { verdicts: unknown[] }) => row.verdicts.length === 0)).toBe(true);
  });

  it('re-applying the committed round reproduces the committed data.json byte for byte', () => {
    const r = runBin(['apply-verdicts', '--data', RUN_FILES.data, '--verdicts', RUN_FILES.verdicts], dir);
    expect(r.code).toBe(0);
    expect(read(RUN_FILES.data)).toBe(readFileSync(join(EXAMPLE_RUN, RUN_FILES.data), 'utf8'));
  });

  it('exit 2 without writing when an incoming item has no row', () => {
    const data = JSON.parse(read(RUN_FILES.data));
    data.implementationPlanning.planBodyVerification.planItems = data.implementationPlanning.planBodyVerification.planItems.filter(
      (row: { id: string }) => row.id !== 'P-Val-2-1',
    );
    writeFileSync(join(dir, RUN_FILES.data), JSON.stringify(data, null, 1));
    const before = read(RUN_FILES.data);
    const r = runBin(['apply-verdicts', '--data', RUN_FILES.data, '--verdicts', RUN_FILES.verdicts], dir);
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `okstra-plan-items: ${RUN_FILES.data}: implementationPlanning.planBodyVerification.planItems: the report carries no row for incoming item P-Val-2-1\n`,
    });
    expect(read(RUN_FILES.data)).toBe(before);
  });

  it.each([
    ['truncated envelope', '{"schemaVersion": "1.0", "contributors": [', /verdicts\.json: is not valid JSON/],
    [
      'a DISAGREE without fixability in the envelope',
      JSON.stringify({
        schemaVersion: '1.0',
        contributors: ['x'],
        items: [{ id: 'P-Opt-1', verdicts: [{ workerId: 'x', verdict: 'DISAGREE', breakageKind: 'a', fixability: null, basis: null }] }],
      }),
      /verdicts\.json: items\[0\]\.verdicts\[0\]\.fixability: a DISAGREE needs/,
    ],
    [
      'a vote from a non-contributor',
      JSON.stringify({
        schemaVersion: '1.0',
        contributors: [],
        items: [{ id: 'P-Opt-1', verdicts: [{ workerId: 'x', verdict: 'AGREE', breakageKind: null, fixability: null, basis: null }] }],
      }),
      /is not a contributor/,
    ],
  ])('exit 2 on %s, data.json untouched', (_what, text, pattern) => {
    writeFileSync(join(dir, 'verdicts.json'), text);
    const before = read(RUN_FILES.data);
    const r = runBin(['apply-verdicts', '--data', RUN_FILES.data, '--verdicts', 'verdicts.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(read(RUN_FILES.data)).toBe(before);
  });

  it('exit 2 on a data.json that breaks the GREEN/PASS rule, untouched', () => {
    const data = JSON.parse(read(RUN_FILES.data));
    data.implementationPlanning.stages[1].steps[2].outcome = 'FAIL';
    writeFileSync(join(dir, RUN_FILES.data), JSON.stringify(data, null, 2));
    const before = read(RUN_FILES.data);
    const r = runBin(['apply-verdicts', '--data', RUN_FILES.data, '--verdicts', RUN_FILES.verdicts], dir);
    expect(r).toMatchObject({
      code: 2,
      stderr: `okstra-plan-items: ${RUN_FILES.data}: implementationPlanning.stages[1].steps[2].outcome: a GREEN: step must have outcome PASS, got FAIL\n`,
    });
    expect(read(RUN_FILES.data)).toBe(before);
  });
});

describe('apply-verdicts leaves the disk alone on failure', () => {
  it('a data.json in a missing directory: exit 2, no directory or lock created', () => {
    const r = runBin(['apply-verdicts', '--data', 'nope/data.json', '--verdicts', RUN_FILES.verdicts], dir);
    expect(r).toMatchObject({ code: 2, stderr: 'okstra-plan-items: nope/data.json: file not found\n' });
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  });
});
