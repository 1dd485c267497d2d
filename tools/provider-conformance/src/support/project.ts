// A real, non-git project with one error-analysis run laid out by libs/paths,
// a team-state row in progress, and a runner for `okstra-team exec`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditSidecarPath, promptPath, wrapperStatusPath, workerResultPath } from '@okstra/paths';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import type { WrapperStatus } from '@okstra/schemas/team-wrapper-status';

const require = createRequire(import.meta.url);
const TEAM_BIN = join(dirname(require.resolve('okstra-team/package.json')), 'dist', 'bin.js');
export const STARTED = '2026-11-29T08:00:00.000Z';
const run = { taskType: 'error-analysis', seq: '001' };

const made: string[] = [];
/** Outside every temp dir: codex refuses to set up its sandbox helper under a CODEX_HOME in /tmp or $TMPDIR (as a real ~/.codex never is). */
const HOMES = fileURLToPath(new URL('../../tmp/', import.meta.url));

/** A fresh, empty HOME for one CLI run (removed by {@link removeProjects}). */
export function makeHome(): string {
  mkdirSync(HOMES, { recursive: true });
  const home = mkdtempSync(join(HOMES, 'home-'));
  made.push(home);
  return home;
}
/** Remove every temp directory made here (afterAll). */
export function removeProjects(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface Project {
  base: string;
  root: string;
  home: string;
  runDir: string;
  teamStatePath: string;
  prompt: string;
  result: string;
  audit: string;
  statusOf(): WrapperStatus;
  row(): TeamStateRow;
}

/** A project (not a git repository) whose worker `w` is in progress since {@link STARTED}. */
export function makeProject(workerId = 'w', promptText = '# Analyse src/refund.ts\n'): Project {
  const base = mkdtempSync(join(tmpdir(), 'okstra-conf-'));
  made.push(base);
  const root = join(base, 'project');
  const home = makeHome();
  const runDir = join(root, '.okstra', 'tasks', 'payments', 'refund-timeout', 'runs', run.taskType);
  const teamStatePath = join(runDir, 'state', 'team-state-error-analysis-001.json');
  const prompt = promptPath(runDir, workerId, run);
  mkdirSync(dirname(prompt), { recursive: true });
  mkdirSync(dirname(teamStatePath), { recursive: true });
  writeFileSync(prompt, promptText);
  const state = {
    schemaVersion: '1.0',
    taskKey: 'sample:payments:refund-timeout',
    taskType: run.taskType,
    seq: run.seq,
    workers: [{ workerId, provider: 'claude', role: 'analyser', status: 'in-progress', attempt: 1, startedAt: STARTED }],
  };
  writeFileSync(teamStatePath, JSON.stringify(state, null, 2));
  const result = workerResultPath(runDir, workerId, run);
  return {
    base,
    root,
    home,
    runDir,
    teamStatePath,
    prompt,
    result,
    audit: auditSidecarPath(runDir, workerId, run),
    statusOf: () => JSON.parse(readFileSync(wrapperStatusPath(prompt), 'utf8')) as WrapperStatus,
    row: () => (JSON.parse(readFileSync(teamStatePath, 'utf8')) as { workers: TeamStateRow[] }).workers[0]!,
  };
}

function writeJob(p: Project, job: ExecJob): string {
  const jobPath = join(p.runDir, 'state', 'team-jobs', `initial-w.job.json`);
  mkdirSync(dirname(jobPath), { recursive: true });
  const doc = {
    schemaVersion: '1.0',
    dispatchKind: 'initial',
    workerId: 'w',
    role: 'analyser',
    model: 'sonnet',
    projectRoot: p.root,
    teamStatePath: p.teamStatePath,
    promptPath: p.prompt,
    resultPath: p.result,
    completionPaths: [p.result],
    promptDelivery: 'stdin',
    rowStartedAt: STARTED,
    ...job,
  };
  writeFileSync(jobPath, JSON.stringify(doc, null, 2));
  return jobPath;
}

type ExecJob = {
  provider: string;
  command: { file: string; args: string[]; env?: Record<string, string> };
  capture: string;
  lastMessagePath: string | null;
  promptDelivery?: string;
  role?: string;
  model?: string;
};

/** Write a job file for `okstra-team exec` and run it; @returns its exit code, stdout and stderr. */
export function runExec(p: Project, job: ExecJob, env: NodeJS.ProcessEnv = process.env): { code: number | null; stdout: string; stderr: string } {
  const jobPath = writeJob(p, job);
  const r = spawnSync(process.execPath, [TEAM_BIN, 'exec', '--job', jobPath], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** {@link runExec} without blocking this process (a server in it must keep answering). */
export function runExecAsync(p: Project, job: ExecJob, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const jobPath = writeJob(p, job);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TEAM_BIN, 'exec', '--job', jobPath], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
