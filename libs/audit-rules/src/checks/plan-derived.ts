import { basename } from 'node:path';
import { finalReportDataPath, joinPath as join } from '@okstra/paths';
import { parseJsonText } from '@okstra/state-file';
import { type Finding, type RunUnderAudit } from '../run-context.js';
import { resolveRecorded } from './recorded-path.js';

type Vote = { workerId?: unknown; verdict?: unknown; breakageKind?: unknown; fixability?: unknown };
type Item = { id?: unknown; verdicts?: Vote[] };

const PLAN_VERIFY_KINDS = new Set(['plan-verify', 'repair-plan-verify']);
/** Refusals of libs/verdict-blocks that seed rule S19 names as collect-verdicts' exit 2: a DISAGREE missing its kind or fixability. */
const S19_REFUSALS = /^DISAGREE (?:with no breakage kind|without a fixability value)/;

/** How a vote reads in a message: `DISAGREE(b, in-place)`, `AGREE`. */
const show = (v: Vote) => `${String(v.verdict)}${v.verdict === 'DISAGREE' ? `(${String(v.breakageKind ?? '-')}, ${String(v.fixability ?? '-')})` : ''}`;
const same = (a: Vote, b: Vote) =>
  a.verdict === b.verdict && (a.breakageKind ?? null) === (b.breakageKind ?? null) && (a.fixability ?? null) === (b.fixability ?? null);

/**
 * The status a worker's plan-verify dispatch is recorded with: its last team-state row whose
 * `dispatchKind` is `plan-verify` / `repair-plan-verify`; `'unrecorded'` when no row records that
 * dispatch (a row of another kind records the worker's analysis, not its verification; a
 * native-session run has no rows): the saved current response is then all there is, and counts.
 */
function recordedStatus(run: RunUnderAudit, workerId: string): string {
  const pv = (run.teamState?.workers ?? []).filter((r) => r.workerId === workerId && r.dispatchKind !== undefined && PLAN_VERIFY_KINDS.has(r.dispatchKind));
  return pv.at(-1)?.status ?? 'unrecorded';
}

/**
 * The run's current plan-verify responses, worker → absolute path: the run-manifest's
 * `planVerification.responses` and the libs/paths layout name `<w>-plan-verify-<type>-<seq>.md`
 * in `worker-results/` (a repair moves the refused answer aside to `….attempt-<n>.md`; the
 * current file is the one read).
 */
function responseFiles(run: RunUnderAudit): Map<string, string> {
  const suffix = `-plan-verify-${run.taskType}-${run.seq}.md`;
  const out = new Map<string, string>();
  const dir = join(run.runDir, 'worker-results');
  const recorded = (run.manifest as { planVerification?: { responses?: unknown } }).planVerification?.responses;
  for (const r of Array.isArray(recorded) ? recorded : []) {
    const abs = typeof r === 'string' ? resolveRecorded(run.projectRoot, r) : null;
    if (abs && basename(abs).endsWith(suffix) && run.files.exists(abs)) out.set(basename(abs).slice(0, -suffix.length), abs);
  }
  for (const name of run.files.list(dir)) {
    const worker = name.endsWith(suffix) ? name.slice(0, -suffix.length) : '';
    if (worker && !out.has(worker)) out.set(worker, join(dir, name));
  }
  return out;
}

/**
 * Invariant 29 `derived-mismatch`, plan verdicts (seed rule S19, 000 docs/cli.md `plan-items
 * collect-verdicts` / `apply-verdicts`: the verdicts in data.json are what the workers' responses
 * say): for a report data.json whose `implementationPlanning.planBodyVerification.planItems` carry
 * verdicts and a run that saved plan-verify responses, the responses of the workers recorded
 * `completed` are re-read with `collectVerdictsWithProblems` of libs/plan-items (the reader
 * `collect-verdicts` uses; called, never copied) over data.json's item ids, and compared per item
 * and worker on verdict, breakage kind and fixability. A vote data.json records that no counted
 * response gives (a worker with no response, or recorded timeout/error/not-run), or a counted
 * response's vote that data.json lacks or records differently, is a violation naming the item,
 * the worker, both values and both files. An item the reader refuses for a worker is not compared
 * (the refusal is invariant 21's or the collect's own), except a refusal seed rule S19 names — an item
 * the response has no block for at all, a DISAGREE with no breakage kind or without a fixability value:
 * a vote data.json records for it was collected from nothing. Nothing is read for a run with no responses.
 */
export async function checkPlanDerived(run: RunUnderAudit): Promise<Finding[]> {
  const dataPath = finalReportDataPath(run.runDir, run);
  if (!run.files.exists(dataPath)) return [];
  const responses = responseFiles(run);
  if (responses.size === 0) return [];
  const text = await run.files.readText(dataPath);
  if (text === null || !text.includes('"planBodyVerification"')) return [];
  let pbv: { result?: unknown; planItems?: unknown } | undefined;
  try {
    pbv = (parseJsonText(text) as { implementationPlanning?: { planBodyVerification?: typeof pbv } })?.implementationPlanning?.planBodyVerification;
  } catch {
    return []; // invariant 9's loader reports it
  }
  const items = (Array.isArray(pbv?.planItems) ? pbv.planItems : []).filter(
    (i): i is Item & { id: string } => !!i && typeof i === 'object' && typeof (i as Item).id === 'string',
  );
  if (items.length === 0) return [];
  const counted: Array<{ workerId: string; file: string; markdown: string }> = [];
  const notCounted = new Map<string, string>();
  for (const [workerId, file] of responses) {
    const status = recordedStatus(run, workerId);
    if (status !== 'completed' && status !== 'unrecorded') {
      notCounted.set(workerId, status);
      continue;
    }
    const markdown = await run.files.readText(file);
    if (markdown !== null) counted.push({ workerId, file, markdown });
  }
  // Loaded only for a run that saved plan-verify responses: the verdict reader is the heavy part of plan-items.
  const { collectVerdictsWithProblems } = await import('@okstra/plan-items');
  let derived: ReturnType<typeof collectVerdictsWithProblems>;
  try {
    derived = collectVerdictsWithProblems(
      items.map((i) => i.id),
      counted,
    );
  } catch {
    return []; // a queue the reader refuses (an id given twice) is invariant 9's
  }
  const refused = new Set(derived.problems.map((p) => `${p.workerId}\u0000${p.itemId}`));
  // A block collect-verdicts exits 2 on for a reason seed rule S19 names — no block at all for the item (not even a
  // near miss: "an assigned item the worker left unanswered"), a DISAGREE with no breakage kind, a DISAGREE without a
  // fixability value — gave no vote, so a vote data.json records for it was not collected from that response. A near
  // miss (a malformed heading) stays uncompared: that refusal is the collect's.
  const fromNothing = new Map(
    derived.problems
      .filter((p) => (/^assigned item left unanswered/.test(p.message) && !p.message.includes('; found')) || S19_REFUSALS.test(p.message))
      .map((p) => [`${p.workerId}\u0000${p.itemId}`, /^assigned item/.test(p.message) ? 'has no block answering it' : `gives no such vote (${p.message})`]),
  );
  const fileOf = new Map(counted.map((c) => [c.workerId, c.file]));
  const out: Finding[] = [];
  const add = (message: string, evidence: string[]) => out.push({ invariant: 'derived-mismatch', message, evidence });
  for (const item of items) {
    const recorded = Array.isArray(item.verdicts) ? item.verdicts : [];
    const given = derived.envelope.items.find((i) => i.id === item.id)?.verdicts ?? [];
    for (const vote of recorded) {
      const w = String(vote.workerId);
      const file = fileOf.get(w);
      if (!file) {
        const why = notCounted.has(w) ? `its plan-verify is recorded ${notCounted.get(w)}, not completed` : 'it saved no plan-verify response';
        add(`plan item ${item.id}: data.json records worker '${w}' ${show(vote)} but ${why}`, [dataPath, ...(responses.has(w) ? [responses.get(w)!] : [])]);
        continue;
      }
      const nothing = fromNothing.get(`${w}\u0000${item.id}`);
      if (nothing) {
        add(`plan item ${item.id}: data.json records worker '${w}' ${show(vote)} but ${basename(file)} ${nothing}`, [dataPath, file]);
        continue;
      }
      if (refused.has(`${w}\u0000${item.id}`)) continue;
      const answer = given.find((g) => g.workerId === w);
      if (answer && !same(answer, vote))
        add(`plan item ${item.id}: data.json records worker '${w}' ${show(vote)} but ${basename(file)} says ${show(answer)}`, [dataPath, file]);
    }
    if (pbv?.result === 'aborted-non-result') continue; // an aborted verification records what it had
    for (const answer of given) {
      if (recorded.some((v) => String(v.workerId) === answer.workerId)) continue;
      const file = fileOf.get(answer.workerId)!;
      add(`plan item ${item.id}: ${basename(file)} says ${show(answer)} but data.json records no vote of worker '${answer.workerId}'`, [dataPath, file]);
    }
  }
  return out;
}
