import type { Command } from 'commander';
import { action, collect, createBaseProgram, NotImplementedError, type CliContext } from '@okstra/cli-kit';

/**
 * Argument definitions of `okstra-worker-liveness` (0.161.0 docs/cli.md row).
 * The work is imported lazily so `--help`/`--version` load nothing heavy.
 */
export function createProgram(ctx: CliContext): Command {
  const program = createBaseProgram(ctx, 'Judge whether pending workers are still alive');
  program
    .option('--team-state <path>', 'team-state file of the next --worker (repeat, paired)', collect, [])
    .option('--worker <id>', 'worker id in the preceding --team-state (repeat, paired)', collect, [])
    .option('--max-idle <seconds>', 'heartbeat idle budget')
    .option('--launch-grace <seconds>', 'grace after startedAt before a missing artifact counts')
    .option('--stall-confirm <seconds>', 're-read window before reporting stalled (0 disables)')
    .option('--json', 'print one JSON document')
    .action(action(ctx, () => { throw new NotImplementedError('okstra-worker-liveness'); }));
  return program;
}
