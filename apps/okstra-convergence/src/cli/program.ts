import { action, type CliContext, collect, type Command, createBaseProgram, Option } from '@okstra/cli-kit';

/**
 * Argument definitions of `okstra-convergence` (0.161.0 docs/cli.md rows).
 * Actions import their work lazily so `--help`/`--version` load nothing heavy.
 */
export function createProgram(ctx: CliContext): Command {
  const program = createBaseProgram(ctx, 'Deterministic, replayable convergence rounds for okstra cross-verification');

  program
    .command('seed')
    .description('Create, resume, reuse, or explicitly recover deterministic convergence state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence seed --groups .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-groups-error-analysis-001.json --work-state .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-work-error-analysis-001.json --final-state .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-final-error-analysis-001.json --migration-dir .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-migration',
    )
    .requiredOption('--groups <path>')
    .requiredOption('--work-state <path>')
    .requiredOption('--final-state <path>')
    .requiredOption('--migration-dir <dir>')
    .option('--restart-from-round0')
    .action(action(ctx, async (opts) => (await import('../commands/seed.js')).runSeed(opts, ctx)));
  program
    .command('plan-round')
    .description('Persist the next roster-aware dispatch plan without mutating working state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence plan-round --work-state .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-work-error-analysis-001.json --plan .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-plan-r1-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>')
    .requiredOption('--plan <path>')
    .action(action(ctx, async (opts) => (await import('../commands/plan-round.js')).runPlanRound(opts, ctx)));
  program
    .command('collect-results')
    .description("Read one round's worker responses into the apply-round --results shape")
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence collect-results --plan .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-plan-r1-error-analysis-001.json --mode adversarial --result codex=.okstra/tasks/billing/T-12/runs/error-analysis/worker-results/codex-reverify-r1-error-analysis-001.md --dispatch codex=completed:812000 --dispatch claude=timeout:2400000 --output .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-results-r1-error-analysis-001.json',
    )
    .requiredOption('--plan <round-plan.json>')
    .addOption(new Option('--mode <mode>').choices(['adversarial', 'collaborative']).makeOptionMandatory())
    .option('--result <worker=path>', 'a worker response (repeat)', collect, [])
    .option('--dispatch <worker=status:durationMs>', 'terminal status and duration of a worker (repeat)', collect, [])
    .requiredOption('--output <round-results.json>')
    .action(action(ctx, async (opts) => (await import('../commands/collect-results.js')).runCollectResults(opts, ctx)));
  program
    .command('apply-round')
    .description('Validate one complete structured result set and atomically reduce it into working state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence apply-round --work-state .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-work-error-analysis-001.json --plan .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-plan-r1-error-analysis-001.json --results .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-results-r1-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>')
    .requiredOption('--plan <path>')
    .requiredOption('--results <path>')
    .action(action(ctx, async (opts) => (await import('../commands/apply-round.js')).runApplyRound(opts, ctx)));
  program
    .command('collect-critic-gaps')
    .description("Read the analysers' gap-vote responses into the apply-critic-gaps --results coverage batch")
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence collect-critic-gaps --work-state .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-work-error-analysis-001.json --critic-dispatch grok=completed:900000 --critic-results .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-critic-results-error-analysis-001.json --result claude=.okstra/tasks/billing/T-12/runs/error-analysis/worker-results/claude-gap-vote-error-analysis-001.md --dispatch claude=completed:203000 --dispatch codex=timeout:1800000 --output .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-coverage-batch-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>')
    .requiredOption('--critic-dispatch <critic=status:durationMs>', "the critic's terminal status and duration")
    .option('--critic-results <critic-results.json>', "the critic's own result document (when it completed)")
    .option('--result <worker=path>', "an analyser's gap-vote response (repeat)", collect, [])
    .option('--dispatch <worker=status:durationMs>', 'terminal status and duration of an analyser (repeat)', collect, [])
    .option('--model <worker=value>', 'model execution value of a worker the groups roster has none for (repeat)', collect, [])
    .requiredOption('--output <coverage-batch.json>')
    .action(action(ctx, async (opts) => (await import('../commands/collect-critic-gaps.js')).runCollectCriticGaps(opts, ctx)));
  program
    .command('apply-critic-gaps')
    .description('Apply one verified coverage-critic batch after the main queue reaches a terminal state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence apply-critic-gaps --work-state .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-work-error-analysis-001.json --results .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-coverage-batch-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>')
    .requiredOption('--results <path>')
    .action(action(ctx, async (opts) => (await import('../commands/apply-critic-gaps.js')).runApplyCriticGaps(opts, ctx)));
  program
    .command('finalize')
    .description('Materialize the terminal schema v1.3 convergence state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence finalize --work-state .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-work-error-analysis-001.json --output .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-final-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>')
    .requiredOption('--output <path>')
    .action(action(ctx, async (opts) => (await import('../commands/finalize.js')).runFinalize(opts, ctx)));
  program
    .command('validate')
    .description('Validate replayable working state or a terminal final state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence validate --state .okstra/tasks/billing/T-12/runs/error-analysis/state/convergence-final-error-analysis-001.json --kind final',
    )
    .requiredOption('--state <path>')
    .addOption(new Option('--kind <kind>').choices(['working', 'final']).makeOptionMandatory())
    .action(action(ctx, async (opts) => (await import('../commands/validate.js')).runValidate(opts, ctx)));
  program
    .command('example')
    .description('Print one deterministic valid input example as JSON')
    .addHelpText('after', '\nExample:\n  okstra convergence example --kind coverage-batch')
    .addOption(new Option('--kind <kind>').choices(['groups', 'round-results', 'critic-results', 'coverage-batch']).makeOptionMandatory())
    .action(action(ctx, async (opts) => (await import('../commands/example.js')).runExample(opts, ctx)));
  return program;
}
