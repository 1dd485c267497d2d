import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { team } from '../test-support/bin.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';

/** A project whose run has a team-state with a pending `codex` row and no `claude` row. */
function project(): { root: string; teamState: string } {
  const root = mkdtempSync(join(tmpdir(), 'okstra-native-'));
  dirs.push(root);
  mkdirSync(join(root, RUN, 'state'), { recursive: true });
  const teamState = join(root, RUN, 'state/team-state-error-analysis-001.json');
  const rows = [{ workerId: 'codex', provider: 'codex', role: 'Codex worker', status: 'pending', attempt: 0 }];
  writeFileSync(teamState, JSON.stringify({ schemaVersion: '1.0', taskType: 'error-analysis', seq: '001', workers: rows }, null, 2) + '\n');
  return { root, teamState };
}
const read = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

const native = (teamState: string, extra: string[] = []) => [
  'worker-state',
  'transition',
  '--team-state',
  teamState,
  '--worker',
  'claude',
  '--status',
  'in-progress',
  '--provider',
  'claude',
  '--role',
  'Claude worker',
  '--model',
  'claude-opus-4-1',
  '--liveness-mode',
  'audit-heartbeat',
  '--audit-sidecar',
  `${RUN}/worker-results/claude-error-analysis-001.audit.md`,
  '--prompt',
  `${RUN}/prompts/claude-prompt-error-analysis-001.md`,
  '--result',
  `${RUN}/worker-results/claude-error-analysis-001.md`,
  ...extra,
];

describe('worker-state transition records a worker the lead starts itself (docs/team.md "Native workers")', () => {
  it('creates the row with provider, role, model, liveness mode, project-relative paths and startedAt, through the locked path', () => {
    const { root, teamState } = project();
    const r = team(native(teamState, ['--dispatch-kind', 'initial']), { cwd: root });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const row = read(teamState).workers.find((w: { workerId: string }) => w.workerId === 'claude');
    expect(row).toMatchObject({
      workerId: 'claude',
      provider: 'claude',
      role: 'Claude worker',
      model: 'claude-opus-4-1',
      status: 'in-progress',
      attempt: 1,
      dispatchKind: 'initial',
      livenessMode: 'audit-heartbeat',
      auditSidecarPath: `${RUN}/worker-results/claude-error-analysis-001.audit.md`,
      promptPath: `${RUN}/prompts/claude-prompt-error-analysis-001.md`,
      resultPath: `${RUN}/worker-results/claude-error-analysis-001.md`,
      endedAt: null,
    });
    expect(Date.parse(row.startedAt)).not.toBeNaN();
    expect(read(teamState).workers[0]).toMatchObject({ workerId: 'codex', status: 'pending' });
  });

  it('fills the fields of an existing pending row, keeping its other keys', () => {
    const { root, teamState } = project();
    const r = team(
      [
        'worker-state',
        'transition',
        '--team-state',
        teamState,
        '--worker',
        'codex',
        '--status',
        'in-progress',
        '--liveness-mode',
        'wrapper-status',
        '--prompt',
        `${RUN}/prompts/codex-prompt-error-analysis-001.md`,
      ],
      {
        cwd: root,
      },
    );
    expect(r.code).toBe(0);
    expect(read(teamState).workers[0]).toMatchObject({
      workerId: 'codex',
      provider: 'codex',
      role: 'Codex worker',
      status: 'in-progress',
      livenessMode: 'wrapper-status',
      promptPath: `${RUN}/prompts/codex-prompt-error-analysis-001.md`,
    });
  });

  it.each<[string, string[], string]>([
    ['row fields with a terminal status', ['--status', 'completed'], '--provider records a worker it starts, so it needs --status in-progress'],
    ['audit-heartbeat without a sidecar', ['--audit-sidecar', ''], '--liveness-mode audit-heartbeat needs --audit-sidecar'],
    ['a path that escapes the project', ['--result', '../../outside.md'], 'escapes the project root'],
  ])('refuses %s: exit 2, one line, file unchanged', (_name, extra, message) => {
    const { root, teamState } = project();
    const before = readFileSync(teamState, 'utf8');
    const args = native(teamState);
    for (let i = 0; i < extra.length; i += 2) {
      const at = args.indexOf(extra[i]!);
      if (at >= 0) args[at + 1] = extra[i + 1]!;
      else args.push(extra[i]!, extra[i + 1]!);
    }
    const r = team(args, { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toContain(message);
    expect(readFileSync(teamState, 'utf8')).toBe(before);
  });

  it('an unknown worker without --provider and --role is still refused', () => {
    const { root, teamState } = project();
    const r = team(['worker-state', 'transition', '--team-state', teamState, '--worker', 'ghost', '--status', 'in-progress'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no worker row 'ghost'");
  });
});
