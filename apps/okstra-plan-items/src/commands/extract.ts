import type { CliContext } from '@okstra/cli-kit';
import { pathArg, writeJson } from '@okstra/cli-kit';
import { assertOutputNotInput, writeArtifact } from '@okstra/state-file';
import { planItemsArtifact } from '@okstra/schemas/plan-items';
import { extractPlanItems, planItemsFile } from '@okstra/plan-items';
import { readReportData } from './inputs.js';

/** Options of `plan-items extract`. */
export interface ExtractOptions {
  data: string;
  output: string;
}

/**
 * `okstra-plan-items extract --data <data.json> --output <items.json>` (0.161.0 row):
 * write the complete P-* queue atomically (sorted keys, byte-identical for the same
 * data) and print `{count, kinds, output}`. Exit 2 on an invalid data.json, nothing written.
 */
export async function runExtract(opts: ExtractOptions, ctx: CliContext): Promise<number> {
  const dataPath = pathArg(ctx.io, opts.data);
  assertOutputNotInput({ path: pathArg(ctx.io, opts.output), flag: '--output' }, [{ path: dataPath, flag: '--data' }]);
  const { data } = await readReportData(dataPath, opts.data);
  const items = extractPlanItems(data.implementationPlanning);
  const output = pathArg(ctx.io, opts.output);
  await writeArtifact(output, planItemsArtifact, planItemsFile(items));
  const kinds: Record<string, number> = {};
  for (const item of items) kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
  writeJson(ctx.io, { count: items.length, kinds, output: opts.output });
  return 0;
}
