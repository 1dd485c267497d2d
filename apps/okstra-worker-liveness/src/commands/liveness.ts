import { ExitCode, parseSeconds, pathArg, writeJson, type CliContext } from '@okstra/cli-kit';
import { MAX_BUDGET_S, probeWorkers } from '@okstra/heartbeat';
import { formatHuman } from './format.js';
import { pairSelectors, type SelectorFlag } from './selectors.js';

/** The options of `okstra-worker-liveness` (checked against the flag definitions in cli/program.ts). Seconds stay raw strings: this command parses them. */
export interface LivenessOptions {
  teamState: string[];
  worker: string[];
  maxIdle?: string;
  launchGrace?: string;
  stallConfirm?: string;
  json?: boolean;
}

/**
 * `okstra-worker-liveness`: pair the selectors, judge every worker in one
 * call (one shared confirm wait), print the report (`--json`: one document
 * `{ checkedAt, healthy, workers: ProbeResult[] }`; else aligned lines).
 * Writes nothing to disk and signals no process.
 * @returns 0 when every verdict is healthy (live or terminal), 1 when any is
 *   `stalled` or `did-not-launch`.
 * @throws UsageError / InputError (exit 2) for unpaired selectors, bad seconds,
 *   and invalid team-state files or rows (named by file and JSON path).
 */
export async function runLiveness(opts: LivenessOptions, order: readonly SelectorFlag[], ctx: CliContext): Promise<number> {
  const selectors = pairSelectors(order);
  const maxIdleS = opts.maxIdle === undefined ? undefined : parseBudgetSeconds('--max-idle', opts.maxIdle);
  const launchGraceS = opts.launchGrace === undefined ? undefined : parseBudgetSeconds('--launch-grace', opts.launchGrace);
  const stallConfirmS = opts.stallConfirm === undefined ? undefined : parseBudgetSeconds('--stall-confirm', opts.stallConfirm);
  const checkedAt = ctx.io.now();
  let first = true;
  // The first reading of the clock is `checkedAt`, so the report and the judgement agree on "now".
  const now = () => (first ? ((first = false), checkedAt) : ctx.io.now());
  const probed = await probeWorkers(selectors, { now, sleep: ctx.io.sleep, maxIdleS, launchGraceS, stallConfirmS, resolvePath: (p) => pathArg(ctx.io, p) });
  // The report names each team-state by its absolute path, as every tool prints paths (README); errors keep the path as typed.
  const workers = probed.map((w) => ({ ...w, teamStatePath: pathArg(ctx.io, w.teamStatePath) }));
  const healthy = workers.every((w) => w.healthy);
  if (opts.json) writeJson(ctx.io, { checkedAt: checkedAt.toISOString(), healthy, workers });
  else ctx.io.stdout.write(formatHuman(workers));
  return healthy ? ExitCode.OK : ExitCode.JUDGEMENT;
}

/**
 * Parse a budget flag's value: decimal seconds (`parseSeconds` of
 * `@okstra/cli-kit`), at most {@link MAX_BUDGET_S} (86,400 s) — docs/worker-liveness.md.
 * @throws UsageError (exit 2) naming the flag.
 */
export function parseBudgetSeconds(flag: string, raw: string): number {
  return parseSeconds(flag, raw, { max: MAX_BUDGET_S });
}
