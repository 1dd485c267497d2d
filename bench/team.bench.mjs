// okstra-team targets (issue 7): dispatch of 8 jobs into tmux ≤ 2× dispatch
// of 1 (panes are created in as few tmux invocations as fit its message limit,
// no serial waits); per-worker rows for 1, 16, 64 and 200 jobs (issue 41); and one await poll over 8 finished workers ≤ 1.5× a bare
// okstra-worker-liveness probe of the same 8 workers. A private tmux server
// (`OKSTRA_TMUX_SOCKET`) keeps the user's server out of it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binPath, median, timeCommand } from './lib.mjs';
import { teamProject, teamWorld } from './team-fixture.mjs';

export const title = 'okstra-team dispatch and await (median wall time)';

const RUNS = 7;
const setup = (base, n, seq) => teamProject(join(base, `p-${n}-${seq}`), n, seq);

export default async function () {
  const base = mkdtempSync(join(tmpdir(), 'okstra-team-bench-'));
  const { env, stop } = teamWorld(base, 'team');
  const team = binPath('okstra-team');
  let seq = 100;
  const dispatchMs = (n) => {
    const times = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const f = setup(base, n, String(++seq));
      const ms = timeCommand(process.execPath, [team, 'dispatch', '--project-root', f.root, '--run-manifest', join(f.root, f.manifest)], {
        env,
        expectCode: 0,
      });
      if (i > 0) times.push(ms);
      spawnSync(process.execPath, [team, 'await', '--project-root', f.root, '--run-manifest', join(f.root, f.manifest)], { env, stdio: 'ignore' });
      spawnSync(process.execPath, [team, 'teardown', '--project-root', f.root, '--run-manifest', join(f.root, f.manifest)], { env, stdio: 'ignore' });
    }
    return median(times);
  };
  // Dispatch that scales (issue 41): the time per worker of one dispatch of 16, 64 and 200 jobs (panes in
  // batches that fit tmux's message limit, windows of ≤ 42 panes), against a whole one-job dispatch measured
  // here: target ≤ 0.25× of it per worker (≤ 50 ms per worker where one job takes 200 ms).
  const perWorker = (n, runs) => {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const f = setup(base, n, String(++seq));
      const args = ['--project-root', f.root, '--run-manifest', join(f.root, f.manifest)];
      times.push(timeCommand(process.execPath, [team, 'dispatch', ...args], { env, expectCode: 0 }));
      spawnSync(process.execPath, [team, 'await', ...args], { env, stdio: 'ignore' });
      spawnSync(process.execPath, [team, 'teardown', ...args], { env, stdio: 'ignore' });
    }
    return median(times) / n;
  };
  try {
    const one = dispatchMs(1);
    const scaled = [16, 64, 200].map((n) => ({
      name: `team dispatch, ${n} jobs into tmux: ms per worker`,
      ms: perWorker(n, n >= 64 ? 1 : 3),
      baselineName: 'team dispatch, 1 job (whole)',
      baselineMs: one,
      target: 0.25,
    }));
    const eight = dispatchMs(8);
    const f = setup(base, 8, String(++seq));
    const args = ['--project-root', f.root, '--run-manifest', join(f.root, f.manifest)];
    timeCommand(process.execPath, [team, 'dispatch', ...args], { env, expectCode: 0 });
    spawnSync(process.execPath, [team, 'await', ...args], { env, stdio: 'ignore' });
    const probeArgs = f.ids.flatMap((id) => ['--team-state', join(f.root, f.teamState), '--worker', id]);
    const liveness = binPath('okstra-worker-liveness');
    const probe = median(Array.from({ length: RUNS }, () => timeCommand(process.execPath, [liveness, ...probeArgs], { env })));
    const poll = median(Array.from({ length: RUNS }, () => timeCommand(process.execPath, [team, 'await', ...args], { env, expectCode: 0 })));
    spawnSync(process.execPath, [team, 'teardown', ...args], { env, stdio: 'ignore' });
    return [
      { name: 'team dispatch, 1 job into tmux: ms per worker', ms: one, baselineName: 'team dispatch, 1 job (whole)', baselineMs: one },
      ...scaled,
      { name: 'team dispatch, 8 jobs into tmux', ms: eight, baselineName: 'team dispatch, 1 job', baselineMs: one, target: 2 },
      { name: 'team await, one poll of 8 workers', ms: poll, baselineName: 'worker-liveness probe of the same 8', baselineMs: probe, target: 1.5 },
    ];
  } finally {
    stop();
    rmSync(base, { recursive: true, force: true });
  }
}
