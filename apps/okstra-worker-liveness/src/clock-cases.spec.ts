// issue 41 item 6: the liveness rule of docs/worker-liveness.md as a table, against the built bin.
// Each case places the row's startedAt and the newest artifact (a heartbeat line, or the wrapper's
// .log mtime) relative to the judge's clock. "The judge's clock 2 h behind" is the same table with
// every stamp the lead and the worker wrote 2 h ahead of it. The oracle below is the doc's text:
// - startedAt more than 300 s after now: never live — stalled / did-not-launch (no confirm wait);
// - audit-heartbeat: a heartbeat counts when stamped in [startedAt − 30 s, now + 30 s]; live while
//   the newest counting one is at most --max-idle (360 s) old, or, with none, while now ≤ startedAt +
//   --launch-grace (120 s); else stalled;
// - wrapper-status: live when the .log was modified no earlier than startedAt − 30 s, or while now ≤
//   startedAt + 120 s; else did-not-launch.
import { afterAll, describe, expect, it } from 'vitest';
import { liveness, makeProject, promptPath, row, sidecarPath } from './test-support/project.js';

const p = makeProject();
afterAll(() => p.cleanup());

const M = 60;
/** startedAt, seconds after the judge's now (negative: before). */
const STARTS = [-120 * M, -10 * M, -3 * M, -1 * M, 0, 4 * M, 6 * M, 120 * M];
/** The newest artifact, seconds after the judge's now; null: none. */
const ARTIFACTS: Array<number | null> = [null, -125 * M, -7 * M, -1 * M, 20, 2 * M, 120 * M];
/** The judge's clock skew: every stamp shifted by this (0, and the judge 2 h behind the lead and worker). */
const SKEWS = [0, 120 * M];

type Mode = 'audit-heartbeat' | 'wrapper-status';

/** docs/worker-liveness.md's rule (times in seconds relative to the judge's now). */
function expected(mode: Mode, start: number, artifact: number | null): string {
  if (start > 300) return mode === 'audit-heartbeat' ? 'stalled' : 'did-not-launch';
  if (mode === 'audit-heartbeat') {
    const counts = artifact !== null && artifact >= start - 30 && artifact <= 30;
    if (counts) return -artifact <= 360 ? 'live' : 'stalled';
    return 0 <= start + 120 ? 'live' : 'stalled';
  }
  const counts = artifact !== null && artifact >= start - 30;
  return counts || 0 <= start + 120 ? 'live' : 'did-not-launch';
}

interface Case {
  id: string;
  mode: Mode;
  start: number;
  artifact: number | null;
}

const cases: Case[] = [];
for (const mode of ['audit-heartbeat', 'wrapper-status'] as const)
  for (const skew of SKEWS)
    for (const start of STARTS)
      for (const artifact of ARTIFACTS) {
        // Only pairs the skew keeps distinct: a case with skew s is the unskewed case shifted by s.
        cases.push({ id: `w${cases.length}`, mode, start: start + skew, artifact: artifact === null ? null : artifact + skew });
      }

describe('docs/worker-liveness.md clock cases (table, built bin, --stall-confirm 0)', () => {
  it(`${cases.length} cases: the bin's verdict is the doc's, a future startedAt (2 h ahead) and a judge 2 h behind included`, async () => {
    const now = Date.now();
    const at = (s: number) => new Date(now + s * 1000);
    for (const c of cases) {
      if (c.artifact === null) continue;
      if (c.mode === 'audit-heartbeat') p.write(sidecarPath(c.id), `# sidecar\n\n- PROGRESS: ${at(c.artifact).toISOString()} round-1 reading\n`);
      else p.write(promptPath(c.id).replace(/\.md$/, '.log'), 'started\n', at(c.artifact));
    }
    p.teamState(
      cases.map((c) =>
        row(
          c.id,
          -c.start,
          c.mode === 'wrapper-status'
            ? { livenessMode: 'wrapper-status', auditSidecarPath: null, startedAt: at(c.start).toISOString() }
            : { startedAt: at(c.start).toISOString() },
        ),
      ),
    );
    const args = [
      '--stall-confirm',
      '0',
      '--json',
      ...cases.flatMap((c) => [
        '--team-state',
        '.okstra/tasks/bugs/queue-stall/runs/error-analysis/state/team-state-error-analysis-001.json',
        '--worker',
        c.id,
      ]),
    ];
    const r = await liveness(args, p.root);
    expect(r.stderr).toBe('');
    const verdicts = new Map<string, string>(JSON.parse(r.stdout).workers.map((w: { workerId: string; verdict: string }) => [w.workerId, w.verdict]));
    // The bin judges a moment after `now`: a case on a boundary (±1 s) is left out rather than raced.
    const onEdge = (c: Case) => [c.start + 120, c.start - 30, c.start - 300, (c.artifact ?? 1e9) + 360, (c.artifact ?? 1e9) - 30].some((t) => Math.abs(t) <= 2);
    const disagree = cases.filter((c) => !onEdge(c) && verdicts.get(c.id) !== expected(c.mode, c.start, c.artifact));
    expect(
      disagree.map((c) => `${c.mode} start ${c.start}s artifact ${c.artifact}s: bin ${verdicts.get(c.id)}, doc ${expected(c.mode, c.start, c.artifact)}`),
    ).toEqual([]);
    expect(cases.filter(onEdge).length).toBeLessThan(cases.length / 10);
  }, 120_000);
});
