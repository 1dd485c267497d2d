import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { memoryIo } from '@okstra/cli-kit';
import { main } from '../main.js';
import { team, teamAsync } from '../test-support/bin.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function teamStateFile(workers: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'okstra-ws-'));
  dirs.push(dir);
  const path = join(dir, 'team-state-error-analysis-001.json');
  const rows = workers.map((w) => ({ workerId: w, provider: 'claude', role: 'analyser', status: 'pending', attempt: 0 }));
  writeFileSync(path, JSON.stringify({ schemaVersion: '1.0', taskType: 'error-analysis', seq: '001', workers: rows }, null, 2));
  return path;
}
const read = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

describe('okstra-team worker-state transition (real bin)', () => {
  it('--team-state is relative to io.cwd (an in-process caller elsewhere than process.cwd), and `-` is refused', async () => {
    const p = teamStateFile(['claude']);
    const io = memoryIo({ cwd: dirname(p) });
    expect(await main(['worker-state', 'transition', '--team-state', basename(p), '--worker', 'claude', '--status', 'in-progress'], io)).toBe(0);
    expect(read(p).workers[0].status).toBe('in-progress');
    const dash = memoryIo({ cwd: dirname(p) });
    expect(await main(['worker-state', 'transition', '--team-state', '-', '--worker', 'claude', '--status', 'completed'], dash)).toBe(2);
    expect(dash.err()).toMatch(/^okstra-team: -: '-' \(stdin\/stdout\) is accepted only for a document input or output; /);
    expect(read(p).workers[0].status).toBe('in-progress');
  });

  it('in-progress then completed: timestamps, attempt and model recorded', () => {
    const p = teamStateFile(['claude']);
    const a = team(['worker-state', 'transition', '--team-state', p, '--worker', 'claude', '--status', 'in-progress', '--model', 'opus']);
    expect(a.code).toBe(0);
    const started = read(p).workers[0];
    expect(started).toMatchObject({ status: 'in-progress', attempt: 1, endedAt: null, model: 'opus' });
    expect(Date.parse(started.startedAt)).not.toBeNaN();
    const b = team(['worker-state', 'transition', '--team-state', p, '--worker', 'claude', '--status', 'completed']);
    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout)).toMatchObject({ applied: true, workerId: 'claude', row: { status: 'completed', startedAt: started.startedAt } });
    expect(read(p).workers[0].endedAt).toEqual(expect.any(String));
  });

  it('timeout without --reason: exit 2, file byte-identical', () => {
    const p = teamStateFile(['codex']);
    const before = readFileSync(p, 'utf8');
    const r = team(['worker-state', 'transition', '--team-state', p, '--worker', 'codex', '--status', 'timeout']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("okstra-team: --reason: status 'timeout' requires a reason\n");
    expect(readFileSync(p, 'utf8')).toBe(before);
  });

  it('unknown worker, unknown status, missing file: exit 2, one line', () => {
    const p = teamStateFile(['codex']);
    expect(team(['worker-state', 'transition', '--team-state', p, '--worker', 'nobody', '--status', 'completed']).stderr).toBe(
      `okstra-team: ${p}: workers: no worker row 'nobody'\n`,
    );
    expect(team(['worker-state', 'transition', '--team-state', p, '--worker', 'codex', '--status', 'done']).code).toBe(2);
    const missing = team(['worker-state', 'transition', '--team-state', p + '.nope', '--worker', 'codex', '--status', 'completed']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('file not found');
  });

  it('a terminal row is kept when another terminal status arrives', () => {
    const p = teamStateFile(['kimi']);
    team(['worker-state', 'transition', '--team-state', p, '--worker', 'kimi', '--status', 'error', '--reason', 'did-not-launch']);
    const r = team(['worker-state', 'transition', '--team-state', p, '--worker', 'kimi', '--status', 'completed']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ applied: false, skipped: 'terminal-row-kept', row: { status: 'error', reason: 'did-not-launch' } });
    expect(read(p).workers[0]).toMatchObject({ status: 'error', reason: 'did-not-launch' });
  });

  it('32 concurrent processes on distinct workers: all 32 recorded', async () => {
    const ids = Array.from({ length: 32 }, (_, i) => `w${String(i).padStart(2, '0')}`);
    const p = teamStateFile(ids);
    const results = await Promise.all(ids.map((id) => teamAsync(['worker-state', 'transition', '--team-state', p, '--worker', id, '--status', 'in-progress'])));
    expect(results.map((r) => r.code)).toEqual(ids.map(() => 0));
    const rows = read(p).workers;
    expect(rows.map((r: { workerId: string }) => r.workerId)).toEqual(ids);
    expect(rows.every((r: { status: string; attempt: number }) => r.status === 'in-progress' && r.attempt === 1)).toBe(true);
  }, 120_000);
});
