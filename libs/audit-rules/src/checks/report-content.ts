import { basename } from 'node:path';
import { auditSidecarPath, carryPath, finalReportDataPath, finalReportPath, reportWriterJobsPath, joinPath as join } from '@okstra/paths';
import { parseJsonText } from '@okstra/state-file';
import { isApproved, readFrontmatter } from '../report/frontmatter.js';
import { type Finding, type RunUnderAudit } from '../run-context.js';
import { answerProblem } from './answers.js';
import { frontmatterIdentity } from './provenance.js';
import { isReportWriter } from './report-writer.js';

const SECTION_0 = /^##\s+0\.\s+Clarification Response Carried In From Previous Run[^\n]*\n([\s\S]*?)(?=^##\s|(?![\s\S]))/m;
/** A Section 0 body that carries nothing in (emphasis and HTML comments aside): blank, or only a "none" word in a language a report is written in. */
const EMPTY_BODY =
  /^(?:|none|n\/a|na|nil|nothing|empty|not applicable|-+|—|–|\(none\)|nothing carried in|없음|해당 ?없음|없습니다|なし|該当なし|ありません|无|無|没有|ninguno|ninguna|keine|aucune?)[.。!]?$/i;
/**
 * A one-line Section 0 body that says nothing was carried in ("No carry-in for this run.", "There were no clarification
 * responses."), naming no C-… item: the negation governs what a carry-in is. A response carried in may itself begin
 * with "No" ("No — the user confirmed refunds are never retried after 24 h"): that line is content.
 */
const NOTHING_LINE =
  /^(?:no|nothing|there (?:is|are|were) no|not applicable)\b[\s,:—–-]*(?:[\p{L}-]+\s+){0,3}?(?:carr(?:y|ied)|clarification|response|answer|question|item|input|previous|prior|earlier|first run|content|to carry|to report)[^\n]{0,120}$/iu;
const REFRAME = /^##\s+C-\d+[^\n]*\n(?:(?!^##\s)[\s\S])*?Disposition[*_]*\s*:?[*_]*\s*[*_`]*reframe\b/im;
const JOB_FIELDS = ['workerId', 'provider', 'role', 'modelExecutionValue', 'promptPath', 'resultPath', 'workerResultPath', 'completionPaths'] as const;

/**
 * Invariant 26 `report-content` — what the report and its companions say is evidence, not a claim
 * (seed 000 README: run-audit catches "runs that ended wrong without ever logging a failure"):
 * - a `completed` run's final report is an answer ({@link answerProblem}) and its data.json a non-empty JSON object;
 * - the report's author, in the Markdown frontmatter and in data.json's `frontmatter`, is the run-manifest's `reportAuthor`;
 * - `## 0. Clarification Response Carried In From Previous Run` is rendered only with content
 *   (seed 000 launch.template.md: "the validator fails empty Section 0 stubs");
 * - an approved report carries no `## C-…` block with `Disposition: reframe` ("never let a reframe item satisfy the approval gate");
 * - `claude-execution-prompt*.md` is a byte-identical alias of `lead-execution-prompt*.md` (seed 000 architecture);
 * - the report writer (seed 000 cmux.md, 002 project structure: "data.json SSOT author and audit sidecar writer"):
 *   a completed writer left its worker-results audit sidecar; its jobs file is a `report-writer` one-job file whose
 *   job carries every field the seed lists, with completion paths naming data.json and an audit file.
 */
export async function checkReportContent(run: RunUnderAudit): Promise<Finding[]> {
  const out: Finding[] = [];
  const add = (message: string, evidence: string[]) => out.push({ invariant: 'report-content', message, evidence });
  const report = finalReportPath(run.runDir, run);
  const text = run.files.exists(report) ? await run.files.readText(report) : null;
  if (text !== null) {
    const body = text.replace(/^\uFEFF?---[\s\S]*?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/, '');
    const problem = run.manifest.status === 'completed' ? answerProblem(body, null) : null;
    if (problem) add(`the final report ${problem}`, [report]);
    const s0 = SECTION_0.exec(text.replace(/\r\n/g, '\n'));
    if (s0 && emptySection0(s0[1]!)) add('the final report renders an empty "## 0. Clarification Response Carried In" section', [report]);
    const author = frontmatterIdentity(text) as { reportAuthor?: string };
    if (author.reportAuthor && run.manifest.reportAuthor && author.reportAuthor !== run.manifest.reportAuthor)
      add(`the final report's frontmatter says reportAuthor ${author.reportAuthor}, the run-manifest ${run.manifest.reportAuthor}`, [run.manifestPath, report]);
    if (REFRAME.test(text.replace(/\r\n/g, '\n'))) {
      const fm = await readFrontmatter(text);
      if (fm.ok && isApproved(fm.data)) add('the final report is approved while a Clarification item asks to be reframed (Disposition: reframe)', [report]);
    }
  }
  const data = finalReportDataPath(run.runDir, run);
  if (run.manifest.status === 'completed' && run.files.exists(data)) {
    const t = await run.files.readText(data);
    const doc = t === null ? null : jsonObject(t);
    if (t !== null && !doc) add('the report data.json is not a JSON object with content', [data]);
    // data.json is the report's SSOT (seed 002 project structure: the report writer is the "data.json SSOT author"):
    // its `frontmatter.reportAuthor` is the same claim as the Markdown frontmatter's, so it is held to the same manifest.
    const claimed = (doc?.frontmatter as { reportAuthor?: unknown } | undefined)?.reportAuthor;
    if (typeof claimed === 'string' && claimed && run.manifest.reportAuthor && claimed !== run.manifest.reportAuthor)
      add(`the report data.json's frontmatter says reportAuthor ${claimed}, the run-manifest ${run.manifest.reportAuthor}`, [run.manifestPath, data]);
  }
  const prompts = join(run.runDir, 'prompts');
  for (const name of run.files.list(prompts)) {
    if (name.startsWith('claude-execution-prompt') && !run.files.exists(join(prompts, name.replace('claude-execution-prompt', 'lead-execution-prompt'))))
      add(`${name} is a compatibility alias of a lead-execution-prompt that was never saved (the canonical file is missing)`, [join(prompts, name)]);
    if (!name.startsWith('lead-execution-prompt')) continue;
    const alias = join(prompts, name.replace('lead-execution-prompt', 'claude-execution-prompt'));
    if (!run.files.exists(alias)) continue;
    if ((await run.files.readText(join(prompts, name))) !== (await run.files.readText(alias)))
      add(`${basename(alias)} is not a byte-identical alias of ${name}`, [join(prompts, name), alias]);
  }
  const writer = run.teamState?.workers.find(isReportWriter);
  if (writer?.status === 'completed' && run.manifest.reportAuthor !== 'lead') {
    const side = auditSidecarPath(run.runDir, writer.workerId, run);
    if (!run.files.exists(side)) add(`the report writer '${writer.workerId}' is completed but its audit sidecar ${basename(side)} does not exist`, [side]);
  }
  const jobs = reportWriterJobsPath(run.runDir, run);
  if (run.files.exists(jobs)) {
    const t = await run.files.readText(jobs);
    const problem = t === null ? null : jobsProblem(t, 'report-writer', basename(data));
    if (problem) add(`the report-writer jobs file ${problem}`, [jobs]);
  }
  // seed 000 cmux.md: "Every reverify or report-writer jobs file carries workerId, provider, role, …, completionPaths".
  const state = join(run.runDir, 'state');
  const reverify = new RegExp(`^reverify-jobs-r([1-9][0-9]*)-${run.taskType}-${run.seq}\\.json$`);
  for (const name of run.files.list(state)) {
    const round = reverify.exec(name)?.[1];
    if (!round) continue;
    const t = await run.files.readText(join(state, name));
    const problem = t === null ? null : jobsProblem(t, `reverify-r${round}`);
    if (problem) add(`the reverify jobs file ${name} ${problem}`, [join(state, name)]);
  }
  return out;
}

/** A Section 0 body that is a table with a header and no data row. */
/** True when a Section 0 body carries nothing in (seed 000 launch.template.md: "the validator fails empty Section 0 stubs"). */
function emptySection0(raw: string): boolean {
  const body = raw.replace(/<!--[\s\S]*?-->/g, '').trim();
  const plain = body.replace(/[*_`~]/g, '').trim();
  return EMPTY_BODY.test(plain) || headerOnlyTable(body) || (NOTHING_LINE.test(plain) && !/\bC-\d+/.test(plain));
}

function headerOnlyTable(body: string): boolean {
  const lines = body
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length > 0 && lines.every((l) => l.startsWith('|')) && lines.filter((l) => !/^\|[\s:|-]+\|?$/.test(l)).length <= 1;
}

/** The text's JSON object when it is a non-empty one, else null. */
function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const v = parseJsonText(text.replace(/^\uFEFF/, '')) as unknown;
    return !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function jobsProblem(text: string, kind = 'report-writer', dataName?: string): string | null {
  let j: { dispatchKind?: unknown; jobs?: unknown };
  try {
    j = parseJsonText(text.replace(/^\uFEFF/, '')) as typeof j;
  } catch {
    return 'is not valid JSON';
  }
  if (j?.dispatchKind !== kind) return `has dispatchKind ${JSON.stringify(j?.dispatchKind)}, not "${kind}"`;
  if (!Array.isArray(j.jobs) || (kind === 'report-writer' && j.jobs.length !== 1)) return 'is not a one-job file';
  for (const job of j.jobs as Record<string, unknown>[]) {
    const missing = JOB_FIELDS.filter((f) => job?.[f] === undefined || job?.[f] === null || job?.[f] === '');
    if (missing.length) return `job${job?.workerId ? ` of '${String(job.workerId)}'` : ''} lacks ${missing.join(', ')}`;
  }
  if (kind !== 'report-writer') return null;
  const job = j.jobs[0] as Record<string, unknown>;
  const paths = Array.isArray(job.completionPaths) ? job.completionPaths.map(String) : [];
  if (!paths.some((p) => p.endsWith('.data.json')) || !paths.some((p) => p.endsWith('.audit.md')))
    return 'completion paths do not name both data.json and the audit file';
  // The data.json it completes is this run's report (seed 002 architecture: the `-<type>-<seq>` suffix separates reruns).
  const own = dataName ? paths.filter((p) => p.endsWith('.data.json') && basename(p) !== dataName) : [];
  if (own.length) return `completion path ${basename(own[0]!)} is not this run's ${dataName}`;
  return null;
}

/**
 * Invariant 11's carry evidence: a carry file that exists for this stage parses and says this stage.
 * @returns the problem, or null.
 */
export async function carryProblem(run: RunUnderAudit, stage: number): Promise<string | null> {
  const carry = carryPath(run.taskRoot, stage);
  if (!run.files.exists(carry)) return null;
  const t = await run.files.readText(carry);
  if (t === null) return null;
  try {
    const v = parseJsonText(t.replace(/^\uFEFF/, '')) as { stage?: unknown };
    if (v && typeof v === 'object' && v.stage !== undefined && Number(v.stage) !== stage) return `carry/stage-${stage}.json says stage ${String(v.stage)}`;
    return null;
  } catch {
    return `carry/stage-${stage}.json is not valid JSON`;
  }
}
