import { resolve } from 'node:path';
import { sameTaskKey } from '@okstra/core';
import { convergenceFinalStatePath, finalReportDataPath, finalReportPath, teamStatePath } from '@okstra/paths';
import { parseJsonText } from '@okstra/state-file';
import type { Finding, RunUnderAudit } from '../run-context.js';

/** The run identity an artifact may carry: any of its fields that are present must be this run's. */
interface Claimed {
  taskKey?: unknown;
  taskType?: unknown;
  seq?: unknown;
}

/**
 * Invariant 18 `foreign-artifact`: the team-state the run-manifest points to,
 * and the run's convergence final state, carry this run's task key (the
 * run-manifest's `taskKey`), task type and seq (compared as numbers) wherever
 * they carry one. An absent field says nothing; a final state that does not
 * parse is left to invariants 0 and 8.
 */
export async function checkForeignArtifacts(run: RunUnderAudit): Promise<Finding[]> {
  const out: Finding[] = [];
  if (run.teamState && run.teamStatePath) {
    const wrong = mismatch(run, run.teamState);
    const own = teamStatePath(run.runDir, run);
    if (wrong)
      out.push({ invariant: 'foreign-artifact', message: `the team-state belongs to another run: ${wrong}`, evidence: [run.manifestPath, run.teamStatePath] });
    else if (resolve(run.teamStatePath) !== resolve(own))
      // libs/paths names this run's team-state; another seq's or task type's file is another run's, whatever it carries.
      out.push({
        invariant: 'foreign-artifact',
        message: `teamStatePath is not this run's state/${own.split('/').pop()}`,
        evidence: [run.manifestPath, run.teamStatePath],
      });
  }
  const data = finalReportDataPath(run.runDir, run);
  if (run.files.exists(data)) {
    const claimed = safeObject((await run.files.readText(data)) ?? '');
    const wrong = claimed ? mismatch(run, claimed) : null;
    if (wrong) out.push({ invariant: 'foreign-artifact', message: `the report data.json belongs to another run: ${wrong}`, evidence: [data] });
  }
  const report = finalReportPath(run.runDir, run);
  if (run.files.exists(report)) {
    const wrong = mismatch(run, frontmatterIdentity((await run.files.readText(report)) ?? ''));
    if (wrong) out.push({ invariant: 'foreign-artifact', message: `the final report's frontmatter names another run: ${wrong}`, evidence: [report] });
  }
  const final = convergenceFinalStatePath(run.runDir, run);
  if (run.files.exists(final)) {
    let state: unknown = null;
    try {
      state = parseJsonText((await run.files.readText(final)) ?? '');
    } catch {
      return out;
    }
    const wrong = state && typeof state === 'object' ? mismatch(run, state as Claimed) : null;
    if (wrong) out.push({ invariant: 'foreign-artifact', message: `the convergence final state belongs to another run: ${wrong}`, evidence: [final] });
  }
  return out;
}

function mismatch(run: RunUnderAudit, claimed: Claimed): string | null {
  const wrong: string[] = [];
  if (claimed.taskKey !== undefined && claimed.taskKey !== null && !sameTaskKey(String(claimed.taskKey), run.manifest.taskKey))
    wrong.push(`taskKey ${String(claimed.taskKey)} (this run: ${run.manifest.taskKey})`);
  if (claimed.taskType !== undefined && claimed.taskType !== null && claimed.taskType !== run.taskType)
    wrong.push(`taskType ${String(claimed.taskType)} (this run: ${run.taskType})`);
  if (claimed.seq !== undefined && claimed.seq !== null && Number(claimed.seq) !== Number(run.seq))
    wrong.push(`seq ${String(claimed.seq)} (this run: ${run.seq})`);
  return wrong.length ? wrong.join(', ') : null;
}

function safeObject(text: string): Claimed | null {
  try {
    const v = parseJsonText(text.replace(/^\uFEFF/, '')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Claimed) : null;
  } catch {
    return null; // invariant 26 judges a data.json that does not parse
  }
}

/** The plain `taskKey:` / `taskType:` / `seq:` scalars of a report's frontmatter (no YAML parser needed for three scalars). */
export function frontmatterIdentity(text: string): Claimed {
  const fm = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  const out: Record<string, string> = {};
  for (const line of fm?.[1]?.split(/\r?\n/) ?? []) {
    const m = /^(taskKey|taskType|seq|reportAuthor)[ \t]*:[ \t]*(?:"([^"]*)"|'([^']*)'|([^\s#"'][^#]*?))[ \t]*(?:#.*)?$/.exec(line);
    if (m) out[m[1]!] = m[2] ?? m[3] ?? m[4]!;
  }
  return out;
}
