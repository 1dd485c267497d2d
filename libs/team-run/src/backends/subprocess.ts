import { childProcess } from '@okstra/core';
import { readdirSync, readFileSync } from 'node:fs';
import { wrapperArgv } from './wrapper-argv.js';

/**
 * Start the wrapper as a detached subprocess (the degraded, pane-less
 * dispatch): its own process group, stdio closed (the wrapper writes its own
 * `.log`), not waited for.
 * @returns pid and its start time (see {@link processStartTime}); pid null when it could not start.
 */
export function startDetachedWrapper(jobPath: string, cwd: string, env: NodeJS.ProcessEnv): { pid: number | null; pidStartTime: string | null } {
  const [file, ...args] = wrapperArgv(jobPath);
  const child = childProcess().spawn(file!, args, { cwd, env, detached: true, stdio: 'ignore' });
  child.on('error', () => undefined);
  child.unref();
  const pid = child.pid ?? null;
  return { pid, pidStartTime: pid === null ? null : processStartTime(pid) };
}

/**
 * A process's start time as the kernel records it (`/proc/<pid>/stat` field
 * 22, clock ticks since boot), so a recycled pid is not mistaken for the
 * wrapper. null when unavailable (not Linux, or no such process).
 */
export function processStartTime(pid: number): string | null {
  return procStat(pid)?.[19] ?? null;
}

/**
 * The fields of `/proc/<pid>/stat` after the command name (`state` first:
 * field 3 of proc(5) is index 0, pgrp index 2, starttime index 19); the
 * name is skipped up to its last `)`, as it may hold spaces and parentheses.
 * null when the file cannot be read (no such process, not Linux).
 */
function procStat(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The pids of this host's processes (the numeric entries of `/proc`); null where there is no `/proc`. */
export function procPids(): string[] | null {
  try {
    return readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return null;
  }
}

/** True when `pid` runs and (when recorded) still has the recorded start time; a zombie counts as dead. */
export function isWrapperAlive(pid: number, pidStartTime: string | null | undefined): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const fields = procStat(pid);
  if (!fields) return !pidStartTime;
  if (fields[0] === 'Z') return false;
  return !pidStartTime || fields[19] === pidStartTime;
}

/**
 * True when process group `pgid` still has a live (non-zombie) member and is
 * the recorded group: its leader (pid `pgid`) is gone — a pgid is never
 * handed out again while its group has members — or still has the recorded
 * start time. Members are read from `/proc/<pid>/stat` (field 5, pgrp);
 * without `/proc`, `kill(-pgid, 0)` decides.
 */
export function isGroupAlive(pgid: number, leaderStartTime: string | null | undefined): boolean {
  const leaderStart = processStartTime(pgid);
  if (leaderStart !== null && leaderStartTime && leaderStart !== leaderStartTime) return false;
  const pids = procPids();
  if (pids === null) {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  return pids.some((pid) => {
    const fields = procStat(pid);
    return fields !== null && fields[0] !== 'Z' && Number(fields[2]) === pgid;
  });
}

/**
 * Stop a recorded process group: SIGTERM, then SIGKILL after `graceMs` if a
 * member is left. Every signal is preceded by {@link isGroupAlive} (pid +
 * start time), so a reused pid is never signalled.
 * @returns true when the group is gone at the end (SIGKILL is given 500 ms).
 */
export async function stopGroup(pgid: number, leaderStartTime: string | null | undefined, graceMs = 1_000): Promise<boolean> {
  return terminate(() => isGroupAlive(pgid, leaderStartTime), -pgid, graceMs, 500);
}

/** Stop one recorded process (pid + start time checked first): SIGTERM, SIGKILL after `graceMs`. */
export async function stopProcess(pid: number, startTime: string | null | undefined, graceMs = 1_000): Promise<void> {
  await terminate(() => isWrapperAlive(pid, startTime), pid, graceMs, 0);
}

/**
 * SIGTERM `target` (a pid, or a negated pgid), SIGKILL it when still `alive()`
 * after `graceMs`, then wait up to `killWaitMs` for it to go. Each signal is
 * sent only while `alive()` (the recorded start time still matches).
 * @returns true when `alive()` is false at the end.
 */
async function terminate(alive: () => boolean, target: number, graceMs: number, killWaitMs: number): Promise<boolean> {
  const signal = (s: NodeJS.Signals) => {
    if (!alive()) return;
    try {
      process.kill(target, s);
    } catch {
      // gone meanwhile
    }
  };
  signal('SIGTERM');
  for (let waited = 0; waited < graceMs && alive(); waited += 50) await new Promise((r) => setTimeout(r, 50));
  signal('SIGKILL');
  for (let waited = 0; waited < killWaitMs && alive(); waited += 25) await new Promise((r) => setTimeout(r, 25));
  return !alive();
}
