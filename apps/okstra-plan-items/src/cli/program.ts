import { action, type CliContext, collect, type Command, createBaseProgram } from '@okstra/cli-kit';

/**
 * Argument definitions of `okstra-plan-items` (0.161.0 docs/cli.md rows; the
 * `incremental-scope` row with its `--preview` form). Actions import their work
 * lazily so `--help`/`--version` load nothing heavy. docs/plan-items.md.
 */
export function createProgram(ctx: CliContext): Command {
  const program = createBaseProgram(ctx, 'okstra plan-body verification queue, verdict collection and incremental re-run scope');

  program
    .command('extract')
    .description('Deterministically extract the complete implementation-planning P-* queue from report-writer data.json')
    .addHelpText(
      'after',
      '\nExample:\n  okstra plan-items extract --data .okstra/tasks/payments/refund-timeout/runs/implementation-planning/reports/final-report-implementation-planning-001.data.json --output .okstra/tasks/payments/refund-timeout/runs/implementation-planning/state/plan-items-implementation-planning-001.json',
    )
    .requiredOption('--data <data.json>', 'the report-writer final-report data.json')
    .requiredOption('--output <items.json>', 'where to write the queue')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/extract.js')).runExtract(opts, ctx)));
  program
    .command('validate')
    .description('Require the persisted P-* queue to match a fresh deterministic extraction exactly')
    .addHelpText(
      'after',
      '\nExample:\n  okstra plan-items validate --data .okstra/tasks/payments/refund-timeout/runs/implementation-planning/reports/final-report-implementation-planning-001.data.json --items .okstra/tasks/payments/refund-timeout/runs/implementation-planning/state/plan-items-implementation-planning-001.json',
    )
    .requiredOption('--data <data.json>', 'the report-writer final-report data.json')
    .requiredOption('--items <items.json>', 'the persisted queue')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/validate.js')).runValidate(opts, ctx)));
  program
    .command('collect-verdicts')
    .description("Read one plan-verify round's worker responses into a verdicts envelope")
    .addHelpText(
      'after',
      '\nExample:\n  okstra plan-items collect-verdicts --result claude=.okstra/tasks/payments/refund-timeout/runs/implementation-planning/worker-results/claude-plan-verify-implementation-planning-001.md --result codex=.okstra/tasks/payments/refund-timeout/runs/implementation-planning/worker-results/codex-plan-verify-implementation-planning-001.md --items .okstra/tasks/payments/refund-timeout/runs/implementation-planning/state/plan-items-implementation-planning-001.json --output .okstra/tasks/payments/refund-timeout/runs/implementation-planning/state/plan-verdicts-implementation-planning-001.json',
    )
    .option('--result <worker-id=path>', 'a worker response (repeat)', collect, [])
    .option('--await <await.json>', 'okstra team await --json of the plan-verify round, saved as is: a --result for each worker that completed')
    .requiredOption('--items <items.json>', 'the persisted queue')
    .requiredOption('--output <verdicts.json>', 'where to write the envelope')
    .option(
      '--repair',
      "on refused answers (still exit 2), write each refused worker's repair prompt and the repair jobs file (state/repair-jobs-plan-verify-<type>-<seq>.json) for okstra team dispatch --jobs-file; a worker already repaired is collected as error",
    )
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/collect-verdicts.js')).runCollectVerdicts(opts, ctx)));
  program
    .command('apply-verdicts')
    .description('Overwrite planBodyVerification.planItems[].verdicts with a verdicts envelope')
    .addHelpText(
      'after',
      '\nExample:\n  okstra plan-items apply-verdicts --data .okstra/tasks/payments/refund-timeout/runs/implementation-planning/reports/final-report-implementation-planning-001.data.json --verdicts .okstra/tasks/payments/refund-timeout/runs/implementation-planning/state/plan-verdicts-implementation-planning-001.json',
    )
    .requiredOption('--data <data.json>', 'the report-writer final-report data.json (rewritten)')
    .requiredOption('--verdicts <verdicts.json>', 'the collect-verdicts envelope')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/apply-verdicts.js')).runApplyVerdicts(opts, ctx)));
  program
    .command('incremental-scope')
    .description('Decide re-verify vs carry-forward scope for an implementation-planning clarification re-run')
    .addHelpText(
      'after',
      '\nExample:\n  okstra incremental-scope --preview --prev-data .okstra/tasks/payments/refund-timeout/runs/implementation-planning/reports/final-report-implementation-planning-001.data.json --answered-clarifications C-003,C-007',
    )
    .requiredOption('--prev-data <path>', "the prior run's final-report data.json")
    .option('--base-sha <sha>', "this run's base-ref commit (not with --preview)")
    .option('--answered-clarifications <csv>', 'answered C-NNN and PREP item ids')
    .option('--impacted <csv>', 'Stage Map stage numbers resolved by the lead')
    .option('--full-reason <text>', 'declare a structural change: forces mode full')
    .option('--preview', 'run the link half alone: {wouldForceFull, unlinkedIds, reason}')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/incremental-scope.js')).runIncrementalScope(opts, ctx)));
  return program;
}
