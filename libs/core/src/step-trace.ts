import { appendFileSync } from 'node:fs';

let steps = 0;

/**
 * Test seam of the crash-safety suite (docs/test-seams.md, tools/fault-injection run-kill.spec):
 * mark that a process just finished step `step` (e.g. `r1 plan-round`, `r1 dispatch rows-in-progress`).
 * Both variables unset (as always outside tests): nothing happens — no file, no timer, no change
 * of behaviour. `OKSTRA_STEP_TRACE=<file>` appends `<n>\t<step>\t<ms>\n` (n counts from 1 per process,
 * ms since the process started);
 * `OKSTRA_STEP_KILL_AT=<n>[:<ms>]` sends this process SIGKILL at the n-th step boundary, or `ms`
 * milliseconds after it (inside the next step; an unref'd timer, so a process that ends first is not held).
 * `env` is the process environment the command runs with (CliIo `env`).
 */
export function traceStep(env: NodeJS.ProcessEnv, step: string): void {
  const file = env.OKSTRA_STEP_TRACE;
  const killAt = env.OKSTRA_STEP_KILL_AT;
  if (!file && !killAt) return;
  steps++;
  if (file) appendFileSync(file, `${steps}\t${step}\t${Math.round(performance.now())}\n`);
  const m = killAt ? /^(\d+)(?::(\d+))?$/.exec(killAt) : null;
  if (!m || Number(m[1]) !== steps) return;
  const ms = Number(m[2] ?? 0);
  if (ms === 0) process.kill(process.pid, 'SIGKILL');
  else setTimeout(() => process.kill(process.pid, 'SIGKILL'), ms).unref();
}
