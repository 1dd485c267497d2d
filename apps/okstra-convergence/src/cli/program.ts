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
      '\nExample:\n  okstra convergence seed --groups .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-groups-error-analysis-001.json --work-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-work-error-analysis-001.json --final-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-final-error-analysis-001.json --migration-dir .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-migration',
    )
    .requiredOption('--groups <path>', 'the convergence-groups document to seed from (- reads stdin)')
    .requiredOption('--work-state <path>', 'the working state to create, resume or reuse')
    .requiredOption('--final-state <path>', 'the final state path (a finalized run is reused, never reseeded)')
    .requiredOption('--migration-dir <dir>', 'where a v1.0 state is kept when it is migrated')
    .option('--restart-from-round0', 'recover a working state that no longer replays: start again from round 0')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/seed.js')).runSeed(opts, ctx)));
  program
    .command('plan-round')
    .description('Persist the next roster-aware dispatch plan without mutating working state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence plan-round --work-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-work-error-analysis-001.json --plan .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-plan-r1-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>', 'the working state (only read; it must replay)')
    .requiredOption('--plan <path>', 'where to write the round plan (- prints it on stdout)')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/plan-round.js')).runPlanRound(opts, ctx)));
  program
    .command('collect-results')
    .description("Read one round's worker responses into the apply-round --results shape")
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence collect-results --plan .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-plan-r1-error-analysis-001.json --mode adversarial --result claude=.okstra/tasks/payments/refund-timeout/runs/error-analysis/worker-results/claude-reverify-r1-error-analysis-001.md --dispatch claude=completed:520000 --dispatch codex=timeout:1800000 --output .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-results-r1-error-analysis-001.json',
    )
    .requiredOption('--plan <round-plan.json>', "the round's plan (from plan-round; - reads stdin)")
    .addOption(
      new Option('--mode <mode>', "the verdict vocabulary of the responses (default: the plan's mode, which a given one must match)").choices([
        'adversarial',
        'collaborative',
      ]),
    )
    .option('--result <worker=path>', 'a worker response (repeat)', collect, [])
    .option('--dispatch <worker=status:durationMs>', 'terminal status and duration of a worker (repeat)', collect, [])
    .option('--await <await.json>', "okstra team await --json of the round, saved as is: each planned worker's --dispatch, and its --result when it completed")
    .requiredOption('--output <round-results.json>', 'where to write the round results (- prints them on stdout)')
    .option(
      '--repair',
      "on refused answers (still exit 2), write each refused worker's repair prompt and the repair jobs file (state/repair-jobs-reverify-r<N>-<type>-<seq>.json) for okstra team dispatch --jobs-file; a worker already repaired this round is collected as error",
    )
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/collect-results.js')).runCollectResults(opts, ctx)));
  program
    .command('apply-round')
    .description('Validate one complete structured result set and atomically reduce it into working state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence apply-round --work-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-work-error-analysis-001.json --plan .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-plan-r1-error-analysis-001.json --results .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-results-r1-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>', 'the working state, updated in place')
    .requiredOption('--plan <path>', "the round's plan")
    .requiredOption('--results <path>', 'the complete round results (from collect-results; - reads stdin)')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/apply-round.js')).runApplyRound(opts, ctx)));
  program
    .command('collect-critic-gaps')
    .description("Read the analysers' gap-vote responses into the apply-critic-gaps --results coverage batch")
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence collect-critic-gaps --work-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-work-error-analysis-001.json --critic-dispatch grok=completed:900000 --critic-results .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-critic-results-error-analysis-001.json --dispatch claude=timeout:1800000 --dispatch codex=timeout:1800000 --output .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-coverage-batch-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>', 'the working state (only read; the main queue must be terminal)')
    .option(
      '--critic-dispatch <critic=status:durationMs>',
      "the critic's terminal status and duration (default: its team-state row, startedAt to endedAt, completed when its results document exists)",
    )
    .option(
      '--critic-results <critic-results.json>',
      "the critic's own result document (when it completed; default: state/convergence-critic-results-<type>-<seq>.json when it exists)",
    )
    .option('--result <worker=path>', "an analyser's gap-vote response (repeat)", collect, [])
    .option('--dispatch <worker=status:durationMs>', 'terminal status and duration of an analyser (repeat)', collect, [])
    .option('--await <await.json>', "okstra team await --json of the gap-vote round, saved as is: each analyser's --dispatch and --result")
    .option('--model <worker=value>', 'model execution value of a worker the groups roster has none for (repeat)', collect, [])
    .requiredOption('--output <coverage-batch.json>', 'where to write the coverage batch (the apply-critic-gaps --results input)')
    .option(
      '--repair',
      "on refused gap votes (still exit 2), write each refused analyser's repair prompt and state/repair-jobs-gap-vote-<type>-<seq>.json for okstra team dispatch --jobs-file; an analyser already repaired is collected as error",
    )
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/collect-critic-gaps.js')).runCollectCriticGaps(opts, ctx)));
  program
    .command('apply-critic-gaps')
    .description('Apply one verified coverage-critic batch after the main queue reaches a terminal state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence apply-critic-gaps --work-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-work-error-analysis-001.json --results .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-coverage-batch-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>', 'the working state, updated in place')
    .requiredOption('--results <path>', 'the coverage batch the lead assembled (- reads stdin)')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/apply-critic-gaps.js')).runApplyCriticGaps(opts, ctx)));
  program
    .command('finalize')
    .description('Materialize the terminal schema v1.3 convergence state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence finalize --work-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-work-error-analysis-001.json --output .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-final-error-analysis-001.json',
    )
    .requiredOption('--work-state <path>', 'the terminal working state (only read)')
    .requiredOption('--output <path>', 'where to write the final state')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/finalize.js')).runFinalize(opts, ctx)));
  program
    .command('validate')
    .description('Validate replayable working state or a terminal final state')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence validate --state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-work-error-analysis-001.json --kind working',
    )
    .requiredOption('--state <path>', 'the state file to validate')
    .addOption(new Option('--kind <kind>', 'which state --state is').choices(['working', 'final']).makeOptionMandatory())
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/validate.js')).runValidate(opts, ctx)));
  program
    .command('run')
    .description('Run the reverify rounds: plan, prompts, dispatch, await, collect, teardown, apply (resumable)')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence run --project-root . --run-manifest .okstra/tasks/payments/refund-timeout/runs/error-analysis/manifests/run-manifest-error-analysis-001.json --until-terminal',
    )
    .requiredOption('--project-root <dir>', 'the project root holding .okstra/')
    .requiredOption('--run-manifest <path>', 'the run manifest (its working state is state/convergence-work-<type>-<seq>.json)')
    .option('--until-terminal', 'repeat rounds (retry rounds too) until the queue is terminal, then the critic gap vote, finalize and validate')
    .option('--rounds <n>', 'run at most n rounds (default: one)')
    .option('--deadline <minutes>', "per-worker deadline of each round, as team await's")
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .option('--quiet', 'no progress lines on stderr (default: one line per step: a live line on a terminal, plain lines otherwise)')
    .action(action(ctx, async (opts) => (await import('../commands/run/run.js')).runRun(opts, ctx)));
  program
    .command('render-prompts')
    .description("Write a round's worker prompts and, for its CLI-wrapper workers, its jobs file (what run dispatches; for host leads with native workers)")
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence render-prompts --plan .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-plan-r1-error-analysis-001.json',
    )
    .option('--plan <path>', 'the round plan (state/convergence-plan-r<N>-<type>-<seq>.json)')
    .option('--gap-vote', "instead of a round: each analyser's gap-vote prompt over the critic's candidates (needs --work-state)")
    .option('--work-state <path>', 'the working state the plan was made from (default: state/convergence-work-<type>-<seq>.json beside it)')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/render-prompts.js')).runRenderPrompts(opts, ctx)));
  program
    .command('view')
    .description('Write one self-contained HTML picture of a convergence run: finding × round matrix')
    .addHelpText(
      'after',
      '\nExample:\n  okstra convergence view --work-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/convergence-work-error-analysis-001.json --html convergence-view.html',
    )
    .requiredOption('--work-state <path>', 'the working state (only read; works mid-run)')
    .option('--final-state <path>', 'the final state, when finalized (statuses and reasons from it)')
    .requiredOption('--html <out.html>', 'where to write the HTML file')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/view.js')).runView(opts, ctx)));
  program
    .command('example')
    .description('Print one deterministic valid input example as JSON')
    .addHelpText('after', '\nExample:\n  okstra convergence example --kind coverage-batch')
    .addOption(
      new Option('--kind <kind>', 'which document to print').choices(['groups', 'round-results', 'critic-results', 'coverage-batch']).makeOptionMandatory(),
    )
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/example.js')).runExample(opts, ctx)));
  return program;
}
