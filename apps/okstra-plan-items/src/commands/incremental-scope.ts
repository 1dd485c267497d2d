import type { CliContext } from '@okstra/cli-kit';
import { documentArg, parseCsv, UsageError, writeJson } from '@okstra/cli-kit';
import { LinkedId, ScopeReportData } from '@okstra/schemas/implementation-planning';
import { decideScope, previewScope } from '@okstra/plan-items';
import { readReportData } from './inputs.js';

/** Options of `incremental-scope`. */
export interface IncrementalScopeOptions {
  prevData: string;
  baseSha?: string;
  answeredClarifications?: string;
  impacted?: string;
  fullReason?: string;
  preview?: boolean;
}

/**
 * `okstra-plan-items incremental-scope --prev-data <path> --base-sha <sha>
 * [--answered-clarifications <csv>] [--impacted <csv>] [--full-reason <text>]`
 * prints `{mode, reverifyStages, reason, unlinkedIds}`; with `--preview` (no
 * `--base-sha`) it prints `{wouldForceFull, unlinkedIds, reason}` (0.161.0 row).
 * Read-only. Exit 2 on a missing/extra `--base-sha`, a malformed answered id, an
 * `--impacted` value that is not a Stage Map stage, an empty `--full-reason`, or a
 * prior data.json missing or breaking a field the decision reads (`ScopeReportData`).
 */
export async function runIncrementalScope(opts: IncrementalScopeOptions, ctx: CliContext): Promise<number> {
  if (opts.preview && opts.baseSha !== undefined) throw new UsageError('--preview runs the link half alone and takes no --base-sha');
  if (!opts.preview && opts.baseSha === undefined) throw new UsageError('--base-sha <sha> is required (or use --preview)');
  if (opts.baseSha !== undefined && !/^[0-9a-fA-F]{7,64}$/.test(opts.baseSha))
    throw new UsageError(`--base-sha expects a git commit SHA, got '${opts.baseSha}'`);
  if (opts.fullReason !== undefined && opts.fullReason.trim() === '') throw new UsageError('--full-reason needs a text saying what changes');
  const answeredIds = parseCsv(opts.answeredClarifications);
  for (const id of answeredIds) {
    if (!LinkedId.safeParse(id).success) throw new UsageError(`--answered-clarifications: '${id}' is not a clarification id (C-NNN) or PREP item id (PREP-…)`);
  }
  // Only what the decision reads is checked: a report written before 0.164.0 (no `outcome` column) is decided from.
  const { data } = await readReportData(documentArg(ctx.io, opts.prevData), opts.prevData, ScopeReportData, ctx.io);
  const plan = data.implementationPlanning;
  const known = new Set(plan.stageMap.stages.map((s) => s.stage_number));
  const impacted = parseCsv(opts.impacted).map((raw) => {
    const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
    if (!known.has(n))
      throw new UsageError(`--impacted: '${raw}' is not a stage in the prior Stage Map (stages: ${[...known].sort((a, b) => a - b).join(', ')})`);
    return n;
  });
  const input = { plan, answeredIds, impacted, fullReason: opts.fullReason?.trim() };
  writeJson(ctx.io, opts.preview ? previewScope(input) : decideScope({ ...input, baseSha: opts.baseSha! }));
  return 0;
}
