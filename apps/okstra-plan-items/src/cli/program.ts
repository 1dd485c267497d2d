import type { Command } from 'commander';
import { action, collect, createBaseProgram, NotImplementedError, type CliContext } from '@okstra/cli-kit';

/**
 * Argument definitions of `okstra-plan-items` (0.161.0 docs/cli.md rows).
 * Actions import their work lazily so `--help`/`--version` load nothing heavy.
 */
export function createProgram(ctx: CliContext): Command {
  const program = createBaseProgram(ctx, 'okstra plan-body verification queue, verdict collection and incremental re-run scope');
  const todo = (what: string) => action(ctx, () => { throw new NotImplementedError(`okstra-plan-items ${what}`); });

  program.command('extract').description('Deterministically extract the complete implementation-planning P-* queue from report-writer data.json')
    .requiredOption('--data <data.json>').requiredOption('--output <items.json>').action(todo('extract'));
  program.command('validate').description('Require the persisted P-* queue to match a fresh deterministic extraction exactly')
    .requiredOption('--data <data.json>').requiredOption('--items <items.json>').action(todo('validate'));
  program.command('collect-verdicts').description("Read one plan-verify round's worker responses into a verdicts envelope")
    .option('--result <worker-id=path>', 'a worker response (repeat)', collect, [])
    .requiredOption('--items <items.json>').requiredOption('--output <verdicts.json>').action(todo('collect-verdicts'));
  program.command('apply-verdicts').description('Overwrite planBodyVerification.planItems[].verdicts with a verdicts envelope')
    .requiredOption('--data <data.json>').requiredOption('--verdicts <verdicts.json>').action(todo('apply-verdicts'));
  program.command('incremental-scope').description('Decide re-verify vs carry-forward scope for an implementation-planning clarification re-run')
    .requiredOption('--prev-data <path>').option('--base-sha <sha>').option('--answered-clarifications <csv>')
    .option('--impacted <csv>').option('--full-reason <text>').option('--preview').action(todo('incremental-scope'));
  return program;
}
