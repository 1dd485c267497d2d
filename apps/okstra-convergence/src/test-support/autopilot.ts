// A sample project seeded for `okstra-convergence run`, with stub provider CLIs (installed as user
// providers in a temp HOME) that answer every id of their batch, and a private tmux server.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_ANSWER_STUB as STUB, installStubProvider } from '@okstra/team-state/test-support';
import { BIN, ok, REPO, tempDir } from './bin.js';

/** The sample run, project-relative. */
export const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';
export const STATE = `${RUN}/state`;
export const MANIFEST = `${RUN}/manifests/run-manifest-error-analysis-001.json`;
export const WORK = `${STATE}/convergence-work-error-analysis-001.json`;
export const FINAL = `${STATE}/convergence-final-error-analysis-001.json`;

/** A seeded copy of the sample project and the env `run` needs; `kill()` stops its tmux server. */
export interface AutopilotProject {
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
  read(rel: string): string;
  json(rel: string): any;
  kill(): void;
}

/**
 * `STUB_VERDICTS` of a run whose workers disagree (with grok as a third analyser): F-004 refuted by both its
 * reviewers, F-005 split at the round limit (contested), F-010 unverifiable; the rest agreed. The demo runs the same.
 */
export const DISAGREEING_VERDICTS = 'codex:F-004=REFUTED grok:F-004=REFUTED grok:F-005=REFUTED claude:F-010=UNVERIFIABLE grok:F-010=UNVERIFIABLE';

/**
 * Copy examples/sample-project, seed it, install the stubs claude, codex and grok. `thirdAnalyser`: that critic of
 * the sample's roster re-verifies as an analyser instead (three reviewers, so a finding can split and end contested).
 */
export function autopilotProject(extraEnv: NodeJS.ProcessEnv = {}, opts: { thirdAnalyser?: string } = {}): AutopilotProject {
  const base = tempDir('okstra-autopilot-');
  const root = join(base, 'p');
  const home = join(base, 'home');
  cpSync(join(REPO, 'examples', 'sample-project'), root, { recursive: true });
  mkdirSync(home);
  if (opts.thirdAnalyser) {
    const groups = join(root, `${STATE}/convergence-groups-error-analysis-001.json`);
    const g = JSON.parse(readFileSync(groups, 'utf8')) as { roster: Array<{ workerId: string; role: string }> };
    for (const w of g.roster) if (w.workerId === opts.thirdAnalyser) w.role = 'analyser';
    writeFileSync(groups, JSON.stringify(g, null, 2) + '\n');
  }
  ok(
    [
      'seed',
      '--groups',
      `${STATE}/convergence-groups-error-analysis-001.json`,
      '--work-state',
      WORK,
      '--final-state',
      FINAL,
      '--migration-dir',
      `${STATE}/convergence-migration`,
    ],
    root,
  );
  for (const id of ['claude', 'codex', 'grok']) installStubProvider(home, id, STUB);
  const socket = `okstra-ap-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const env = {
    ...process.env,
    HOME: home,
    OKSTRA_TMUX_SOCKET: socket,
    OKSTRA_TEAM_POLL_MS: '50',
    TMUX: '',
    STUB_FAIL_FIRST: 'codex',
    ...extraEnv,
  };
  return {
    root,
    home,
    env,
    read: (rel) => readFileSync(join(root, rel), 'utf8'),
    json: (rel) => JSON.parse(readFileSync(join(root, rel), 'utf8')),
    kill: () => void spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' }),
  };
}

/** `okstra-convergence run …` in the project (the built bin), with its env and `extraEnv` (the step trace seam, …). */
export function runAutopilot(
  p: AutopilotProject,
  args: string[],
  timeout = 120_000,
  extraEnv: NodeJS.ProcessEnv = {},
): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, 'run', '--project-root', '.', '--run-manifest', MANIFEST, ...args], {
    cwd: p.root,
    env: { ...p.env, ...extraEnv },
    encoding: 'utf8',
    timeout,
  });
  return { code: r.status ?? 128, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
