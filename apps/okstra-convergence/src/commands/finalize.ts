import { InputError, writeJson, type CliContext } from '@okstra/cli-kit';
import { finalizeState } from '@okstra/convergence';
import { finalStateArtifact } from '@okstra/schemas/convergence';
import { assertOutputNotInput, readJsonFile, withFileLock, writeArtifact } from '@okstra/state-file';
import { stat } from 'node:fs/promises';
import { note, pathArg, readWorkingState } from './documents.js';

/**
 * `finalize --work-state <p> --output <p>`: replay-check the working state,
 * refuse it unless its main queue is terminal, and write the v1.3 final state
 * atomically. An existing output that belongs to other groups is not overwritten.
 */
export async function runFinalize(opts: { workState: string; output: string }, ctx: CliContext): Promise<number> {
  const statePath = pathArg(ctx.io, opts.workState, '--work-state');
  const outputPath = pathArg(ctx.io, opts.output, '--output');
  assertOutputNotInput({ path: outputPath, flag: '--output' }, [{ path: statePath, flag: '--work-state' }]);
  const state = await readWorkingState(statePath);
  const final = finalizeState(state, statePath);
  return withFileLock(outputPath, async () => {
    if (await exists(outputPath)) {
      const previous = (await readJsonFile(outputPath).catch(() => null)) as { seedDigest?: unknown } | null;
      if (previous && typeof previous === 'object' && previous.seedDigest !== undefined && previous.seedDigest !== final.seedDigest) {
        throw new InputError(`refusing to overwrite a final state of other groups (seed digest ${String(previous.seedDigest)})`, {
          file: outputPath,
          field: 'seedDigest',
        });
      }
    }
    await writeArtifact(outputPath, finalStateArtifact, final);
    writeJson(ctx.io, { output: outputPath, rounds: final.rounds, counts: final.counts, criticApplied: final.criticApplied });
    const c = final.counts;
    note(ctx, `final state v1.3: ${c.total} findings — ${c.agreed} agreed, ${c.refuted} refuted, ${c.unverifiable} unverifiable, ${c.contested} contested`);
    return 0;
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
