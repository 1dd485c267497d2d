// okstra-team targets (issue 7): dispatch of 8 jobs into tmux ≤ 2× dispatch
// of 1 (panes are created in one tmux invocation per window, no serial
// waits), and one await poll over 8 finished workers ≤ 1.5× a bare
// okstra-worker-liveness probe of the same 8 workers. A private tmux server
// (`OKSTRA_TMUX_SOCKET`) keeps the user's server out of it.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { binPath, median, timeCommand } from './lib.mjs';

export const title = 'okstra-team dispatch and await (median wall time)';

const RUNS = 7;
const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';

function setup(base, n, seq) {
  const root = join(base, `p-${n}-${seq}`);
  const write = (rel, value) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const ids = Array.from({ length: n }, (_, i) => `w${i + 1}`);
  const teamState = `${RUN}/state/team-state-error-analysis-${seq}.json`;
  const manifest = `${RUN}/manifests/run-manifest-error-analysis-${seq}.json`;
  for (const id of ids) write(`${RUN}/prompts/${id}-prompt-error-analysis-${seq}.md`, `# ${id}\n`);
  write(teamState, {
    schemaVersion: '1.0',
    taskType: 'error-analysis',
    seq,
    workers: ids.map((workerId) => ({ workerId, provider: 'bench-ok', role: 'analyser', status: 'pending', attempt: 0 })),
  });
  write(manifest, {
    schemaVersion: '1.0',
    taskKey: 'bench:payments:refund-timeout',
    taskType: 'error-analysis',
    seq,
    status: 'running',
    startedAt: '2026-11-29T08:00:00Z',
    teamStatePath: teamState,
    leadRuntime: 'external',
    terminalBackend: 'tmux-pane',
    hostRuntime: 'external',
    leadAssignment: { role: 'lead', provider: 'claude', model: 'opus', executionValue: 'opus', runner: 'native-session' },
    workerAssignments: ids.map((workerId) => ({ workerId, role: 'analyser', provider: 'bench-ok', model: 'm', executionValue: 'm', runner: 'cli-wrapper' })),
    workerDispatches: [],
  });
  return { root, manifest, teamState, ids };
}

export default async function () {
  const base = mkdtempSync(join(tmpdir(), 'okstra-team-bench-'));
  const home = join(base, 'home');
  const dir = join(home, '.okstra', 'adapters', 'providers', 'bench-ok');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\ncat > /dev/null\nmkdir -p "$(dirname "$1")"\necho done > "$1"\n');
  chmodSync(join(dir, 'run.sh'), 0o755);
  writeFileSync(
    join(dir, 'provider.json'),
    JSON.stringify({ schemaVersion: '1.0', id: 'bench-ok', executable: './run.sh', argv: ['{resultPath}'], capabilities: ['analysis'] }),
  );
  const socket = `okstra-bench-${process.pid}`;
  const env = { ...process.env, HOME: home, OKSTRA_TMUX_SOCKET: socket, OKSTRA_TEAM_POLL_MS: '100' };
  delete env.TMUX;
  delete env.TMUX_PANE;
  const team = binPath('okstra-team');
  spawnSync('tmux', ['-L', socket, 'new-session', '-d', '-s', 'keepalive', 'sleep', '3600']);
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
  try {
    const one = dispatchMs(1);
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
      { name: 'team dispatch, 8 jobs into tmux', ms: eight, baselineName: 'team dispatch, 1 job', baselineMs: one, target: 2 },
      { name: 'team await, one poll of 8 workers', ms: poll, baselineName: 'worker-liveness probe of the same 8', baselineMs: probe, target: 1.5 },
    ];
  } finally {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    rmSync(base, { recursive: true, force: true });
  }
}
