import { UsageError } from '@okstra/cli-kit';

/** One selector flag as it appeared on the command line (argv order). */
export interface SelectorFlag {
  flag: '--team-state' | '--worker';
  value: string;
}

/**
 * Pair `--team-state <path> --worker <id>` strictly by argv order: each
 * `--team-state` must be followed by exactly one `--worker` before the next
 * `--team-state` (seed 000 `worker-liveness` row: "each `--team-state` must
 * have a paired `--worker`"). At least one pair is required.
 * @throws UsageError (exit 2) naming the unpaired flag and its value.
 */
export function pairSelectors(order: readonly SelectorFlag[]): Array<{ teamStatePath: string; workerId: string }> {
  if (order.length === 0) throw new UsageError('at least one --team-state <path> --worker <id> pair is required');
  const pairs: Array<{ teamStatePath: string; workerId: string }> = [];
  for (let i = 0; i < order.length; i += 2) {
    const ts = order[i];
    const w = order[i + 1];
    if (ts.flag !== '--team-state') {
      throw new UsageError(`--worker ${ts.value} has no preceding --team-state (pairs are --team-state <path> --worker <id>)`);
    }
    if (!w || w.flag !== '--worker') {
      throw new UsageError(`--team-state ${ts.value} has no paired --worker (pairs are --team-state <path> --worker <id>)`);
    }
    if (ts.value === '') throw new UsageError("--team-state is an empty path: give the team-state file's path");
    if (w.value.trim() === '') throw new UsageError(`--worker after --team-state ${ts.value} is empty`);
    pairs.push({ teamStatePath: ts.value, workerId: w.value });
  }
  return pairs;
}
