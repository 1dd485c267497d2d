import type { CliContext } from '@okstra/cli-kit';
import { InputError, pathArg, writeJson } from '@okstra/cli-kit';
import { readArtifact } from '@okstra/state-file';
import { planItemsArtifact } from '@okstra/schemas/plan-items';
import { compareQueues, extractPlanItems, isSameQueue } from '@okstra/plan-items';
import { readReportData } from './inputs.js';

/** Options of `plan-items validate`. */
export interface ValidateOptions {
  data: string;
  items: string;
}

/**
 * `okstra-plan-items validate --data <data.json> --items <items.json>` (0.161.0 row):
 * exit 0 and print `{ok: true, count}` only when the persisted queue equals a fresh
 * extraction (ids, order, content). Otherwise print `{ok: false, missing, extra,
 * changed, reordered}` on stdout and exit 2 with one line naming them.
 */
export async function runValidate(opts: ValidateOptions, ctx: CliContext): Promise<number> {
  const { data } = await readReportData(pathArg(ctx.io, opts.data), opts.data);
  const persisted = await readArtifact(pathArg(ctx.io, opts.items), planItemsArtifact, { label: opts.items });
  const fresh = extractPlanItems(data.implementationPlanning);
  const diff = compareQueues(persisted.items, fresh);
  if (isSameQueue(diff)) {
    writeJson(ctx.io, { ok: true, count: fresh.length });
    return 0;
  }
  writeJson(ctx.io, { ok: false, ...diff });
  const parts = (['missing', 'extra', 'changed', 'reordered'] as const).filter((k) => diff[k].length > 0).map((k) => `${k}: ${diff[k].join(', ')}`);
  throw new InputError(`persisted queue does not match a fresh extraction — ${parts.join('; ')}`, { file: opts.items });
}
