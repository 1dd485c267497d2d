import { action, collect, createBaseProgram, type CliContext, type Command } from '@okstra/cli-kit';
import type { SelectorFlag } from '../commands/selectors.js';

/**
 * Argument definitions of `okstra-worker-liveness` (seed 000, 0.161.0
 * `docs/cli.md` `worker-liveness` row, "+" version with `--stall-confirm`).
 * Commander collects `--team-state` and `--worker` into two separate lists,
 * so their parsers also record the argv order the strict pairing check needs.
 * The work is imported lazily so `--help`/`--version` load nothing heavy.
 */
export function createProgram(ctx: CliContext): Command {
  const order: SelectorFlag[] = [];
  const selector = (flag: SelectorFlag['flag']) => (value: string, previous: string[]) => {
    order.push({ flag, value });
    return collect(value, previous);
  };
  const program = createBaseProgram(ctx, 'Judge whether pending workers are still alive (live, stalled, did-not-launch); it never kills anything');
  program
    .addHelpText(
      'after',
      '\nExample:\n  okstra worker-liveness --team-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/team-state-error-analysis-001.json --worker claude --team-state .okstra/tasks/payments/refund-timeout/runs/error-analysis/state/team-state-error-analysis-001.json --worker codex --json',
    )
    .option('--team-state <path>', 'team-state file of the next --worker (repeat, paired)', selector('--team-state'), [])
    .option('--worker <id>', 'worker id in the preceding --team-state (repeat, paired)', selector('--worker'), [])
    .option('--max-idle <seconds>', 'heartbeat idle budget (default 360 = 300 s cadence + 60 s grace)')
    .option('--launch-grace <seconds>', 'grace after startedAt before a missing artifact counts (default 120)')
    .option('--stall-confirm <seconds>', 're-read window before reporting stalled (default half of --max-idle; 0 disables)')
    .option('--json', 'print one JSON document')
    .action(action(ctx, async (opts) => (await import('../commands/liveness.js')).runLiveness(opts, order, ctx)));
  return program;
}
