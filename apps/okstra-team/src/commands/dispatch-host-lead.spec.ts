import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { team } from '../test-support/bin.js';
import { makeFixture, panes, privateServer, runArgs as run, type Fixture } from '../test-support/fixture.js';

const socket = privateServer();

/** The fixture run led by Claude Code: `claude` is a native-session row, the others CLI wrappers. */
function hostLed(runners: Record<string, 'native-session' | 'cli-wrapper'>): Fixture {
  const f = makeFixture(
    Object.keys(runners).map((id) => ({ id, provider: 'stub-ok' })),
    { socket },
  );
  const manifest = f.manifest();
  manifest.leadRuntime = 'claude-code';
  manifest.hostRuntime = 'claude-code';
  for (const a of manifest.workerAssignments) a.runner = runners[a.workerId];
  writeFileSync(f.manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  return f;
}

describe('team dispatch of a manifest led by a host (docs/team.md "Native workers")', () => {
  it('dispatches only the cli-wrapper rows; the native-session rows are the lead’s', () => {
    const f = hostLed({ claude: 'native-session', codex: 'cli-wrapper' });
    const r = team(['dispatch', ...run(f), '--dry-run'], { env: f.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).jobs.map((j: { workerId: string }) => j.workerId)).toEqual(['codex']);
  });

  it('refuses --workers naming a native row, and a manifest with nothing to dispatch: exit 2, nothing written', () => {
    const f = hostLed({ claude: 'native-session', codex: 'cli-wrapper' });
    const before = readFileSync(f.teamStatePath, 'utf8');
    const named = team(['dispatch', ...run(f), '--workers', 'claude'], { env: f.env });
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(
      `okstra-team: ${f.manifestPath}: workerAssignments[0].runner: worker 'claude' is a native-session worker of the claude-code lead: the lead starts it, not okstra team\n`,
    );
    const g = hostLed({ claude: 'native-session' });
    const none = team(['dispatch', ...run(g)], { env: g.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("every assignment is native-session under leadRuntime 'claude-code'");
    expect(readFileSync(f.teamStatePath, 'utf8')).toBe(before);
    expect(panes(socket)).toEqual([]);
  });
});
