// Test fixtures of @okstra/team-run (the `./test-support` export; never published): a private tmux server per test file.
import { spawnSync } from 'node:child_process';

/** A tmux socket name (`tmux -L`) private to this test process. */
export function privateSocket(): string {
  return `okstra-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

/** `tmux -L <socket> args` (sync). */
export function tmux(socket: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Kill a private tmux server (ignore "no server"). */
export function killServer(socket: string): void {
  tmux(socket, ['kill-server']);
}
