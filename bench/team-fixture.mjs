// The team part of bench/team.bench.mjs and bench/commands.bench.mjs: the
// stub provider `bench-ok` (reads its prompt, writes its result) under a
// private HOME, a private tmux server, and projects with n cli-wrapper workers
// of it. Fixture files come from the one team-run builder the specs and the
// demo use (libs/team-state/src/test-support, built by `npm run bench`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { installStubProvider, writeTeamRun } from '../libs/team-state/dist/test-support/index.js';

/**
 * Install the stub provider under `base/<name>-home` and start a private tmux server.
 * @returns `env` for okstra-team (HOME, OKSTRA_TMUX_SOCKET, a 100 ms poll) and `stop()`, which kills the server.
 */
export function teamWorld(base, name) {
  const home = join(base, `${name}-home`);
  installStubProvider(home, 'bench-ok', '#!/bin/sh\ncat > /dev/null\nmkdir -p "$(dirname "$2")"\necho done > "$2"\n', ['analysis']);
  const socket = `okstra-bench-${name}-${process.pid}`;
  const env = { ...process.env, HOME: home, OKSTRA_TMUX_SOCKET: socket, OKSTRA_TEAM_POLL_MS: '100' };
  delete env.TMUX;
  delete env.TMUX_PANE;
  spawnSync('tmux', ['-L', socket, 'new-session', '-d', '-s', 'keepalive', 'sleep', '3600']);
  return { env, stop: () => spawnSync('tmux', ['-L', socket, 'kill-server']) };
}

/**
 * A project at `root` with a pending team state and a running manifest of `n` analyser workers (`w1`…) of `bench-ok` for run `seq`, prompts written.
 * @returns the project-relative `manifest` and `teamState` paths, the worker `ids`, and okstra-team's `args` for it.
 */
export function teamProject(root, n, seq) {
  const ids = Array.from({ length: n }, (_, i) => `w${i + 1}`);
  const paths = writeTeamRun(
    root,
    ids.map((id) => ({ id, provider: 'bench-ok', role: 'analyser' })),
    { seq, taskKey: 'bench:payments:refund-timeout', startedAt: '2026-11-29T08:00:00Z', model: 'm' },
  );
  for (const id of ids) {
    mkdirSync(dirname(join(root, paths.prompt(id))), { recursive: true });
    writeFileSync(join(root, paths.prompt(id)), `# ${id}\n`);
  }
  return { root, manifest: paths.manifest, teamState: paths.teamState, ids, args: ['--project-root', root, '--run-manifest', join(root, paths.manifest)] };
}
