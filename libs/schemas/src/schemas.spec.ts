import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobsFile, RunManifest, TeamState, schemaId } from './index.js';
import { validateWithJsonSchemaFile } from './test-support/json-schema-file.js';

const jsonSchemaDir = new URL('../dist/json-schema/', import.meta.url).pathname;

const validTeamState = {
  schemaVersion: '1.0',
  taskKey: 'sample:payments:refund-timeout',
  taskType: 'error-analysis',
  seq: '001',
  workers: [
    {
      workerId: 'claude',
      provider: 'claude',
      role: 'analyser',
      model: 'opus',
      status: 'completed',
      startedAt: '2026-11-29T08:00:00Z',
      endedAt: '2026-11-29T08:10:00.5+01:00',
      reason: null,
      attempt: 1,
      livenessMode: 'audit-heartbeat',
      auditSidecarPath: '.okstra/x.audit.md',
      promptPath: '.okstra/x.md',
      resultPath: '.okstra/r.md',
      extraKeyFromNewerRuntime: true,
    },
  ],
};

const validManifest = {
  schemaVersion: '1.0',
  taskKey: 'sample:payments:refund-timeout',
  taskType: 'error-analysis',
  seq: '001',
  status: 'running',
  startedAt: '2026-11-29T08:00:00Z',
  endedAt: null,
  teamStatePath: 'state/team-state-error-analysis-001.json',
  reportAuthor: 'report-writer',
  leadRuntime: 'external',
  terminalBackend: 'tmux-pane',
  hostRuntime: 'external',
  leadAssignment: { role: 'lead', provider: 'claude', model: 'opus', executionValue: 'claude-opus', runner: 'cli-wrapper' },
  workerAssignments: [{ workerId: 'codex', role: 'analyser', provider: 'codex', model: 'gpt', executionValue: 'gpt-x', runner: 'cli-wrapper' }],
  workerDispatches: [
    {
      dispatchKind: 'initial',
      workerId: 'codex',
      backend: 'subprocess',
      paneId: null,
      startedAt: '2026-11-29T08:00:01Z',
      degradedFrom: 'tmux-pane',
      reason: 'no tmux server',
    },
  ],
};

describe('zod schemas', () => {
  it('accept a valid team-state and keep unknown keys', () => {
    const parsed = TeamState.parse(validTeamState);
    expect(parsed.workers[0]).toMatchObject({ workerId: 'claude', extraKeyFromNewerRuntime: true });
  });
  it('refuse duplicate worker ids with the JSON path', () => {
    const dup = { ...validTeamState, workers: [validTeamState.workers[0], validTeamState.workers[0]] };
    const r = TeamState.safeParse(dup);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['workers', 1, 'workerId']);
  });
  it('refuse a bad status and a bad timestamp', () => {
    expect(TeamState.safeParse({ ...validTeamState, workers: [{ ...validTeamState.workers[0], status: 'done' }] }).success).toBe(false);
    expect(TeamState.safeParse({ ...validTeamState, workers: [{ ...validTeamState.workers[0], startedAt: 'yesterday' }] }).success).toBe(false);
  });
  it('accept a run manifest with a degraded dispatch and default workerDispatches', () => {
    expect(RunManifest.parse(validManifest).workerDispatches[0]?.degradedFrom).toBe('tmux-pane');
    const { workerDispatches: _drop, ...noDispatches } = validManifest;
    expect(RunManifest.parse(noDispatches).workerDispatches).toEqual([]);
  });
  it('refuse a jobs file with two jobs for one worker', () => {
    const job = {
      workerId: 'codex',
      provider: 'codex',
      role: 'worker-reverify-r2',
      modelExecutionValue: 'gpt',
      promptPath: 'p.md',
      resultPath: 'r.md',
      workerResultPath: 'w.md',
      completionPaths: ['r.md'],
    };
    const r = JobsFile.safeParse({ schemaVersion: '1.0', dispatchKind: 'reverify-r2', jobs: [job, job] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("worker 'codex' has more than one job in this dispatch");
  });
});

describe('generated JSON Schemas (build output)', () => {
  it('exist with their $id for every foundation artifact', () => {
    for (const name of ['project', 'task-manifest', 'run-manifest', 'team-state', 'jobs-file']) {
      const file = join(jsonSchemaDir, `${name}.schema.json`);
      expect(existsSync(file), file).toBe(true);
      expect(JSON.parse(readFileSync(file, 'utf8')).$id).toBe(schemaId(name));
    }
  });
  it('validate the same documents the zod schemas accept, with ajv', async () => {
    await expect(validateWithJsonSchemaFile(join(jsonSchemaDir, 'team-state.schema.json'), validTeamState)).resolves.toBeUndefined();
    await expect(validateWithJsonSchemaFile(join(jsonSchemaDir, 'run-manifest.schema.json'), validManifest)).resolves.toBeUndefined();
  });
  it('refuse what zod refuses, naming the instance path', async () => {
    const bad = { ...validTeamState, workers: [{ ...validTeamState.workers[0], status: 'done' }] };
    await expect(validateWithJsonSchemaFile(join(jsonSchemaDir, 'team-state.schema.json'), bad, 'ts.json')).rejects.toMatchObject({
      file: 'ts.json',
      field: '/workers/0/status',
    });
  });
  it('are usable from a schema file written anywhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'okstra-schema-'));
    const f = join(dir, 's.json');
    writeFileSync(f, JSON.stringify({ type: 'object', required: ['a'] }));
    await expect(validateWithJsonSchemaFile(f, {})).rejects.toMatchObject({ message: "must have required property 'a'" });
  });
});
