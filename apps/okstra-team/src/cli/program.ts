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
      '\nExample:\n  okstra team dispatch --project-root . --run-manifest .okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-error-analysis-001.json',
    )
    .requiredOption('--project-root <dir>', 'the project root holding .okstra/')
    .requiredOption('--run-manifest <path>', 'the run manifest (its workerDispatches are recorded)')
    .option('--workers <csv>', 'only these worker ids (default: every cli-wrapper worker of the manifest)')
    .option('--jobs-file <path>', 'dispatch the jobs of this jobs file instead of the manifest workers')
    .option('--dispatch-kind <kind>', 'the dispatch kind (default: initial, or the jobs file kind)')
    .option('--dry-run', 'print the resolved jobs and change nothing')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .option('--quiet', 'no progress lines on stderr')
    .action(action(ctx, async (opts) => (await import('../commands/dispatch.js')).runDispatch(opts, ctx)));
  program
    .command('await')
    .description('Wait until every dispatched job has a terminal status')
    .addHelpText(
      'after',
      '\nExample:\n  okstra team await --project-root . --run-manifest .okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-error-analysis-001.json --json',
    )
    .requiredOption('--project-root <dir>', 'the project root holding .okstra/')
    .requiredOption('--run-manifest <path>', 'the run manifest of the dispatch')
    .option(
      '--deadline <minutes>',
      "per-worker deadline (default: twice the task type's expected minutes — requirements-discovery 20, error-analysis 30, implementation-planning 40, implementation 40, final-verification 20, other 30)",
    )
    .option('--dispatch-kind <kind>', "judge only workers whose newest dispatch is this kind or its -retry (default: the newest dispatch's round)")
    .option('--json', 'print one JSON document (default: one tab-separated line per worker)')
    .option('--quiet', 'no progress lines on stderr')
    .option(
      '--output <await.json>',
      'also write the JSON document to this file (what collect-results, collect-critic-gaps and collect-verdicts take with --await)',
    )
    .action(action(ctx, async (opts) => (await import('../commands/await.js')).runAwait(opts, ctx)));
  program
    .command('teardown')
    .description('Close the panes okstra created for this run')
    .addHelpText(
      'after',
      '\nExample:\n  okstra team teardown --project-root . --run-manifest .okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-error-analysis-001.json --dry-run',
    )
    .requiredOption('--project-root <dir>', 'the project root holding .okstra/')
    .requiredOption('--run-manifest <path>', 'the run manifest whose panes are closed')
    .option('--dry-run', 'list what would be closed and change nothing')
    .option('--json', 'print one JSON document (default: one line per pane)')
    .option('--force', 'also stop workers that are still running (their rows become error: torn down while running)')
    .action(action(ctx, async (opts) => (await import('../commands/teardown.js')).runTeardown(opts, ctx)));
  program
    .command('finish')
    .description('Mark the run ended in its manifest: status, endedAt and reportAuthor (before run-audit and the approval gate)')
    .addHelpText(
      'after',
      '\nExample:\n  okstra team finish --project-root . --run-manifest .okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-error-analysis-001.json --json',
    )
    .requiredOption('--project-root <dir>', 'the project root holding .okstra/')
    .requiredOption('--run-manifest <path>', 'the run manifest to mark ended')
    .addOption(new Option('--status <status>', 'how the run ended (default: completed)').choices(['completed', 'failed', 'aborted']))
    .option('--reason <text>', "why a failed or aborted run ended (logged to the task's errors-<date>.jsonl)")
    .option('--json', 'print one JSON document (default: one tab-separated line)')
    .action(action(ctx, async (opts) => (await import('../commands/finish.js')).runFinish(opts, ctx)));
  program
    .command('exec')
    .description('Run one provider CLI for one job (the pane wrapper)')
    .requiredOption('--job <path>', 'the job file dispatch wrote for this pane')
    .addHelpText(
      'after',
      '\nExample:\n  okstra team exec --job .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/team-jobs/initial-codex-error-analysis-001.job.json\n  (a job file exists once team dispatch wrote it: run the team dispatch example first)',
    )
    .action(action(ctx, async (opts) => (await import('../commands/exec.js')).runExec(opts, ctx)));
  const ws = program.command('worker-state').description('Persisted worker rows');
  ws.command('transition')
    .description('Atomically update one persisted worker row')
    .addHelpText(
      'after',
      "\nExample:\n  okstra worker-state transition --team-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/team-state-error-analysis-001.json --worker codex --status timeout --reason 'no heartbeat for 6 minutes'",
    )
    .requiredOption('--team-state <path>', 'the team-state file, updated in place')
    .requiredOption('--worker <id>', 'the worker row to update')
    .addOption(new Option('--status <status>', 'the new status').choices(TRANSITION_STATUSES).makeOptionMandatory())
    .option('--reason <text>', 'why the worker ended so (required for timeout, error and not-run)')
    .option('--model <execution-value>', 'the model execution value to record')
    .option('--provider <id>', 'with in-progress: the provider of a worker the lead starts itself')
    .option('--role <label>', 'with in-progress: its role label (e.g. "Claude worker")')
    .addOption(new Option('--liveness-mode <mode>', 'with in-progress: which artifact the liveness probe reads').choices(LIVENESS_MODES))
    .option('--audit-sidecar <path>', 'with in-progress: the audit sidecar the worker heartbeats into')
    .option('--prompt <path>', 'with in-progress: the prompt file the worker was given')
    .option('--result <path>', 'with in-progress: the result file the worker writes')
    .option('--dispatch-kind <kind>', 'with in-progress: the dispatch kind starting (initial, reverify-r<N>, …)')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/worker-state.js')).runWorkerStateTransition(opts, ctx)));
  return program;
}
