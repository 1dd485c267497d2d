import { memoryIo } from '@okstra/cli-kit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './main.js';
import { makeProject, promptPath, RUN, sidecarPath, TEAM_STATE } from './test-support/project.js';

let p: ReturnType<typeof makeProject>;
beforeEach(() => {
  p = makeProject();
});
afterEach(() => p.cleanup());

const row = (workerId: string, over: Record<string, unknown> = {}) => ({
  workerId,
  provider: workerId,
  role: 'analyser',
  status: 'in-progress',
  startedAt: '2026-11-29T08:00:00Z',
  attempt: 1,
  livenessMode: 'audit-heartbeat',
  auditSidecarPath: sidecarPath(workerId),
  promptPath: promptPath(workerId),
  ...over,
});

describe('main (in-process, injected clock)', () => {
  it("--team-state '-' is exit 2 saying a state file is no stdin (cli-kit's pathArg, the one path-argument rule)", async () => {
    const io = memoryIo({ cwd: p.root });
    expect(await main(['--team-state', '-', '--worker', 'claude'], io)).toBe(2);
    expect(io.err()).toMatch(/^okstra-worker-liveness: -: '-' \(stdin\/stdout\) is accepted only for a document input or output; .*\n$/);
    expect(io.out()).toBe('');
  });

  it('prints byte-identical aligned lines for the same inputs and time', async () => {
    p.teamState([
      row('claude'),
      row('codex'),
      row('gemini', { livenessMode: 'wrapper-status', auditSidecarPath: null }),
      row('opencode', { status: 'not-run', startedAt: null }),
    ]);
    p.write(sidecarPath('claude'), '# sidecar\r\n- PROGRESS: 2026-11-29T09:06:00+01:00 round-1 reading\r\n');
    p.write(sidecarPath('codex'), '# sidecar\n- PROGRESS: 2026-11-29T08:01:00Z round-1 reading\n');
    const argv = [...['claude', 'codex', 'gemini', 'opencode'].flatMap((w) => ['--team-state', TEAM_STATE, '--worker', w]), '--stall-confirm', '0'];
    const runOnce = async () => {
      const io = memoryIo({ cwd: p.root, now: () => new Date('2026-11-29T08:10:00Z') });
      return { code: await main(argv, io), out: io.out(), err: io.err() };
    };
    const first = await runOnce();
    expect(first).toEqual({
      code: 1,
      err: '',
      out:
        `claude    live            audit-heartbeat  heartbeat 2026-11-29T08:06:00.000Z (240 s ago) in ${sidecarPath('claude')}\n` +
        'codex     stalled         audit-heartbeat  newest heartbeat 2026-11-29T08:01:00.000Z is 540 s old (budget 360 s)\n' +
        `gemini    did-not-launch  wrapper-status   neither ${RUN}/prompts/gemini-prompt-error-analysis-001.log nor ${RUN}/prompts/gemini-prompt-error-analysis-001.status.json appeared 600 s after startedAt 2026-11-29T08:00:00.000Z (launch grace 120 s)\n` +
        'opencode  not-run         audit-heartbeat  terminal status in team-state\n',
    });
    expect(await runOnce()).toEqual(first);
  });
});
