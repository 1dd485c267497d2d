import type { ConvergenceGroups, CriticCandidate, RoundBatch, RoundPlan } from '@okstra/schemas/convergence';
import { renderRepairPrompt, type AnswerProblem } from '@okstra/verdict-blocks';
import { WORKER_TEXTS } from './worker-texts.generated.js';
import { appendAll } from '@okstra/core';

/** What a rendered prompt tells the worker about its own files (paths as the worker should see them: project-relative). */
export interface PromptFiles {
  /** Where the worker writes its answer (the job's `resultPath`). */
  resultPath: string;
  /** The audit sidecar it heartbeats into, beside the result (`.audit.md`). */
  auditSidecarPath: string;
}

/** The line a prompt lists its batch on, first thing after the title: `Batch: F-001, F-004` (stub CLIs and people read it). */
export const BATCH_LINE_PREFIX = 'Batch: ';

/**
 * One worker's reverify prompt for round `plan.round` (docs/convergence.md "Reverify prompts"):
 * a header naming the round, its result file, its audit sidecar and its phase id; the batch's
 * findings in plan order (title, claim, evidence, from the seed), each re-vote with the other
 * reviewers' verdict and Basis from the plan's `revotes`, quoted and labelled as theirs; a cited
 * evidence line `citationNotes` names is marked `— does not hold: <why>` (the citation checker's
 * finding, libs/citations), and a finding none of whose citations holds says so; then
 * `prompts/workers/reverify-<mode>.md` and `prompts/workers/audit-sidecar.md` verbatim.
 * Deterministic: the same plan, seed and paths give the same bytes.
 * @throws Error when the batch names a finding the seed does not hold (a plan of another state).
 */
export function renderReverifyPrompt(
  seed: ConvergenceGroups,
  plan: RoundPlan,
  batch: RoundBatch,
  files: PromptFiles,
  citationNotes: ReadonlyMap<string, string> = new Map(),
): string {
  const byId = new Map(seed.findings.map((f) => [f.id, f]));
  const revotes = new Map((batch.revotes ?? []).map((r) => [r.findingId, r]));
  const phase = `reverify-r${plan.round}`;
  const out: string[] = [
    `# Convergence re-verification, round ${plan.round}: ${batch.workerId}`,
    '',
    `${BATCH_LINE_PREFIX}${batch.findingIds.join(', ')}`,
    '',
    ...header(files, phase, plan.mode),
    '## Your batch',
    '',
  ];
  for (const id of batch.findingIds) {
    const f = byId.get(id);
    if (!f) throw new Error(`finding ${id} of ${batch.workerId}'s batch is not in the seed`);
    out.push(`### ${id}: ${oneLine(f.title)}`, '', f.claim.trimEnd(), '');
    if (f.evidence.length > 0) {
      appendAll(out, [
        'Evidence cited:',
        '',
        ...f.evidence.map((e) => (citationNotes.has(e) ? `- ${e} — does not hold: ${citationNotes.get(e)}` : `- ${e}`)),
        '',
      ]);
      if (f.evidence.every((e) => citationNotes.has(e)))
        out.push(
          `Evidence check: none of the citations above holds in the project (okstra checked each file and line range). Judge ${id} on the code itself.`,
          '',
        );
    }
    const rv = revotes.get(id);
    if (rv) {
      out.push(`Re-vote (pass ${rv.pass}): the reviewers split on ${id}. Their latest votes follow — theirs, not yours:`, '');
      for (const o of rv.others) appendAll(out, [`- ${o.workerId} (round ${o.round}) voted ${o.verdict}. Their Basis:`, '', ...quote(o.explanation), '']);
    }
  }
  out.push(WORKER_TEXTS[`reverify-${plan.mode}`].trimEnd(), '', WORKER_TEXTS['audit-sidecar'].trimEnd(), '');
  return out.join('\n');
}

/**
 * An analyser's coverage-gap vote prompt (prompts/lead/convergence-rounds.md §3): the critic's
 * candidates in their order (id, title, claim, evidence, rationale), then
 * `prompts/workers/gap-vote.md` and `audit-sidecar.md` verbatim. Deterministic.
 */
export function renderGapVotePrompt(workerId: string, mode: RoundPlan['mode'], candidates: readonly CriticCandidate[], files: PromptFiles): string {
  const out: string[] = [
    `# Coverage-gap vote: ${workerId}`,
    '',
    `${BATCH_LINE_PREFIX}${candidates.map((c) => c.id).join(', ')}`,
    '',
    ...header(files, 'gap-vote', mode),
    '## The gaps',
    '',
  ];
  for (const c of candidates) {
    out.push(`### ${c.id}: ${oneLine(c.title)}`, '', c.claim.trimEnd(), '');
    if (c.evidence.length > 0) appendAll(out, ['Evidence cited:', '', ...c.evidence.map((e) => `- ${e}`), '']);
    if (c.rationale) appendAll(out, ["The critic's rationale:", '', ...quote(c.rationale), '']);
  }
  out.push(WORKER_TEXTS['gap-vote'].trimEnd(), '', WORKER_TEXTS['audit-sidecar'].trimEnd(), '');
  return out.join('\n');
}

function header(files: PromptFiles, phase: string, mode: string): string[] {
  return [
    `Mode: ${mode}. Write your answer to \`${files.resultPath}\`.`,
    `Your audit sidecar (\`<audit-sidecar>\` below) is \`${files.auditSidecarPath}\`; your phase id is \`${phase}\`.`,
    '',
  ];
}

/** A text as a Markdown quote, every line prefixed (`>` alone for blank lines), so no heading or fence inside it is read as the prompt's. */
function quote(text: string): string[] {
  return text
    .trimEnd()
    .split('\n')
    .map((l) => (l.trim() === '' ? '>' : `> ${l}`));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The repair prompt of a worker whose round-`plan.round` answer collect refused (docs/convergence.md
 * "Repair dispatch"): libs/verdict-blocks `renderRepairPrompt` with the problems, the answer form of
 * `prompts/workers/reverify-<mode>.md` verbatim and the refused answer verbatim, headed by the worker,
 * its batch and the result file the restated answer replaces (project-relative). Deterministic.
 * @throws Error when `workerId` has no batch in the plan (a bug of the caller).
 */
export function renderReverifyRepairPrompt(plan: RoundPlan, workerId: string, problems: readonly AnswerProblem[], answer: string, resultPath: string): string {
  const batch = plan.batches.find((b) => b.workerId === workerId);
  if (!batch) throw new Error(`worker ${workerId} has no batch in round ${plan.round}`);
  return renderRepairPrompt({
    problems,
    expectedForm: WORKER_TEXTS[`reverify-${plan.mode}`],
    answer,
    to: { workerId, kind: `reverify-r${plan.round}`, ids: batch.findingIds, resultPath },
  });
}
