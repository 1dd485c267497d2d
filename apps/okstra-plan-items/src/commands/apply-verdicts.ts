import type { CliContext } from '@okstra/cli-kit';
import { writeJson } from '@okstra/cli-kit';
import { readJsonFile, withFileLock, writeJsonAtomic } from '@okstra/state-file';
import { PLAN_VERDICTS_VERSIONS, PlanVerdictsEnvelope } from '@okstra/schemas/plan-verdicts';
import { applyVerdicts } from '@okstra/plan-items';
import { inputPath, readReportData } from './inputs.js';

/** Options of `plan-items apply-verdicts`. */
export interface ApplyVerdictsOptions {
  data: string;
  verdicts: string;
}

/**
 * `okstra-plan-items apply-verdicts --data <data.json> --verdicts <verdicts.json>`
 * (0.161.0 row): under the data.json's file lock, overwrite every row's verdicts with
 * the envelope, set the aggregate `result` and `contributors`, and write atomically
 * (temp + fsync + rename; key order preserved). Prints `{result, contributors, rows,
 * itemsWithVerdicts, agree, supplement, dissent, blocking}`. Exit 2 without writing
 * when an incoming item has no row or an input is invalid.
 */
export async function runApplyVerdicts(opts: ApplyVerdictsOptions, ctx: CliContext): Promise<number> {
  const dataPath = inputPath(ctx.io.cwd, opts.data);
  const envelope = await readJsonFile(inputPath(ctx.io.cwd, opts.verdicts), {
    label: opts.verdicts,
    schema: PlanVerdictsEnvelope,
    schemaVersions: PLAN_VERDICTS_VERSIONS,
  });
  // Validate before taking the lock: the lock creates `<data.json>.lock` (and a missing
  // parent directory), and a command that fails must leave the disk as it found it.
  applyVerdicts((await readReportData(dataPath, opts.data)).raw, envelope, opts.data);
  const outcome = await withFileLock(dataPath, async () => {
    const { raw } = await readReportData(dataPath, opts.data);
    const applied = applyVerdicts(raw, envelope, opts.data);
    await writeJsonAtomic(dataPath, applied.data, { keyOrder: 'preserve' });
    return applied;
  });
  const s = outcome.summary;
  writeJson(ctx.io, {
    result: outcome.result,
    contributors: outcome.contributors,
    rows: outcome.rows,
    itemsWithVerdicts: outcome.itemsWithVerdicts,
    agree: s.agree,
    supplement: s.supplement,
    dissent: s.dissent,
    blocking: s.blocking,
  });
  return 0;
}
