import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyExampleRun, EXAMPLE_RUN, RUN_FILES, runBin } from '../test-support/run-bin.js';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = copyExampleRun()));
afterEach(() => cleanup());

describe('okstra-plan-items extract (real bin)', () => {
  it('writes the committed queue byte for byte, twice the same', () => {
    const a = runBin(['extract', '--data', RUN_FILES.data, '--output', 'out/a.json'], dir);
    expect(a).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(a.stdout)).toEqual({
      count: 25,
      kinds: { option: 2, step: 12, dependency: 3, validation: 5, rollback: 3 },
      output: join(dir, 'out/a.json'),
    }); // absolute, as every tool prints paths (README)
    runBin(['extract', '--data', RUN_FILES.data, '--output', 'out/b.json'], dir);
    const a1 = readFileSync(join(dir, 'out/a.json'), 'utf8');
    expect(readFileSync(join(dir, 'out/b.json'), 'utf8')).toBe(a1);
    expect(a1).toBe(readFileSync(join(EXAMPLE_RUN, RUN_FILES.items), 'utf8'));
  });

  it('refuses a data.json whose RED: step says PASS: exit 2, one line, nothing written', () => {
    const data = JSON.parse(readFileSync(join(dir, RUN_FILES.data), 'utf8'));
    data.implementationPlanning.stages[2].steps[0].outcome = 'PASS';
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(data));
    const r = runBin(['extract', '--data', 'bad.json', '--output', 'items.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('okstra-plan-items: bad.json: implementationPlanning.stages[2].steps[0].outcome: a RED: step must have outcome FAIL, got PASS\n');
    expect(r.stdout).toBe('');
    expect(existsSync(join(dir, 'items.json'))).toBe(false);
  });

  it.each([
    ['an empty file', '', 'bad.json: file is empty, expected JSON'],
    ['truncated JSON', '{"implementationPlanning": {"stages": [', 'bad.json: is not valid JSON (truncated or malformed)'],
    ['a JSON array', '[]', 'bad.json: expected a JSON object'],
    ['no implementationPlanning', '{"schemaVersion": "2.0"}', 'bad.json: implementationPlanning:'],
  ])('refuses %s with exit 2 and one line', (_what, text, start) => {
    writeFileSync(join(dir, 'bad.json'), text);
    const r = runBin(['extract', '--data', 'bad.json', '--output', 'items.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(`okstra-plan-items: ${start}`)).toBe(true);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'items.json'))).toBe(false);
  });

  it('refuses a missing file and a directory', () => {
    expect(runBin(['extract', '--data', 'nope.json', '--output', 'i.json'], dir).stderr).toBe('okstra-plan-items: nope.json: file not found\n');
    expect(runBin(['extract', '--data', 'reports', '--output', 'i.json'], dir)).toMatchObject({
      code: 2,
      stderr: 'okstra-plan-items: reports: is a directory, expected a file\n',
    });
  });
});

describe('okstra-plan-items validate (real bin)', () => {
  it('exit 0 when the persisted queue equals a fresh extraction', () => {
    const r = runBin(['validate', '--data', RUN_FILES.data, '--items', RUN_FILES.items], dir);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, count: 25 });
  });

  it('exit 2 listing missing, extra and changed items', () => {
    const items = JSON.parse(readFileSync(join(dir, RUN_FILES.items), 'utf8'));
    items.items = items.items.filter((i: { id: string }) => i.id !== 'P-Rb-2-1');
    items.items.push({ ...items.items[0], id: 'P-Opt-3' });
    writeFileSync(join(dir, RUN_FILES.items), JSON.stringify(items));
    const data = JSON.parse(readFileSync(join(dir, RUN_FILES.data), 'utf8'));
    data.implementationPlanning.stages[0].steps[1].command = 'npm test';
    writeFileSync(join(dir, RUN_FILES.data), JSON.stringify(data));
    const r = runBin(['validate', '--data', RUN_FILES.data, '--items', RUN_FILES.items], dir);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ ok: false, missing: ['P-Rb-2-1'], extra: ['P-Opt-3'], changed: ['P-Step-1-2'], reordered: [] });
    expect(r.stderr).toBe(
      `okstra-plan-items: ${RUN_FILES.items}: persisted queue does not match a fresh extraction — missing: P-Rb-2-1; extra: P-Opt-3; changed: P-Step-1-2\n`,
    );
  });

  it('exit 2 on an items file of an unknown schemaVersion', () => {
    writeFileSync(join(dir, 'items.json'), JSON.stringify({ schemaVersion: '9.9', items: [] }));
    expect(runBin(['validate', '--data', RUN_FILES.data, '--items', 'items.json'], dir)).toMatchObject({
      code: 2,
      stderr: 'okstra-plan-items: items.json: schemaVersion: unsupported schemaVersion "9.9" (supported: 1.0)\n',
    });
  });
});
