import { ExitCode, pathArg, printable, writeJson, type CliContext } from '@okstra/cli-kit';
import { findProjectRoot, runAudit } from '@okstra/audit-rules';
import type { RunAuditReport } from '@okstra/schemas/audit';

/** Parsed flags of `okstra run-audit` (program.ts). */
export interface RunAuditOptions {
  projectRoot?: string;
  taskKey?: string;
  json?: boolean;
}

const PROGRESS_EVERY = 100;

/**
 * `okstra run-audit [--project-root <dir>] [--task-key <k>] [--json]`
 * (docs/run-audit.md): read-only. Prints the report as JSON (`--json`) or as
 * text; progress goes to stderr only when stderr is a TTY.
 * @returns 0 no violation, 1 violations found; throws InputError (2) on an unusable project root or task key.
 */
export async function runRunAudit(opts: RunAuditOptions, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const tty = io.stderr.isTTY === true;
  // Without --project-root the project is found upward from the working directory, as git finds .git.
  const root = opts.projectRoot !== undefined ? pathArg(io, opts.projectRoot) : await findProjectRoot(io.cwd);
  const report = await runAudit(root, {
    taskKey: opts.taskKey,
    onProgress: tty ? (n) => n % PROGRESS_EVERY === 0 && io.stderr.write(`\r${ctx.name}: ${n} runs scanned…`) : undefined,
  });
  if (tty && report.runsScanned >= PROGRESS_EVERY) io.stderr.write('\r\x1b[K');
  if (opts.json) writeJson(io, report);
  else io.stdout.write(formatText(report));
  return report.ok ? ExitCode.OK : ExitCode.JUDGEMENT;
}

/** The human form of a report: one summary line, then one block per violation. */
export function formatText(report: RunAuditReport): string {
  const n = report.violations.length;
  const lines = [
    `run-audit: ${report.projectRoot}: ${report.runsScanned} run${report.runsScanned === 1 ? '' : 's'} scanned, ${n === 0 ? 'no violations' : `${n} violation${n === 1 ? '' : 's'}`}`,
  ];
  for (const v of report.violations) {
    // Messages and evidence quote the run's own files: shown escaped, so they cannot forge a line.
    lines.push(printable(`  [${v.invariant}] ${v.taskKey} ${v.taskType} ${v.stage !== undefined ? `stage-${v.stage}/` : ''}${v.seq ?? '?'} (${v.runDir})`));
    lines.push(`    ${printable(v.message)}`);
    if (v.evidence.length) lines.push(`    evidence: ${printable(v.evidence.join(', '))}`);
  }
  return lines.join('\n') + '\n';
}
