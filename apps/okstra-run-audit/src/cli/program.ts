import { action, type CliContext, collect, type Command, createBaseProgram } from '@okstra/cli-kit';

/**
 * Argument definitions of `okstra-run-audit` (0.161.0 README /okstra-inspect row,
 * worker-audit-check cli.md row). `run-audit` is the default command.
 * Actions import their work lazily so `--help`/`--version` stay cheap.
 */
export function createProgram(ctx: CliContext): Command {
  const program = createBaseProgram(ctx, 'okstra progress-invariant audit, mid-run worker audit check and anonymized issue filing');

  program
    .command('run-audit', { isDefault: true })
    .description("Check every run's artifacts against progress invariants (read-only)")
    .addHelpText('after', '\nExample:\n  okstra run-audit --project-root . --json')
    .option('--project-root <dir>', 'the project whose .okstra runs are audited (default: the current directory)')
    .option('--task-key <key>', 'only the runs of this task (<project-id>:<task-group>:<task-id>)')
    .option('--json', 'print the report as one JSON document')
    .option('--quiet', 'no progress lines on stderr')
    .action(action(ctx, async (opts) => (await import('../commands/run-audit.js')).runRunAudit(opts, ctx)));
  program
    .command('worker-audit-check')
    .description('Apply the worker audit-sidecar rules mid-run')
    .addHelpText(
      'after',
      '\nExample:\n  okstra worker-audit-check --run-dir .okstra/tasks/payments/refund-timeout/runs/error-analysis --task-type error-analysis --seq 001 --worker codex',
    )
    .requiredOption('--run-dir <dir>', 'runs/<task-type>/[stage-<N>/] of the run')
    .requiredOption('--task-type <type>', 'the task type of the run (error-analysis, implementation-planning, …)')
    .requiredOption('--seq <nnn>', 'zero-padded run seq')
    .option('--worker <id>', 'only this worker (the one that just returned)')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/worker-audit-check.js')).runWorkerAuditCheck(opts, ctx)));
  const issue = program.command('error-issue').description('Turn anomalies into GitHub issue candidates, then file the approved ones');
  issue
    .command('plan')
    .description(
      "Cluster, gate, classify and render anonymized issue candidates into a plan file (sends nothing; with gh, searches the target repository's issues for each candidate's fingerprint)",
    )
    .addHelpText('after', '\nExample:\n  okstra error-issue plan --project-root . --output ~/.okstra/error-issue/plan.json')
    .option('--project-root <dir>', 'a project root to read (repeat; default: the current directory)', collect, [])
    .option('--repo <owner/name>', 'target repository (default: ~/.okstra/config.json errorIssue.repo, else devonshin/okstra)')
    .option('--output <plan.json>', 'plan file to write (default: ~/.okstra/error-issue/plan.json; - prints the plan on stdout)')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/error-issue-plan.js')).runErrorIssuePlan(opts, ctx)));
  issue
    .command('submit')
    .description(
      "File or comment the approved candidates of a plan file through gh: sends each one's title and anonymized body to GitHub, as a new issue or a comment on its matched issue, in the plan's repository (error-issue plan --repo; default devonshin/okstra); --dry-run sends nothing",
    )
    .addHelpText('after', '\nExample:\n  okstra error-issue submit --plan ~/.okstra/error-issue/plan.json --approve a63245b9b853 --dry-run')
    .requiredOption('--plan <file>', 'the plan file error-issue plan wrote (submissions are recorded in it)')
    // Checked by parseApproval (its message says nothing was sent), so marked required here by hand.
    .option('--approve <ids|all>', 'comma-separated candidate ids, or all (required)')
    .option('--dry-run', 'run every check and print what would be sent where (wouldSend), without running gh or changing the plan')
    .option('--json', 'print one JSON document (always on: accepted so every command takes it)')
    .action(action(ctx, async (opts) => (await import('../commands/error-issue-submit.js')).runErrorIssueSubmit(opts, ctx)));
  return program;
}
