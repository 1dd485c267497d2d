// Helpers shared by bench/*.bench.mjs: repeated wall-clock timing of real
// processes and medians. Ratios are always against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(new URL('..', import.meta.url).pathname);

/** Absolute path of an app's built bin. */
export function binPath(name) {
  return join(repoRoot, 'apps', name, 'dist', 'bin.js');
}

/** Median of numbers. */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Wall time in ms of one run of `file args` (synchronous, output discarded). */
export function timeCommand(file, args, options = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(file, args, {
    stdio: options.input ? ['pipe', 'ignore', 'ignore'] : 'ignore',
    input: options.input,
    cwd: options.cwd,
    env: options.env ?? process.env,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (options.expectCode !== undefined && r.status !== options.expectCode) {
    throw new Error(`${file} ${args.join(' ')} exited ${r.status}, expected ${options.expectCode}`);
  }
  return ms;
}

/** Median wall time (ms) of `runs` runs of an async or sync function, after `warmup` runs. */
export async function medianOf(fn, { runs = 9, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** Runs per side of {@link ab} (after one warm-up each): OKSTRA_BENCH_RUNS, default 11. */
const AB_RUNS = Number(process.env.OKSTRA_BENCH_RUNS ?? 11);

/** One run of `node args…`: wall ms and exit code (output discarded); `preload` is given to node as `-r`. */
export function once(args, { cwd, env, preload } = {}) {
  const argv = preload ? ['-r', preload, ...args] : args;
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd, env, stdio: 'ignore' });
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, code: r.status };
}

/**
 * Median wall ms of node commands `a` and `b` ({ args, cwd?, env?, code? = expected exit code, default 0 }),
 * interleaved run by run after one warm-up each, so machine load hits both sides alike.
 * @throws when either exits with a code other than its expected one.
 */
export function ab(a, b) {
  const ta = [];
  const tb = [];
  for (let i = 0; i <= AB_RUNS; i++) {
    for (const [cmd, times] of [
      [a, ta],
      [b, tb],
    ]) {
      const r = once(cmd.args, cmd);
      if (r.code !== (cmd.code ?? 0)) throw new Error(`node ${cmd.args.join(' ')} exited ${r.code}, expected ${cmd.code ?? 0}`);
      if (i > 0) times.push(r.ms);
    }
  }
  return [median(ta), median(tb)];
}
