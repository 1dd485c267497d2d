import { action, type CliContext, type Command, createBaseProgram, Option } from '@okstra/cli-kit';
import { LIVENESS_MODES, TRANSITION_STATUSES } from '@okstra/schemas/vocabulary';

/**
 * Argument definitions of `okstra-team` (0.161.0 docs/cli.md team and
 * worker-state rows, cmux adapter text).
 */
export function createProgram(ctx: CliContext): Command {
  const program = createBaseProgram(ctx, 'Dispatch, await and tear down okstra worker panes; worker-state transitions');

  program
    .command('dispatch')
    .description('Start each job of a run manifest or jobs file in its own pane')
    .addHelpText(
      'after',
      '\nExample:\n  okstra team dispatch --project-root . --run-manifest .okstra/tasks/billing/T-12/runs/error-analysis/manifests/run-manifest-error-analysis-001.json',
    )
    .requiredOption('--project-root <dir>')
    .requiredOption('--run-manifest <path>')
    .option('--workers <csv>')
    .option('--jobs-file <path>')
    .option('--dispatch-kind <kind>')
    .option('--dry-run')
    .action(action(ctx, async (opts) => (await import('../commands/dispatch.js')).runDispatch(opts, ctx)));
  program
    .command('await')
    .description('Wait until every dispatched job has a terminal status')
    .addHelpText(
      'after',
      '\nExample:\n  okstra team await --project-root . --run-manifest .okstra/tasks/billing/T-12/runs/error-analysis/manifests/run-manifest-error-analysis-001.json --json',
    )
    .requiredOption('--project-root <dir>')
    .requiredOption('--run-manifest <path>')
    .option('--deadline <minutes>')
    .option('--dispatch-kind <kind>', "judge only workers whose newest dispatch is this kind or its -retry (default: the newest dispatch's round)")
    .option('--json')
    .action(action(ctx, async (opts) => (await import('../commands/await.js')).runAwait(opts, ctx)));
  program
    .command('teardown')
    .description('Close the panes okstra created for this run')
    .addHelpText(
      'after',
      '\nExample:\n  okstra team teardown --project-root . --run-manifest .okstra/tasks/billing/T-12/runs/error-analysis/manifests/run-manifest-error-analysis-001.json --dry-run',
    )
    .requiredOption('--project-root <dir>')
    .requiredOption('--run-manifest <path>')
    .option('--dry-run')
    .option('--json')
    .option('--force', 'also stop workers that are still running (their rows become error: torn down while running)')
    .action(action(ctx, async (opts) => (await import('../commands/teardown.js')).runTeardown(opts, ctx)));
  program
    .command('exec')
    .description('Run one provider CLI for one job (the pane wrapper)')
    .requiredOption('--job <path>')
    .addHelpText(
      'after',
      '\nExample:\n  okstra team exec --job .okstra/tasks/billing/T-12/runs/error-analysis/state/team-jobs/initial-codex-error-analysis-001.job.json',
    )
    .action(action(ctx, async (opts) => (await import('../commands/exec.js')).runExec(opts, ctx)));
  const ws = program.command('worker-state').description('Persisted worker rows');
  ws.command('transition')
    .description('Atomically update one persisted worker row')
    .addHelpText(
      'after',
      "\nExample:\n  okstra worker-state transition --team-state .okstra/tasks/billing/T-12/runs/error-analysis/state/team-state-error-analysis-001.json --worker codex --status timeout --reason 'no heartbeat for 6 minutes'",
    )
    .requiredOption('--team-state <path>')
    .requiredOption('--worker <id>')
    .addOption(new Option('--status <status>').choices(TRANSITION_STATUSES).makeOptionMandatory())
    .option('--reason <text>', 'why the worker ended so (required for timeout, error and not-run)')
    .option('--model <execution-value>', 'the model execution value to record')
    .option('--provider <id>', 'with in-progress: the provider of a worker the lead starts itself')
    .option('--role <label>', 'with in-progress: its role label (e.g. "Claude worker")')
    .addOption(new Option('--liveness-mode <mode>', 'with in-progress: which artifact the liveness probe reads').choices(LIVENESS_MODES))
    .option('--audit-sidecar <path>', 'with in-progress: the audit sidecar the worker heartbeats into')
    .option('--prompt <path>', 'with in-progress: the prompt file the worker was given')
    .option('--result <path>', 'with in-progress: the result file the worker writes')
    .option('--dispatch-kind <kind>', 'with in-progress: the dispatch kind starting (initial, reverify-r<N>, …)')
    .action(action(ctx, async (opts) => (await import('../commands/worker-state.js')).runWorkerStateTransition(opts, ctx)));
  return program;
}
