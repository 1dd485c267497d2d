import type { CliContext } from '@okstra/cli-kit';
import { pathArg, writeJson } from '@okstra/cli-kit';
import { parseJsonText, readArtifact, readTextFile, withFileLock, writeTextAtomic } from '@okstra/state-file';
import { planVerdictsArtifact } from '@okstra/schemas/plan-verdicts';
import { applyVerdictsToText, renderVerificationSection, replaceVerificationSection } from '@okstra/plan-items';
import { PlanBodyVerification } from '@okstra/schemas/implementation-planning';
import { existsSync } from 'node:fs';
import { readReportData } from './inputs.js';

/** Options of `plan-items apply-verdicts`. */
export interface ApplyVerdictsOptions {
  data: string;
  verdicts: string;
}

/**
 * `okstra-plan-items apply-verdicts --data <data.json> --verdicts <verdicts.json>`
 * (0.161.0 row): under the data.json's file lock, overwrite every row's verdicts with
 * the envelope, set the aggregate `result` and `contributors`, and write atomically
 * (temp + fsync + rename). Only those values change in the file's text; every other
 * byte is kept (`applyVerdictsToText`). Prints `{result, contributors, rows,
 * itemsWithVerdicts, uncoveredRows, agree, supplement, dissent, blocking}`; when the
 * envelope leaves rows uncovered (they now carry no verdicts) stderr names them too.
 * The final report's Markdown beside it (`final-report-<type>-<seq>.md`), when there is one, gets its plan-body
 * verification section re-rendered from the data.json just written (under its own lock, atomically), so the
 * report the user approves shows the verdicts applied; `report` in the output names it (null when absent).
 * Exit 2 without writing when an incoming item has no row or an input is invalid.
 */
export async function runApplyVerdicts(opts: ApplyVerdictsOptions, ctx: CliContext): Promise<number> {
  const dataPath = pathArg(ctx.io, opts.data);
  const envelope = await readArtifact(pathArg(ctx.io, opts.verdicts), planVerdictsArtifact, { label: opts.verdicts });
  // Validate before taking the lock: the lock creates `<data.json>.lock` (and a missing
  // parent directory), and a command that fails must leave the disk as it found it.
  const first = await readReportData(dataPath, opts.data);
  applyVerdictsToText(first.text, first.raw, envelope, opts.data);
  const outcome = await withFileLock(dataPath, async () => {
    const { text, raw } = await readReportData(dataPath, opts.data);
    const applied = applyVerdictsToText(text, raw, envelope, opts.data);
    if (applied.text !== text) await writeTextAtomic(dataPath, applied.text);
    return applied;
  });
  const report = await rerenderReport(dataPath);
  const s = outcome.summary;
  writeJson(ctx.io, {
    report,
    result: outcome.result,
    contributors: outcome.contributors,
    rows: outcome.rows,
    itemsWithVerdicts: outcome.itemsWithVerdicts,
    uncoveredRows: outcome.uncoveredRows,
    agree: s.agree,
    supplement: s.supplement,
    dissent: s.dissent,
    blocking: s.blocking,
  });
  const n = outcome.uncoveredRows.length;
  if (n > 0) {
    ctx.io.stderr.write(
      `${ctx.name}: ${opts.data}: ${n} row${n > 1 ? 's' : ''} not covered by the envelope now carr${n > 1 ? 'y' : 'ies'} no verdicts: ${outcome.uncoveredRows.join(', ')}\n`,
    );
  }
  return 0;
}

/**
 * Re-render the plan-body verification section of the Markdown report beside `dataPath` (`….data.json` →
 * `….md`) from the data.json as written. @returns the report's path, or null when there is no such report.
 */
async function rerenderReport(dataPath: string): Promise<string | null> {
  const mdPath = dataPath.replace(/\.data\.json$/, '.md');
  if (mdPath === dataPath || !existsSync(mdPath)) return null;
  const data = parseJsonText<{ implementationPlanning?: { planBodyVerification?: unknown } }>(await readTextFile(dataPath), { label: dataPath });
  const pbv = PlanBodyVerification.parse(data.implementationPlanning?.planBodyVerification);
  await withFileLock(mdPath, async () => {
    const text = await readTextFile(mdPath, { label: mdPath });
    const next = replaceVerificationSection(text, renderVerificationSection(pbv));
    if (next !== text) await writeTextAtomic(mdPath, next);
  });
  return mdPath;
}
