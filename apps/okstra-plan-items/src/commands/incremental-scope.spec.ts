import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
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

/** The example report as a pre-0.164.0 report-writer wrote it: no `outcome` column, the sentence in `expected`, no `step_count`. */
function pre0164(): string {
  const data = JSON.parse(readFileSync(join(dir, RUN_FILES.data), 'utf8'));
  const plan = data.implementationPlanning;
  for (const stage of plan.stages) for (const step of stage.steps) delete step.outcome;
  for (const row of plan.stageMap.stages) delete row.step_count;
  plan.stages[0].steps[0].action = 'write the failing test first'; // the older wording had no RED:/GREEN: prefixes
  writeFileSync(join(dir, 'pre-0164.data.json'), JSON.stringify(data, null, 2));
  return 'pre-0164.data.json';
}

describe('incremental-scope reads a report written before 0.164.0', () => {
  const old = (...args: string[]) => runBin(['incremental-scope', '--prev-data', pre0164(), ...args], dir);

  it('decides exactly as from the current report: no outcome column is needed', () => {
    for (const args of [
      ['--base-sha', SHA, '--answered-clarifications', 'C-004'],
      ['--base-sha', SHA, '--answered-clarifications', 'C-007,C-002'],
      ['--base-sha', 'b'.repeat(40), '--impacted', '4'],
      ['--preview', '--answered-clarifications', 'C-004,C-007'],
    ]) {
      const r = old(...args);
      expect([args, r.code, r.stderr]).toEqual([args, 0, '']);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(scope(...args).stdout));
    }
  });

  it('still refuses what it cannot decide from, naming the field', () => {
    const data = JSON.parse(readFileSync(join(dir, pre0164()), 'utf8'));
    data.implementationPlanning.stageMap.stages[1].depends_on = [7];
    writeFileSync(join(dir, 'broken.data.json'), JSON.stringify(data));
    expect(runBin(['incremental-scope', '--preview', '--prev-data', 'broken.data.json'], dir)).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'okstra-plan-items: broken.data.json: implementationPlanning.stageMap.stages[1].depends_on: stage 2 depends on unknown stage 7\n',
    });
    delete data.implementationPlanning.stageMap;
    writeFileSync(join(dir, 'broken.data.json'), JSON.stringify(data));
    expect(runBin(['incremental-scope', '--preview', '--prev-data', 'broken.data.json'], dir).stderr).toMatch(
      /^okstra-plan-items: broken\.data\.json: implementationPlanning\.stageMap: /,
    );
  });
});

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
