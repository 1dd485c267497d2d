// issue 41 items 1-2: one dispatcher per run (racing dispatches launch each provider once) and
// dispatches larger than one tmux command (every worker gets its pane). Real tmux, the built bin.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installStubProvider } from '@okstra/team-state/test-support';
import { team, teamAsync } from '../test-support/bin.js';
import { makeFixture, panes, privateServer, runArgs as run, snapshotTexts, waitFor, type Fixture } from '../test-support/fixture.js';

const socket = privateServer();

/** A provider that appends one line per launch (`<worker result file>`) to `<home>/launches.log`, then answers. */
function countingFixture(n: number, rootName?: string): Fixture & { launches(): string[] } {
  const ids = Array.from({ length: n }, (_, i) => `w${i + 1}`);
  const f = makeFixture(
    ids.map((id) => ({ id, provider: 'stub-ok' })),
    { socket, rootName },
  );
  const log = join(f.home, 'launches.log');
  installStubProvider(f.home, 'stub-ok', `#!/bin/sh\ncat > /dev/null\necho "$2" >> '${log}'\nmkdir -p "$(dirname "$2")"\necho done > "$2"\n`);
  return { ...f, launches: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}

describe('one dispatcher per run (issue 41 item 1)', () => {
  it('4 dispatches of one manifest racing: one exits 0, the others exit 2 naming the holder or the dispatch; each provider runs once', async () => {
    const f = countingFixture(3);
    const results = await Promise.all(Array.from({ length: 4 }, () => teamAsync(['dispatch', ...run(f)], { env: f.env })));
    const codes = results.map((r) => r.code).sort();
    expect(codes).toEqual([0, 2, 2, 2]);
    for (const r of results.filter((x) => x.code === 2)) {
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        /run-error-analysis-001\.lock\.json: another okstra-team dispatch \(pid \d+, since .*\) is dispatching for this run|was already dispatched as 'initial'/,
      );
    }
    await waitFor(() => f.launches().length >= 3);
    expect(team(['await', ...run(f), '--json'], { env: f.env }).code).toBe(0);
    expect(f.launches().sort()).toEqual(['w1', 'w2', 'w3'].map((w) => f.result(w)).sort());
    expect(f.manifest().workerDispatches.map((r: any) => r.workerId)).toEqual(['w1', 'w2', 'w3']);
    expect(existsSync(join(f.runDir, 'state', 'run-error-analysis-001.lock.json'))).toBe(false);
    team(['teardown', ...run(f)], { env: f.env });
  });

  it('a second dispatch after the first ended: exit 2 naming the worker, nothing written, nothing launched', async () => {
    const f = countingFixture(2);
    expect(team(['dispatch', ...run(f)], { env: f.env }).code).toBe(0);
    expect(team(['await', ...run(f), '--json'], { env: f.env }).code).toBe(0);
    const before = snapshotTexts(f.root);
    const again = team(['dispatch', ...run(f)], { env: f.env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /workerAssignments\[0\]\.workerId: worker 'w1' was already dispatched as 'initial' at .* \(tmux-pane\); a second dispatch would run it twice/,
    );
    expect(snapshotTexts(f.root)).toEqual(before);
    expect(f.launches()).toHaveLength(2);
    team(['teardown', ...run(f)], { env: f.env });
  });
});

describe('dispatch larger than one tmux command (issue 41 item 2)', () => {
  it('20 workers under a deep project root: every one gets its own tagged pane (no "command too long", no subprocess)', async () => {
    // A deep root makes each pane's commands long: 20 of them are well past tmux's 16 KiB message.
    const f = countingFixture(20, `project-${'d'.repeat(200)}`);
    const d = team(['dispatch', ...run(f)], { env: f.env });
    // one progress line per worker started, nothing else (docs/team.md "Progress")
    expect(d.stderr.split('\n').filter(Boolean)).toEqual(Array.from({ length: 20 }, () => expect.stringMatching(/^okstra-team: \S+ started$/)));
    expect(d.code).toBe(0);
    const records = f.manifest().workerDispatches;
    expect(records.map((r: any) => r.backend)).toEqual(Array(20).fill('tmux-pane'));
    const ids = new Set(records.map((r: any) => r.paneId));
    expect(ids.size).toBe(20);
    const mine = panes(socket).filter((p) => ids.has(p.id));
    expect(mine).toHaveLength(20);
    for (const p of mine) expect(p).toMatchObject({ tag: 'sample:payments:refund-timeout/error-analysis-001', title: 'analyser', remain: 'on' });
    await waitFor(() => f.launches().length >= 20);
    expect(team(['await', ...run(f), '--json'], { env: f.env }).code).toBe(0);
    expect(f.launches()).toHaveLength(20);
    team(['teardown', ...run(f)], { env: f.env });
  });
});
