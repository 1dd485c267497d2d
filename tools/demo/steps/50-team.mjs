// okstra team on the sample task: a fresh error-analysis run (seq 003) whose
// three workers use stub provider CLIs installed as user providers in a temp
// HOME. dispatch puts them in panes of a detached tmux session on a private
// socket, a report-writer jobs file dispatched with tmux off PATH degrades to
// a detached subprocess, await judges the initial round and then the report-writer round from their artifacts, and
// teardown closes exactly the panes it recorded (a second teardown is a no-op).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
// The team fixture builder shared with the specs, built by `npm run demo`'s build step (libs/team-state/src/test-support).
import { installStubProvider, teamRunPaths, writeTeamRun } from '../../../libs/team-state/dist/test-support/index.js';

export const title = 'team: dispatch into tmux, degrade, await, teardown';

const SEQ = '003';
const { runDir: RUN, manifest: MANIFEST, prompt, result } = teamRunPaths({ seq: SEQ });
const JOBS = `${RUN}/state/report-writer-jobs-error-analysis-${SEQ}.json`;

const STUB_OK = `#!/bin/sh
prompt=$(cat)
mkdir -p "$(dirname "$2")"
printf -- '- PROGRESS: %s round-1 reading the prompt\\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "\${2%.md}.audit.md"
echo "stub provider: model $1, $(printf %s "$prompt" | wc -c) prompt bytes"
sleep 1
printf '# findings\\n\\n- F-1 refund retry window too short\\n' > "$2"
`;
const STUB_FAIL = `#!/bin/sh
echo "stub provider: not logged in" >&2
exit 1
`;

export default async function ({ workDir, run, log }) {
  if (spawnSync('tmux', ['-V']).status !== 0) return { ok: false, summary: 'tmux is not installed; the team step needs it' };
  const root = join(workDir, 'sample-project');
  const write = (rel, value) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), typeof value === 'string' ? value : JSON.stringify(value, null, 2) + '\n');
  };
  const home = mkdtempSync(join(workDir, 'home-'));
  installStubProvider(home, 'stub-claude', STUB_OK, ['analysis', 'critic', 'report-writer']);
  installStubProvider(home, 'stub-codex', STUB_OK);
  installStubProvider(home, 'stub-kimi', STUB_FAIL);
  const workers = ['claude', 'codex', 'kimi'].map((id) => ({ id, provider: `stub-${id}`, role: 'analyser' }));
  for (const id of [...workers.map((w) => w.id), 'report-writer']) write(prompt(id), `# ${id}: error-analysis ${SEQ}\nWhy do refunds time out under load?\n`);
  writeTeamRun(root, workers, { seq: SEQ });
  write(JOBS, {
    schemaVersion: '1.0',
    dispatchKind: 'report-writer',
    jobs: [
      {
        workerId: 'report-writer',
        provider: 'stub-claude',
        role: 'report-writer',
        modelExecutionValue: 'stub-model',
        promptPath: prompt('report-writer'),
        resultPath: result('report-writer'),
        workerResultPath: result('report-writer'),
        completionPaths: [result('report-writer')],
      },
    ],
  });

  const socket = `okstra-demo-${process.pid}`;
  const env = { HOME: home, OKSTRA_TMUX_SOCKET: socket, OKSTRA_TEAM_POLL_MS: '200', TMUX: '', TMUX_PANE: '' };
  const noTmux = mkdtempSync(join(workDir, 'bin-'));
  for (const tool of ['sh', 'cat', 'sleep', 'date', 'mkdir', 'dirname', 'printf', 'wc']) {
    const found = execFileSync('sh', ['-c', `command -v ${tool} || true`], { encoding: 'utf8' }).trim();
    if (found.startsWith('/')) symlinkSync(found, join(noTmux, tool));
  }
  const base = ['--project-root', '.', '--run-manifest', MANIFEST];
  const team = (args, extraEnv = {}) => {
    log(`  $ okstra team ${args.join(' ')}`);
    return run('okstra', ['team', ...args], { cwd: root, env: { ...env, ...extraEnv } });
  };
  try {
    const dry = team(['dispatch', ...base, '--dry-run']);
    if (dry.code !== 0) return { ok: false, summary: `dispatch --dry-run exited ${dry.code}: ${dry.stderr.trim()}` };
    log(
      `    plan: ${JSON.parse(dry.stdout)
        .jobs.map((j) => `${j.workerId}→${j.provider}`)
        .join(', ')}`,
    );
    const d = team(['dispatch', ...base]);
    if (d.code !== 0) return { ok: false, summary: `dispatch exited ${d.code}: ${d.stderr.trim()}` };
    for (const r of JSON.parse(d.stdout).dispatched) log(`    ${r.workerId.padEnd(13)} ${r.backend} ${r.paneId} in session ${r.tmuxSession}`);
    log(`  (PATH without tmux for the next dispatch)`);
    const rw = team(['dispatch', ...base, '--jobs-file', JOBS], { PATH: noTmux });
    if (rw.code !== 0) return { ok: false, summary: `report-writer dispatch exited ${rw.code}: ${rw.stderr.trim()}` };
    const degraded = JSON.parse(rw.stdout).dispatched[0];
    log(`    ${degraded.workerId.padEnd(13)} ${degraded.backend} pid ${degraded.pid}, degradedFrom ${degraded.degradedFrom}: ${degraded.reason}`);
    // await answers for one round: the initial workers, then the report writer (the newest round, the default)
    const a = team(['await', ...base, '--dispatch-kind', 'initial', '--json']);
    const w = team(['await', ...base, '--json']);
    const rounds = [a, w].map((r) => JSON.parse(r.stdout || '{"workers":[],"dispatch":[]}'));
    const doc = { workers: rounds.flatMap((r) => r.workers), dispatch: rounds.flatMap((r) => r.dispatch) };
    for (const x of doc.workers)
      log(`    ${x.workerId.padEnd(13)} ${x.status.padEnd(9)} ${String(x.durationMs).padStart(5)} ms ${x.reason ?? ''}${x.retryable ? ' (retryable)' : ''}`);
    log(`    collect-results: ${doc.dispatch.map((x) => `--dispatch ${x}`).join(' ')}`);
    const t = team(['teardown', ...base, '--json']);
    const closed = JSON.parse(t.stdout).closed.length;
    const again = JSON.parse(team(['teardown', ...base, '--json']).stdout).closed.length;
    log(`    teardown closed ${closed} panes; a second teardown closed ${again}`);
    const statuses = Object.fromEntries(doc.workers.map((w) => [w.workerId, w.status]));
    const ok =
      a.code === 1 &&
      w.code === 0 &&
      statuses.claude === 'completed' &&
      statuses.codex === 'completed' &&
      statuses.kimi === 'error' &&
      statuses['report-writer'] === 'completed' &&
      degraded.backend === 'subprocess' &&
      closed === 3 &&
      again === 0;
    return {
      ok,
      summary: ok
        ? '3 workers in tmux panes + 1 degraded subprocess; await of the initial round exit 1 (kimi error, retryable), of the report-writer round exit 0; 3 panes torn down, second teardown a no-op'
        : `unexpected: await exit ${a.code}/${w.code} ${JSON.stringify(statuses)}, closed ${closed}/${again}`,
    };
  } finally {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
  }
}
