// Workers that disagree, and what the view shows of it: the sample's error-analysis run with grok re-verifying
// as a third analyser, and stub provider CLIs that give other verdicts on a few findings (STUB_VERDICTS: the
// same set as the okstra-convergence view spec). One `okstra convergence run --until-terminal` ends with every
// terminal status — agreed, refuted, unverifiable and one finding contested at the round limit — and its view
// (the demo's convergence-view.html) shows each in its colour, with the totals, the legend and each worker's votes.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_ANSWER_STUB, installStubProvider } from '../../../libs/team-state/dist/test-support/index.js';

export const title = 'convergence run with workers that disagree: every status in the HTML view';

const RUN = '.okstra/tasks/payments/refund-timeout/runs/error-analysis';
const S = `${RUN}/state`;
/** Who disagrees on what (provider:finding=verdict word). */
const VERDICTS = 'codex:F-004=REFUTED grok:F-004=REFUTED grok:F-005=REFUTED claude:F-010=UNVERIFIABLE grok:F-010=UNVERIFIABLE';

export default async function ({ workDir, run, log, repoRoot, outputDir }) {
  if (spawnSync('tmux', ['-V']).status !== 0) return { ok: false, summary: 'tmux is not installed; convergence run dispatches into tmux panes' };
  const root = join(workDir, 'disagreement-project');
  cpSync(join(repoRoot, 'examples', 'sample-project'), root, { recursive: true });
  const groups = join(root, S, 'convergence-groups-error-analysis-001.json');
  const g = JSON.parse(readFileSync(groups, 'utf8'));
  for (const w of g.roster) if (w.workerId === 'grok') w.role = 'analyser';
  writeFileSync(groups, JSON.stringify(g, null, 2) + '\n');
  const home = mkdtempSync(join(workDir, 'disagreement-home-'));
  for (const id of ['claude', 'codex', 'grok']) installStubProvider(home, id, BATCH_ANSWER_STUB);
  const env = { HOME: home, STUB_VERDICTS: VERDICTS, OKSTRA_TMUX_SOCKET: `okstra-demo-disagree-${process.pid}`, OKSTRA_TEAM_POLL_MS: '100', TMUX: '' };
  const conv = (args) => {
    const r = run('okstra', ['convergence', ...args, ...(args[0] === 'run' ? ['--quiet'] : [])], { cwd: root, env });
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
    const out = conv(['run', '--project-root', '.', '--run-manifest', `${RUN}/manifests/run-manifest-error-analysis-001.json`, '--until-terminal']);
    const c = out.final.counts;
    log(`  ${out.rounds.length} rounds; final: ${c.agreed} agreed, ${c.refuted} refuted, ${c.unverifiable} unverifiable, ${c.contested} contested`);
    conv(['view', '--work-state', work, '--final-state', final, '--html', join(root, 'convergence-view.html')]);
    const kept = join(outputDir, 'convergence-view.html');
    log(`  view: ${kept}`);
    const every = c.agreed > 0 && c.refuted > 0 && c.unverifiable > 0 && c.contested > 0;
    return { ok: out.final.validated === true && every, summary: `every terminal status reached and drawn; HTML view at ${kept}` };
  } finally {
    spawnSync('tmux', ['-L', env.OKSTRA_TMUX_SOCKET, 'kill-server'], { stdio: 'ignore' });
  }
}
