import type { Command } from 'commander';
import { action, collect, createBaseProgram, NotImplementedError, type CliContext } from '@okstra/cli-kit';

/**
 * Argument definitions of `okstra-run-audit` (0.161.0 README /okstra-inspect row,
 * worker-audit-check cli.md row). `run-audit` is the default command.
 */
export function createProgram(ctx: CliContext): Command {
  const program = createBaseProgram(ctx, 'okstra progress-invariant audit, mid-run worker audit check and anonymized issue filing');
  const todo = (what: string) => action(ctx, () => { throw new NotImplementedError(`okstra-run-audit ${what}`); });

  program.command('run-audit', { isDefault: true }).description("Check every run's artifacts against progress invariants (read-only)")
    .option('--project-root <dir>').option('--task-key <key>').option('--json').action(todo('run-audit'));
  program.command('worker-audit-check').description('Apply the worker audit-sidecar rules mid-run')
    .requiredOption('--run-dir <dir>').requiredOption('--task-type <type>').requiredOption('--seq <nnn>').option('--worker <id>')
    .action(todo('worker-audit-check'));
  const issue = program.command('error-issue').description('Turn anomalies into GitHub issue candidates, then file the approved ones');
  issue.command('plan').description('Cluster, gate, classify and render anonymized issue candidates into a plan file')
    .option('--project-root <dir>', 'a project root to read (repeat)', collect, [])
    .option('--repo <owner/name>').option('--output <plan.json>').action(todo('error-issue plan'));
  issue.command('submit').description('File or comment the approved candidates of a plan file through gh')
    .requiredOption('--plan <file>').option('--approve <ids|all>').action(todo('error-issue submit'));
  return program;
}
