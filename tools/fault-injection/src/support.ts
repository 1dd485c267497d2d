// Shared helpers of the fault-injection suite: the built bins, a fresh copy of
// examples/ with valid inputs for every command, async runs with a hang timeout,
// tree snapshots, and the result table each spec prints (docs/conventions.md).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  convergenceFinalStatePath,
  convergenceGroupsPath,
  convergenceMigrationDir,
  convergenceWorkStatePath,
  coverageBatchPath,
  finalReportDataPath,
  planItemsPath,
  planVerifyResultPath,
  planVerdictsPath,
  reverifyResultPath,
  roundPlanPath,
  roundResultsPath,
  runDir,
  runManifestPath,
  taskRoot,
  teamStatePath,
} from '@okstra/paths';
import { LOCK_SUFFIX, TEMP_MARK } from '@okstra/state-file';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const bin = (app: string) => join(REPO, 'apps', app, 'dist', 'bin.js');
export const BIN = {
  conv: bin('okstra-convergence'),
  plan: bin('okstra-plan-items'),
  team: bin('okstra-team'),
  live: bin('okstra-worker-liveness'),
  audit: bin('okstra-run-audit'),
} as const;
export type BinName = keyof typeof BIN;

/** A finished (or killed) run of a bin. `hung`: still running at the timeout, then killed. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  hung: boolean;
}

/** Run `bin args` in `cwd`; `killAfterMs` sends SIGKILL at that instant (the fuzz); a run past `timeoutMs` is a hang. */
export function run(
  name: BinName,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; killAfterMs?: number; stdin?: string; wrap?: (argv: string[]) => string[] },
): Promise<RunResult> {
  const started = Date.now();
  // `wrap`: a prefix such as the disk-full matrix's `sh -c 'ulimit -f N; exec …'`.
  const [file, ...argv] = (opts.wrap ?? ((a) => a))([process.execPath, BIN[name], ...args]) as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(file, argv, {
      cwd: opts.cwd,
      env: { ...process.env, OKSTRA_DEBUG: '', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(opts.stdin ?? '');
    const hang = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 20_000);
    const kill = opts.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(hang);
      if (kill) clearTimeout(kill);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, hung });
    });
  });
}

/** Run tasks with at most `limit` at a time. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T, i);
      }
    }),
  );
  return out;
}

const made: string[] = [];
/** Remove every scenario directory made so far (afterAll). */
export function cleanup(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** The two sample runs of examples/ (their run refs for the libs/paths layout). */
export const EA = { taskType: 'error-analysis', seq: '001' };
const IP = { taskType: 'implementation-planning', seq: '001' };

/** A fresh temp copy of examples/ and the paths of its two sample runs. */
export function scenario() {
  const tmp = mkdtempSync(join(tmpdir(), 'okstra-fi-'));
  made.push(tmp);
  cpSync(join(REPO, 'examples'), tmp, { recursive: true });
  const project = join(tmp, 'sample-project');
  const task = taskRoot(project, { taskGroup: 'payments', taskId: 'refund-timeout' });
  const ea = runDir(task, EA);
  const ip = runDir(task, IP);
  return {
    tmp,
    project,
    ea,
    ip,
    groups: convergenceGroupsPath(ea, EA),
    work: convergenceWorkStatePath(ea, EA),
    final: convergenceFinalStatePath(ea, EA),
    mig: convergenceMigrationDir(ea),
    plan1: roundPlanPath(ea, 1, EA),
    results1: roundResultsPath(ea, 1, EA),
    coverage: coverageBatchPath(ea, EA),
    manifest: runManifestPath(ea, EA),
    teamState: teamStatePath(ea, EA),
    claudeResult: reverifyResultPath(ea, 'claude', 1, EA),
    data: finalReportDataPath(ip, IP),
    items: planItemsPath(ip, IP),
    verdicts: planVerdictsPath(ip, IP),
    planVerifyResult: planVerifyResultPath(ip, 'claude', IP),
    ipTeamState: teamStatePath(ip, IP),
  };
}
export type Scenario = ReturnType<typeof scenario>;

/** The `collect-results` arguments of round 1 of the sample run (from its manifest's dispatch outcomes). */
export function collectArgs(s: Scenario, output = s.results1, plan = s.plan1, result = s.claudeResult): string[] {
  return [
    'collect-results',
    '--plan',
    plan,
    '--mode',
    'adversarial',
    '--dispatch',
    'claude=completed:520000',
    '--dispatch',
    'codex=timeout:1800000',
    '--result',
    `claude=${result}`,
    '--output',
    output,
  ];
}

/** Seed, plan round 1, collect it and extract the plan items: every command then has valid inputs. */
export async function prepare(s: Scenario): Promise<void> {
  const must = async (name: BinName, args: string[]) => {
    const r = await run(name, args, { cwd: s.project });
    if (r.code !== 0) throw new Error(`${name} ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  };
  await must('conv', ['seed', '--groups', s.groups, '--work-state', s.work, '--final-state', s.final, '--migration-dir', s.mig]);
  await must('conv', ['plan-round', '--work-state', s.work, '--plan', s.plan1]);
  await must('conv', collectArgs(s));
  await must('plan', ['extract', '--data', s.data, '--output', s.items]);
}

/** Every entry under `dir` (relative path → sha256 of a file's bytes, `link:`/`dir`/`special`), for "nothing changed" checks. */
export function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const rel = relative(dir, p);
      if (skip(rel)) continue;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[rel] = `link:${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[rel] = 'dir';
        walk(p);
      } else if (st.isFile()) out[rel] = createHash('sha256').update(readFileSync(p)).digest('hex');
      else out[rel] = 'special';
    }
  };
  walk(dir);
  return out;
}

/** Keys whose value differs between two snapshots (added, removed or changed). */
export function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).sort();
}

/** True for a clean refusal: exit 2, not hung, no stack trace (notes on earlier lines are allowed; the error is one line). */
export function cleanRefusal(r: RunResult): boolean {
  return r.code === 2 && !r.hung && !/\n\s+at \S/.test(r.stderr);
}

/** Print a result table the lead can quote: `| test | tries | failures |`. */
export function printTable(title: string, rows: ReadonlyArray<{ test: string; tries: number; failures: number; note?: string }>): void {
  const lines = [`\n### fault-injection: ${title}`, '| test | tries | failures |', '|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.test} | ${r.tries} | ${r.failures}${r.note ? ` (${r.note})` : ''} |`);
  process.stdout.write(lines.join('\n') + '\n');
}

/**
 * The whole convergence lifecycle of the sample run on `s` (as the demo runs it):
 * every round, the critic gaps, finalize. Leaves a terminal working state and a final state.
 */
export async function lifecycle(s: Scenario): Promise<void> {
  const conv = async (args: string[]) => {
    const r = await run('conv', args, { cwd: s.project });
    if (r.code !== 0) throw new Error(`okstra-convergence ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  await conv(['seed', '--groups', s.groups, '--work-state', s.work, '--final-state', s.final, '--migration-dir', s.mig]);
  const manifest = JSON.parse(readFileSync(s.manifest, 'utf8'));
  for (let round = 1; ; round++) {
    const plan = roundPlanPath(s.ea, round, EA);
    const results = roundResultsPath(s.ea, round, EA);
    if ((await conv(['plan-round', '--work-state', s.work, '--plan', plan])).queueTerminal) break;
    const outcome = manifest.convergence.rounds.find((r: { round: number }) => r.round === round);
    const args = ['collect-results', '--plan', plan, '--mode', 'adversarial', '--output', results];
    for (const d of outcome.dispatches) {
      args.push('--dispatch', `${d.workerId}=${d.status}:${d.durationMs}`);
      if (d.resultPath) args.push('--result', `${d.workerId}=${d.resultPath}`);
    }
    await conv(args);
    await conv(['apply-round', '--work-state', s.work, '--plan', plan, '--results', results]);
  }
  await conv(['apply-critic-gaps', '--work-state', s.work, '--results', s.coverage]);
  await conv(['finalize', '--work-state', s.work, '--output', s.final]);
}

/** A copy of scenario `s` (its whole temp tree) with every path re-rooted — into `into` when given (the caller removes it). */
export function clone(s: Scenario, into?: string): Scenario {
  const tmp = into ?? mkdtempSync(join(tmpdir(), 'okstra-fi-'));
  if (!into) made.push(tmp);
  cpSync(s.tmp, tmp, { recursive: true });
  const out = { ...s } as Record<string, string>;
  for (const [k, v] of Object.entries(s)) out[k] = v.startsWith(s.tmp) ? tmp + v.slice(s.tmp.length) : v;
  return out as unknown as Scenario;
}

/** The fuzz's seeded generator: its kill instants are the same on every run. */
export { seededRandom as random } from '@okstra/core/test-support';

/** Temp files and lock directories left under `dir` (the names writeBytesAtomic / withFileLock use). */
export function leftovers(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (name.includes(TEMP_MARK) || name.endsWith(LOCK_SUFFIX)) out.push(relative(dir, p));
      else if (lstatSync(p).isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}
