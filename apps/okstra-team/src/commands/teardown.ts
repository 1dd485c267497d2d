import { writeJson, type CliContext } from '@okstra/cli-kit';
import { teardownRun } from '@okstra/team-run/teardown';

/** Flags of `team teardown` (0.161.0 docs/cli.md team row; `--force` docs/team.md). */
export interface TeardownFlags {
  projectRoot: string;
  runManifest: string;
  dryRun?: boolean;
  json?: boolean;
  force?: boolean;
}

/**
 * `okstra-team teardown` (libs/team-run `teardownRun`, docs/team.md "teardown"): one JSON
 * document (`--json`) or one line per pane; a dry run that finds nothing says
 * `nothing would be closed`. Exit 0 when nothing was left running, 1 otherwise.
 */
export async function runTeardown(flags: TeardownFlags, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const { closed, running, skipped } = await teardownRun(flags, io);
  if (flags.json) writeJson(io, { closed, dryRun: Boolean(flags.dryRun), running, skipped });
  else {
    // A dry run that finds nothing says so: an empty answer reads like a crash.
    if (flags.dryRun && closed.length === 0) io.stdout.write('nothing would be closed\n');
    for (const c of closed)
      io.stdout.write(`${flags.dryRun ? 'would close' : 'closed'}\t${c.workerId}\t${c.backend}\t${c.paneId ?? ''}${c.orphan ? `\t${c.orphan}` : ''}\n`);
    for (const r of running) io.stdout.write(`running\t${r.workerId}\t${r.backend}\t${r.paneId ?? ''}\t${r.running}\n`);
    for (const s of skipped) io.stdout.write(`skipped\t${s.workerId}\t${s.backend}\t${s.paneId ?? ''}\t${s.reason}\n`);
  }
  if (running.length > 0) {
    io.stderr.write(`${ctx.name}: left ${running.length} running worker(s) alone: ${running.map((r) => r.workerId).join(', ')} (--force stops them)\n`);
    return 1;
  }
  return 0;
}
