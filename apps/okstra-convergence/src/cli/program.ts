import { Option, type Command } from 'commander';
import { action, collect, createBaseProgram, type CliContext } from '@okstra/cli-kit';

/**
 * Argument definitions of `okstra-convergence` (0.161.0 docs/cli.md rows).
 * Actions import their work lazily so `--help`/`--version` load nothing heavy.
 */
export function createProgram(ctx: CliContext): Command {
  const program = createBaseProgram(ctx, 'Deterministic, replayable convergence rounds for okstra cross-verification');

  program.command('seed').description('Create, resume, reuse, or explicitly recover deterministic convergence state')
    .requiredOption('--groups <path>').requiredOption('--work-state <path>').requiredOption('--final-state <path>')
    .requiredOption('--migration-dir <dir>').option('--restart-from-round0').action(action(ctx, async (opts) => (await import('../commands/seed.js')).runSeed(opts, ctx)));
  program.command('plan-round').description('Persist the next roster-aware dispatch plan without mutating working state')
    .requiredOption('--work-state <path>').requiredOption('--plan <path>').action(action(ctx, async (opts) => (await import('../commands/plan-round.js')).runPlanRound(opts, ctx)));
  program.command('collect-results').description("Read one round's worker responses into the apply-round --results shape")
    .requiredOption('--plan <round-plan.json>')
    .addOption(new Option('--mode <mode>').choices(['adversarial', 'collaborative']).makeOptionMandatory())
    .option('--result <worker=path>', 'a worker response (repeat)', collect, [])
    .option('--dispatch <worker=status:durationMs>', 'terminal status and duration of a worker (repeat)', collect, [])
    .requiredOption('--output <round-results.json>').action(action(ctx, async (opts) => (await import('../commands/collect-results.js')).runCollectResults(opts, ctx)));
  program.command('apply-round').description('Validate one complete structured result set and atomically reduce it into working state')
    .requiredOption('--work-state <path>').requiredOption('--plan <path>').requiredOption('--results <path>').action(action(ctx, async (opts) => (await import('../commands/apply-round.js')).runApplyRound(opts, ctx)));
  program.command('apply-critic-gaps').description('Apply one verified coverage-critic batch after the main queue reaches a terminal state')
    .requiredOption('--work-state <path>').requiredOption('--results <path>').action(action(ctx, async (opts) => (await import('../commands/apply-critic-gaps.js')).runApplyCriticGaps(opts, ctx)));
  program.command('finalize').description('Materialize the terminal schema v1.3 convergence state')
    .requiredOption('--work-state <path>').requiredOption('--output <path>').action(action(ctx, async (opts) => (await import('../commands/finalize.js')).runFinalize(opts, ctx)));
  program.command('validate').description('Validate replayable working state or a terminal final state')
    .requiredOption('--state <path>')
    .addOption(new Option('--kind <kind>').choices(['working', 'final']).makeOptionMandatory()).action(action(ctx, async (opts) => (await import('../commands/validate.js')).runValidate(opts, ctx)));
  program.command('example').description('Print one deterministic valid input example as JSON')
    .addOption(new Option('--kind <kind>').choices(['groups', 'round-results', 'critic-results', 'coverage-batch']).makeOptionMandatory())
    .action(action(ctx, async (opts) => (await import('../commands/example.js')).runExample(opts, ctx)));
  return program;
}
