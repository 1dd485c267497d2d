import type { CliContext } from '@okstra/cli-kit';
import { documentArg, isStdio, pathArg, writeJson } from '@okstra/cli-kit';
import { assertOutputNotInput, renderArtifact, writeArtifact } from '@okstra/state-file';
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
 * `--output -` prints the items document itself on stdout instead.
 */
export async function runExtract(opts: ExtractOptions, ctx: CliContext): Promise<number> {
  const dataPath = documentArg(ctx.io, opts.data);
  const toStdout = isStdio(opts.output);
  if (!toStdout) assertOutputNotInput({ path: pathArg(ctx.io, opts.output), flag: '--output' }, [{ path: dataPath, flag: '--data' }]);
  const { data } = await readReportData(dataPath, opts.data, undefined, ctx.io);
  const items = extractPlanItems(data.implementationPlanning);
  if (toStdout) {
    ctx.io.stdout.write(renderArtifact(planItemsArtifact, planItemsFile(items)));
    return 0;
  }
  const output = pathArg(ctx.io, opts.output);
  await writeArtifact(output, planItemsArtifact, planItemsFile(items));
  const kinds: Record<string, number> = {};
  for (const item of items) kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
  writeJson(ctx.io, { count: items.length, kinds, output });
  return 0;
}
