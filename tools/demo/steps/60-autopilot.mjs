// `okstra convergence run --until-terminal` on a fresh copy of the sample error-analysis run: stub
// provider CLIs (installed as user providers in a temp HOME) answer the ids of their batch, codex fails
// its first call, so the run goes through a failure and its retry round, the critic's gap vote, finalize
// and validate with no other command typed. Then `okstra convergence view` draws it; the demo prints the path.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
// The stub shared with the okstra-convergence run specs, built by `npm run demo`'s build step (libs/team-state/src/test-support).
import { BATCH_ANSWER_STUB, installStubProvider } from '../../../libs/team-state/dist/test-support/index.js';

export const title = 'convergence run: the reverify rounds, critic gaps and finalize as one command; its HTML view';

const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';
const S = `${RUN}/state`;

export default async function ({ workDir, run, log, repoRoot, outputDir }) {
  if (spawnSync('tmux', ['-V']).status !== 0) return { ok: false, summary: 'tmux is not installed; convergence run dispatches into tmux panes' };
  const root = join(workDir, 'autopilot-project');
  cpSync(join(repoRoot, 'examples', 'sample-project'), root, { recursive: true });
  const home = mkdtempSync(join(workDir, 'autopilot-home-'));
  for (const id of ['claude', 'codex', 'grok']) installStubProvider(home, id, BATCH_ANSWER_STUB);
  const env = { HOME: home, STUB_FAIL_FIRST: 'codex', OKSTRA_TMUX_SOCKET: `okstra-demo-autopilot-${process.pid}`, OKSTRA_TEAM_POLL_MS: '100', TMUX: '' };
  const conv = (args) => {
    const r = run('okstra', ['convergence', ...args], { cwd: root, env });
    if (r.code !== 0) throw new Error(`okstra convergence ${args[0]} exited ${r.code}: ${r.stderr.trim()}`);
    return JSON.parse(r.stdout);
  };
  try {
    const work = `${S}/convergence-work-error-analysis-001.json`;
    const final = `${S}/convergence-final-error-analysis-001.json`;
    conv([
      'seed',
      '--groups',
      `${S}/convergence-groups-error-analysis-001.json`,
      '--work-state',
      work,
      '--final-state',
      final,
      '--migration-dir',
      `${S}/convergence-migration`,
    ]);
    const started = Date.now();
    const out = conv(['run', '--project-root', '.', '--run-manifest', `${RUN}/manifests/run-manifest-error-analysis-001.json`, '--until-terminal']);
    for (const r of out.rounds)
      log(`  round ${r.round}: ${r.workers.map((w) => `${w.workerId} ${w.status}${w.retry ? ' (retry)' : ''}`).join(', ')} → ${r.counts.pending} pending`);
    log(
      `  critic gaps: ${out.critic?.decisions ? `${out.critic.decisions.accepted} accepted, ${out.critic.decisions.rejected} rejected, ${out.critic.decisions.unresolved} unresolved` : 'none'}`,
    );
    log(`  final: ${out.final.counts.total} findings, validated; ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const html = join(root, 'convergence-view.html');
    conv(['view', '--work-state', work, '--final-state', final, '--html', html]);
    // The working copy is deleted at the end: the path printed is the copy the demo keeps (run.mjs keepArtifacts).
    const kept = join(outputDir, 'convergence-view-autopilot.html');
    log(`  view: ${kept}`);
    return { ok: out.final.validated === true, summary: `${out.rounds.length} rounds run by one command; HTML view at ${kept}` };
  } finally {
    spawnSync('tmux', ['-L', env.OKSTRA_TMUX_SOCKET, 'kill-server'], { stdio: 'ignore' });
  }
}
