import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { team } from '../test-support/bin.js';
import { awaitJson, makeFixture, panes, privateServer, runArgs as run, snapshotTexts as snapshot } from '../test-support/fixture.js';

// CLI-wrapper workers as the seeds judge them (issue 13): a missing CLI fails
// at dispatch; a busy worker whose prompt asks for no PROGRESS lines is
// judged by its wrapper, not stalled; the provider's final answer and usage
// reach the result file and await's JSON.
const socket = privateServer();

/** A user provider whose CLI prints a Claude Code stream-json init and success result, and writes no result file. */
function installAnsweringProvider(home: string): void {
  const dir = join(home, '.okstra', 'adapters', 'providers', 'stub-answer');
  mkdirSync(dir, { recursive: true });
  const init = { type: 'system', subtype: 'init', session_id: 'sess-1', model: 'claude-sonnet-5', permissionMode: 'dontAsk', cwd: '/p' };
  const result = {
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: '# Findings\n\nnone\n',
    session_id: 'sess-1',
    duration_ms: 1500,
    duration_api_ms: 1200,
    num_turns: 2,
    total_cost_usd: 0.02,
    usage: { input_tokens: 10, output_tokens: 20, cache_creation_input_tokens: 3, cache_read_input_tokens: 40 },
    modelUsage: { 'claude-sonnet-5': { outputTokens: 20 } },
  };
  writeFileSync(join(dir, 'run.sh'), `#!/bin/sh\ncat > /dev/null\nprintf '%s\\n' '${JSON.stringify(init)}' '${JSON.stringify(result)}'\n`);
  chmodSync(join(dir, 'run.sh'), 0o755);
  writeFileSync(
    join(dir, 'provider.json'),
    JSON.stringify({ schemaVersion: '1.0', id: 'stub-answer', executable: './run.sh', argv: [], capabilities: ['analysis'], capture: 'claude-stream-json' }),
  );
}

describe('CLI-wrapper workers (issue 13)', () => {
  it('a provider CLI not on PATH fails at dispatch: exit 2 naming it, before any job file, row or pane', () => {
    const f = makeFixture([{ id: 'kimi', provider: 'kimi' }], { socket, env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` } });
    const before = snapshot(f.root);
    const r = team(['dispatch', ...run(f)], { env: f.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`okstra-team: ${f.manifestPath}: workerAssignments[0].provider: provider CLI 'kimi' not found on PATH\n`);
    expect(snapshot(f.root)).toEqual(before);
    expect(panes(socket)).toEqual([]);
  });

  it('several provider CLIs not on PATH are named in one refusal (dry-run too), not one per attempt', () => {
    const f = makeFixture(
      [
        { id: 'kimi', provider: 'kimi' },
        { id: 'grok', provider: 'grok' },
      ],
      { socket, env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` } },
    );
    const before = snapshot(f.root);
    for (const extra of [[], ['--dry-run']]) {
      const r = team(['dispatch', ...run(f), ...extra], { env: f.env });
      expect([r.code, r.stderr]).toEqual([
        2,
        `okstra-team: ${f.manifestPath}: workerAssignments[0].provider: provider CLI 'kimi' not found on PATH (also: 'grok' for workerAssignments[1].provider)\n`,
      ]);
    }
    expect(snapshot(f.root)).toEqual(before);
  });

  it('a busy CLI worker whose prompt asks for no PROGRESS lines is judged by its wrapper and ends completed (scaled budgets)', () => {
    const f = makeFixture([{ id: 'busy', provider: 'stub-slow' }], {
      socket,
      heartbeatPrompt: false,
      env: { OKSTRA_LIVENESS_LAUNCH_GRACE_S: '1', OKSTRA_LIVENESS_MAX_IDLE_S: '1', OKSTRA_LIVENESS_STALL_CONFIRM_S: '0.2' },
    });
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    expect(f.row('busy')).toMatchObject({ livenessMode: 'wrapper-status' });
    const a = awaitJson(f);
    expect(a.doc.workers[0]).toMatchObject({ workerId: 'busy', status: 'completed', reason: null });
    expect(a.doc.workers[0].durationMs).toBeGreaterThan(3_000);
    expect(f.row('busy')).toMatchObject({ status: 'completed' });
    team(['teardown', ...run(f)], { env: f.env });
  });

  it('the same worker told to heartbeat into its sidecar, writing none, is stalled — the rule cuts both ways', () => {
    const f = makeFixture([{ id: 'mute', provider: 'stub-slow' }], {
      socket,
      env: { OKSTRA_LIVENESS_LAUNCH_GRACE_S: '1', OKSTRA_LIVENESS_MAX_IDLE_S: '1', OKSTRA_LIVENESS_STALL_CONFIRM_S: '0.2' },
    });
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    expect(f.row('mute')).toMatchObject({ livenessMode: 'audit-heartbeat' });
    expect(awaitJson(f).doc.workers[0]).toMatchObject({ workerId: 'mute', status: 'timeout', reason: expect.stringMatching(/^stalled: /) });
    team(['teardown', ...run(f)], { env: f.env });
  });

  it("a worker that wrote no result file but gave a final answer ends completed with the answer captured; await's JSON carries its usage", () => {
    const f = makeFixture([{ id: 'ans', provider: 'stub-answer' }], { socket });
    installAnsweringProvider(f.home);
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    const a = awaitJson(f);
    expect(a.code).toBe(0);
    expect(a.doc.workers[0]).toMatchObject({
      workerId: 'ans',
      status: 'completed',
      usage: {
        source: 'claude-stream-json',
        model: 'claude-sonnet-5',
        sessionId: 'sess-1',
        inputTokens: 10,
        cachedInputTokens: 40,
        cacheWriteInputTokens: 3,
        outputTokens: 20,
        reasoningOutputTokens: null,
        costUsd: 0.02,
        providerDurationMs: 1500,
        apiDurationMs: 1200,
        turns: 2,
      },
    });
    expect(readFileSync(f.result('ans'), 'utf8')).toBe('# Findings\n\nnone\n');
    const job = JSON.parse(readFileSync(join(f.root, f.manifest().workerDispatches[0].jobPath), 'utf8'));
    expect(job).toMatchObject({ capture: 'claude-stream-json', lastMessagePath: null });
    expect(existsSync(f.prompt('ans').replace(/\.md$/, '.status.json'))).toBe(true);
    team(['teardown', ...run(f)], { env: f.env });
  });
});
