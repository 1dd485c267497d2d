// Helpers for the daemon's bin-level specs (daemon-bin.spec.ts, daemon-isolation-bin.spec.ts): private
// runtime directories, the pids of the daemons listening in one, and a real-time wait.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const uid = process.getuid!();

/** A fresh private runtime directory under `parent` (mode 0700): the daemons of one test never answer another's. */
export function makeRuntime(parent: string): string {
  const dir = mkdtempSync(join(parent, 'rt-'));
  chmodSync(dir, 0o700);
  return dir;
}

/** The socket directory a bin uses under runtime directory `rt`. */
export const socketDir = (rt: string) => join(rt, `okstra-daemon-${uid}`);

/** The socket files in `rt`'s socket directory. */
export const socketsIn = (rt: string) => (existsSync(socketDir(rt)) ? readdirSync(socketDir(rt)) : []);

/** Pids of daemons whose socket lies in `rt` (from /proc: the daemon's argv names its socket). */
export function daemonPids(rt: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(`${rt}/okstra-daemon-`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Wait (real time) until `ok()` holds, at most `ms`. */
export function waitFor(ok: () => boolean, ms = 15_000): boolean {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) spawnSync('sleep', ['0.1']);
  return ok();
}
