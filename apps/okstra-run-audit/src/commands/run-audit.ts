import { createProgress, ExitCode, pathArg, printable, writeJson, type CliContext } from '@okstra/cli-kit';
import { findProjectRoot, runAudit } from '@okstra/audit-rules';
import type { RunAuditReport } from '@okstra/schemas/audit';

/** Parsed flags of `okstra run-audit` (program.ts). */
export interface RunAuditOptions {
  projectRoot?: string;
  taskKey?: string;
  json?: boolean;
  quiet?: boolean;
}

const PROGRESS_EVERY = 100;

/**
 * `okstra run-audit [--project-root <dir>] [--task-key <k>] [--json]`
 * (docs/run-audit.md): read-only. Prints the report as JSON (`--json`) or as
 * text. Over many runs, one progress line per 100 runs scanned and a last one with the total, on stderr in
 * every mode (cli-kit `createProgress`: a live line on a terminal), none with `--quiet`.
 * @returns 0 no violation, 1 violations found (or places discovery skipped); throws InputError (2) on an unusable project root,
 *   task key, or a path of the tree the OS refuses.
 */
export async function runRunAudit(opts: RunAuditOptions, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const progress = createProgress(io, ctx.name, { quiet: opts.quiet });
  // Without --project-root the project is found upward from the working directory, as git finds .git.
  const root = opts.projectRoot !== undefined ? pathArg(io, opts.projectRoot) : await findProjectRoot(io.cwd);
  const report = await runAudit(root, {
    taskKey: opts.taskKey,
    onProgress: (n) => n % PROGRESS_EVERY === 0 && progress.step(`${n} runs scanned…`),
  });
  if (report.runsScanned >= PROGRESS_EVERY) progress.step(`${report.runsScanned} runs scanned`);
  progress.done();
  if (opts.json) writeJson(io, report);
  else io.stdout.write(formatText(report));
  return report.ok ? ExitCode.OK : ExitCode.JUDGEMENT;
}

/** The human form of a report: one summary line, then one block per violation. */
export function formatText(report: RunAuditReport): string {
  const n = report.violations.length;
  const lines = [
    `run-audit: ${report.projectRoot}: ${report.runsScanned} run${report.runsScanned === 1 ? '' : 's'} scanned, ${n === 0 ? 'no violations' : `${n} violation${n === 1 ? '' : 's'}`}${skippedNote(report)}`,
  ];
  for (const s of report.runsSkipped ?? []) lines.push(printable(`  [skipped] ${s.path}: ${s.reason}`));
  for (const v of report.violations) {
    // Messages and evidence quote the run's own files: shown escaped, so they cannot forge a line.
    lines.push(printable(`  [${v.invariant}] ${v.taskKey} ${v.taskType} ${v.stage !== undefined ? `stage-${v.stage}/` : ''}${v.seq ?? '?'} (${v.runDir})`));
    lines.push(`    ${printable(v.message)}`);
    if (v.evidence.length) lines.push(`    evidence: ${printable(v.evidence.join(', '))}`);
  }
  return lines.join('\n') + '\n';
}

/** `, 2 places not looked into` when discovery skipped some (they make the report not ok). */
function skippedNote(report: RunAuditReport): string {
  const k = report.runsSkipped?.length ?? 0;
  return k === 0 ? '' : `, ${k} place${k === 1 ? '' : 's'} not looked into`;
}
