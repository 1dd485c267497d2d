// The main job: the full convergence lifecycle of the sample error-analysis run,
// through the real bins (`okstra convergence …`), on the temp copy. Leaves the
// final state in the copy's state/ directory.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  convergenceFinalStatePath,
  convergenceGroupsPath,
  convergenceMigrationDir,
  convergenceWorkStatePath,
  roundPlanPath,
  roundResultsPath,
  runDir,
  runManifestPath,
  taskRoot,
} from '@okstra/paths';

export const title = 'convergence: seed → rounds → critic gaps → finalize on examples/ (error-analysis)';

const RUN = { taskType: 'error-analysis', seq: '001' };

export default async function ({ workDir, run, log }) {
  const project = join(workDir, 'sample-project');
  const dir = runDir(taskRoot(project, { taskGroup: 'payments', taskId: 'refund-timeout' }), { taskType: RUN.taskType });
  const work = convergenceWorkStatePath(dir, RUN);
  const final = convergenceFinalStatePath(dir, RUN);
  const manifest = JSON.parse(readFileSync(runManifestPath(dir, RUN), 'utf8'));
  const conv = (args) => {
    const r = run('okstra', ['convergence', ...args], { cwd: project });
    if (r.code !== 0) throw new Error(`okstra convergence ${args[0]} exited ${r.code}: ${r.stderr.trim()}`);
    return JSON.parse(r.stdout);
  };

  const seeded = conv([
    'seed',
    '--groups',
    convergenceGroupsPath(dir, RUN),
    '--work-state',
    work,
    '--final-state',
    final,
    '--migration-dir',
    convergenceMigrationDir(dir),
  ]);
  log(`  seed: ${seeded.action} — ${seeded.counts.pending + seeded.counts.agreed} findings, ${seeded.counts.agreed} corroborated at seed`);

  const retries = [];
  let rounds = 0;
  for (let round = 1; ; round++) {
    const planFile = roundPlanPath(dir, round, RUN);
    const plan = conv(['plan-round', '--work-state', work, '--plan', planFile]);
    if (plan.queueTerminal) {
      log(`  round ${round}: nothing left to plan — the main queue is terminal`);
      break;
    }
    const outcome = manifest.convergence.rounds.find((r) => r.round === round);
    if (!outcome) return { ok: false, summary: `the run manifest records no dispatch outcome for round ${round}` };
    const args = ['collect-results', '--plan', planFile, '--mode', 'adversarial', '--output', roundResultsPath(dir, round, RUN)];
    for (const d of outcome.dispatches) {
      args.push('--dispatch', `${d.workerId}=${d.status}:${d.durationMs}`);
      if (d.resultPath) args.push('--result', `${d.workerId}=${d.resultPath}`);
    }
    const collected = conv(args);
    const applied = conv(['apply-round', '--work-state', work, '--plan', planFile, '--results', roundResultsPath(dir, round, RUN)]);
    rounds = applied.round;
    for (const b of plan.batches) if (b.retry) retries.push(`${b.workerId} (round ${round})`);
    log(
      `  round ${round}: ${collected.workers.map((w) => `${w.workerId} ${w.status}${w.status === 'completed' ? ` ${w.votes} votes` : ''}`).join(', ')}` +
        ` → ${applied.counts.pending} pending${applied.droppedWorkers.length ? `, dropped ${applied.droppedWorkers.join(', ')}` : ''}`,
    );
  }

  const criticResults = join(dir, 'state', 'convergence-critic-results-error-analysis-001.json');
  const refused = run('okstra', ['convergence', 'apply-critic-gaps', '--work-state', work, '--results', criticResults], { cwd: project });
  log(`  apply-critic-gaps with the critic's own document: exit ${refused.code} (refused by design)`);
  if (refused.code !== 2) return { ok: false, summary: 'a critic-results document was not refused' };
  const gaps = conv(['apply-critic-gaps', '--work-state', work, '--results', join(dir, 'state', 'convergence-coverage-batch-error-analysis-001.json')]);
  log(`  critic gaps: ${gaps.accepted} accepted, ${gaps.rejected} rejected, ${gaps.unresolved} unresolved`);

  const finalized = conv(['finalize', '--work-state', work, '--output', final]);
  conv(['validate', '--state', work, '--kind', 'working']);
  conv(['validate', '--state', final, '--kind', 'final']);
  const c = finalized.counts;
  const state = JSON.parse(readFileSync(final, 'utf8'));
  const dropped = state.roster.filter((w) => w.droppedInRound !== null).map((w) => `${w.workerId} (round ${w.droppedInRound})`);
  log(
    `  final: ${c.total} findings — ${c.agreed} agreed, ${c.refuted} refuted, ${c.unverifiable} unverifiable, ${c.contested} contested (${c.critic} from the critic)`,
  );
  log(`  rounds: ${rounds} of ${state.roundLimit}; dropped out: ${dropped.join(', ') || 'nobody'}; retries used: ${retries.join(', ') || 'none'}`);
  log(`  final state: ${relative(workDir, final)}`);
  return { ok: true, summary: `${c.total} findings terminal after ${rounds} rounds; final state v${state.schemaVersion} validated` };
}
