// `run` on a host lead's run (issue #36): a Claude Code run's Claude rows are the lead's own sub-agents
// (`runner: native-session`); `run` dispatches only through okstra team, so it refuses such a run instead of
// putting the native row in a tmux pane through its CLI wrapper (it did before: the row ran twice).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { autopilotProject, MANIFEST, runAutopilot, type AutopilotProject } from './test-support/autopilot.js';

const projects: AutopilotProject[] = [];
afterAll(() => projects.forEach((p) => p.kill()));

describe('okstra-convergence run on a run with native-session workers', () => {
  it('is exit 2 naming the native worker, and starts nothing', () => {
    const p = autopilotProject();
    projects.push(p);
    const m = p.json(MANIFEST);
    m.leadRuntime = m.hostRuntime = 'claude-code';
    m.workerAssignments.find((a: { workerId: string }) => a.workerId === 'claude').runner = 'native-session';
    writeFileSync(join(p.root, MANIFEST), JSON.stringify(m, null, 2) + '\n');
    const r = runAutopilot(p, ['--rounds', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/worker 'claude' runs as the lead's own native session .*render-prompts/);
    expect(p.json(MANIFEST).workerDispatches).toEqual([]);
    expect(existsSync(join(p.root, '.okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-plan-r1-error-analysis-001.json'))).toBe(false);
  }, 60_000);
});
