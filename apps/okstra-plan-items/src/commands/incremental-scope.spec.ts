import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateWithJsonSchemaFile } from '@okstra/schemas/test-support';
import { copyExampleRun, REPO, RUN_FILES, runBin, UMBRELLA } from '../test-support/run-bin.js';

let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = copyExampleRun()));
afterAll(() => cleanup());

const SHA = '3f9c2a71d0b4e8f6a5c3d2e1f0a9b8c7d6e5f4a3';
const scope = (...args: string[]) => runBin(['incremental-scope', '--prev-data', RUN_FILES.data, ...args], dir);

describe('okstra-plan-items incremental-scope (real bin)', () => {
  it('incremental for C-004 on an unchanged base SHA', () => {
    const r = scope('--base-sha', SHA, '--answered-clarifications', 'C-004');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({
      mode: 'incremental',
      reverifyStages: [2, 3],
      reason: 'downstream closure covers 2 of 4 stages (at most half)',
      unlinkedIds: [],
    });
  });

  it('full for an id that traces to no stage, with its own reason', () => {
    expect(JSON.parse(scope('--base-sha', SHA, '--answered-clarifications', 'C-007,C-002').stdout)).toEqual({
      mode: 'full',
      reverifyStages: [1, 2, 3, 4],
      reason: 'answered ids trace to no stage in the prior report: C-002',
      unlinkedIds: ['C-002'],
    });
  });

  it('full for --full-reason and for nothing resolved, reasons distinct', () => {
    const declared = JSON.parse(scope('--base-sha', SHA, '--answered-clarifications', 'C-007', '--full-reason', 'the option changes').stdout);
    const nothing = JSON.parse(scope('--base-sha', SHA).stdout);
    expect(declared.reason).toBe('full re-run declared: the option changes');
    expect(nothing.reason).toBe('no impacted stages resolved');
  });

  it('--impacted accepts Stage Map stages only', () => {
    expect(JSON.parse(scope('--base-sha', SHA, '--impacted', '4').stdout)).toMatchObject({ mode: 'incremental', reverifyStages: [4] });
    expect(scope('--base-sha', SHA, '--impacted', '4,9')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "okstra-plan-items: --impacted: '9' is not a stage in the prior Stage Map (stages: 1, 2, 3, 4)\n",
    });
    expect(scope('--base-sha', SHA, '--impacted', 'two').code).toBe(2);
  });

  it('--preview prints the link half and takes no base SHA', () => {
    const r = scope('--preview', '--answered-clarifications', 'C-004,C-007');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({
      wouldForceFull: false,
      unlinkedIds: [],
      reason: 'downstream closure covers 2 of 4 stages (at most half): stages 2, 3 if the base SHA is unchanged',
    });
    expect(scope('--preview', '--base-sha', SHA)).toMatchObject({
      code: 2,
      stderr: 'okstra-plan-items: --preview runs the link half alone and takes no --base-sha\n',
    });
  });

  it('--preview has no side effects', () => {
    const snapshot = () =>
      readdirSync(dir, { recursive: true })
        .map(String)
        .sort()
        .map((p) => `${p}:${statSync(join(dir, p)).mtimeMs}`);
    const before = snapshot();
    scope('--preview', '--answered-clarifications', 'C-002');
    expect(snapshot()).toEqual(before);
  });

  it('usage errors exit 2 with one line', () => {
    expect(scope()).toMatchObject({ code: 2, stderr: 'okstra-plan-items: --base-sha <sha> is required (or use --preview)\n' });
    expect(scope('--base-sha', 'HEAD')).toMatchObject({ code: 2, stderr: "okstra-plan-items: --base-sha expects a git commit SHA, got 'HEAD'\n" });
    expect(scope('--preview', '--answered-clarifications', 'C-004,3')).toMatchObject({
      code: 2,
      stderr: "okstra-plan-items: --answered-clarifications: '3' is not a clarification id (C-NNN) or PREP item id (PREP-…)\n",
    });
    expect(scope('--base-sha', SHA, '--full-reason', ' ').code).toBe(2);
  });

  it('runs as `okstra incremental-scope` through the umbrella', () => {
    const r = runBin(['incremental-scope', '--preview', '--prev-data', RUN_FILES.data, '--answered-clarifications', 'C-002'], dir, UMBRELLA);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ wouldForceFull: true, unlinkedIds: ['C-002'], reason: 'answered ids trace to no stage in the prior report: C-002' });
  });
});

describe('emitted JSON Schemas', () => {
  const schemaDir = join(REPO, 'libs/schemas/dist/json-schema');
  it('implementation-planning-report-data accepts the example and refuses a RED: step with outcome PASS', async () => {
    const schema = join(schemaDir, 'implementation-planning-report-data.schema.json');
    const data = JSON.parse(readFileSync(join(dir, RUN_FILES.data), 'utf8'));
    await expect(validateWithJsonSchemaFile(schema, data, 'data.json')).resolves.toBeUndefined();
    data.implementationPlanning.stages[0].steps[0].outcome = 'PASS';
    await expect(validateWithJsonSchemaFile(schema, data, 'data.json')).rejects.toThrow(/const|must/);
  });

  it('plan-items and plan-verdicts accept the committed state files', async () => {
    await expect(
      validateWithJsonSchemaFile(join(schemaDir, 'plan-items.schema.json'), JSON.parse(readFileSync(join(dir, RUN_FILES.items), 'utf8'))),
    ).resolves.toBeUndefined();
    await expect(
      validateWithJsonSchemaFile(join(schemaDir, 'plan-verdicts.schema.json'), JSON.parse(readFileSync(join(dir, RUN_FILES.verdicts), 'utf8'))),
    ).resolves.toBeUndefined();
  });
});
