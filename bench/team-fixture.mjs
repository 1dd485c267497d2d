// The team fixture shared by bench/team.bench.mjs and bench/commands.bench.mjs:
// a stub provider `bench-ok` (reads its prompt, writes its result) under a
// private HOME, a private tmux server, and projects whose run manifest names
// n cli-wrapper workers of that provider.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';

/**
 * Install the stub provider under `base/home` and start a private tmux server.
 * @returns `env` for okstra-team (HOME, OKSTRA_TMUX_SOCKET, a 100 ms poll) and `stop()`, which kills the server.
 */
export function teamWorld(base, name) {
  const home = join(base, `${name}-home`);
  const dir = join(home, '.okstra', 'adapters', 'providers', 'bench-ok');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\ncat > /dev/null\nmkdir -p "$(dirname "$1")"\necho done > "$1"\n');
  chmodSync(join(dir, 'run.sh'), 0o755);
  writeFileSync(
    join(dir, 'provider.json'),
    JSON.stringify({ schemaVersion: '1.0', id: 'bench-ok', executable: './run.sh', argv: ['{resultPath}'], capabilities: ['analysis'] }),
  );
  const socket = `okstra-bench-${name}-${process.pid}`;
  const env = { ...process.env, HOME: home, OKSTRA_TMUX_SOCKET: socket, OKSTRA_TEAM_POLL_MS: '100' };
  delete env.TMUX;
  delete env.TMUX_PANE;
  spawnSync('tmux', ['-L', socket, 'new-session', '-d', '-s', 'keepalive', 'sleep', '3600']);
  return { env, stop: () => spawnSync('tmux', ['-L', socket, 'kill-server']) };
}

/**
 * A project at `root` with a pending team state and a run manifest of `n` workers (`w1`…) for run `seq`.
 * @returns the project-relative `manifest` and `teamState` paths, the worker `ids`, and okstra-team's `args` for it.
 */
export function teamProject(root, n, seq) {
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
  return { root, manifest, teamState, ids, args: ['--project-root', root, '--run-manifest', join(root, manifest)] };
}
