import { InputError } from '@okstra/core';
import type { PlanVerdict } from '@okstra/schemas/implementation-planning';
import type { PlanVerdictsEnvelope } from '@okstra/schemas/plan-verdicts';
import { findNearMisses, parseVerdictBlocks, PLAN_FIELD_LABELS, readPlanVote, secondIdInHeading, type NearMiss } from '@okstra/verdict-blocks';
import { PLAN_ITEM_HEADING_ID } from './ids.js';

/** One worker's plan-verify response: its id, the file it came from (for messages) and the Markdown. */
export interface WorkerResponse {
  workerId: string;
  file: string;
  markdown: string;
}

/** One hard error of a response: the worker, the item, the file and the 1-based line (0 = end of file unknown). */
export interface CollectProblem {
  workerId: string;
  itemId: string;
  file: string;
  line: number;
  message: string;
}

/**
 * Read one plan-verify round's worker responses into a verdicts envelope
 * (0.161.0 `plan-items collect-verdicts`). Every worker is assigned every queue
 * item. Blocks are `### <item-id>` (or `####`) with a `**Verdict**` field, parsed by
 * the shared `@okstra/verdict-blocks` parser (code fences and block quotes ignored).
 *
 * Each block is read by `readPlanVote` of `@okstra/verdict-blocks` (the one
 * home of the plan verdict grammar, docs/plan-items.md "Verdict grammar"): one
 * vote per block, read exactly. Hard errors (each names worker, item and line,
 * and says what was expected), collected over all responses: an assigned item
 * with no block (naming a near miss — a `## P-…` heading, a block inside a
 * fence, quote or list item — when there is one) or no Verdict; a block for an
 * id outside the queue; an item answered twice; and every refusal of the
 * grammar (several verdict words, a kind that is not exactly one letter a–e, a
 * list or range of kinds, two Fixability or breakage-kind fields, a kind or a
 * blocking fixability on an AGREE/SUPPLEMENT, a DISAGREE without kind or fixability…).
 * @returns the envelope: contributors sorted, items in queue order, verdicts sorted by worker.
 * @throws InputError for the first problem (file = the response, field = `line N`),
 *   saying how many more there are; also for a worker id given twice.
 */
export function collectVerdicts(queue: readonly string[], responses: readonly WorkerResponse[]): PlanVerdictsEnvelope {
  const { envelope, problems } = collectVerdictsWithProblems(queue, responses);
  if (problems.length > 0) {
    const p = problems[0];
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    throw new InputError(`worker ${p.workerId}: item ${p.itemId}: ${p.message}${more}`, { file: p.file, field: p.line > 0 ? `line ${p.line}` : undefined });
  }
  return envelope;
}

/** {@link collectVerdicts} without throwing on response problems: the envelope of what parsed, and every problem in order. */
export function collectVerdictsWithProblems(
  queue: readonly string[],
  responses: readonly WorkerResponse[],
): { envelope: PlanVerdictsEnvelope; problems: CollectProblem[] } {
  const seenWorkers = new Set<string>();
  for (const r of responses) {
    if (seenWorkers.has(r.workerId)) throw new InputError(`worker '${r.workerId}' is given more than one --result`, { field: '--result' });
    seenWorkers.add(r.workerId);
  }
  const canonical = new Map(queue.map((id) => [id.toLowerCase(), id] as const));
  const byItem = new Map<string, PlanVerdict[]>(queue.map((id) => [id, []]));
  const problems: CollectProblem[] = [];
  for (const response of responses) {
    const found = readResponse(response, canonical, problems);
    const lastLine = lastLineNumber(response.markdown);
    let nearMisses: Map<string, NearMiss> | undefined;
    for (const id of queue) {
      const verdict = found.get(id);
      if (verdict) byItem.get(id)!.push(verdict);
      else if (!found.has(id)) {
        nearMisses ??= nearMissesOf(response.markdown);
        const near = nearMisses.get(id.toLowerCase());
        const hint = near ? `; found '${near.heading}' at line ${near.line}: ${near.why}` : '';
        problems.push({
          workerId: response.workerId,
          itemId: id,
          file: response.file,
          line: lastLine,
          message: `assigned item left unanswered: no "### ${id}" block with a Verdict before the end of the response${hint}`,
        });
      }
    }
  }
  const envelope: PlanVerdictsEnvelope = {
    schemaVersion: '1.0',
    contributors: [...seenWorkers].sort(),
    items: queue.map((id) => ({ id, verdicts: byItem.get(id)!.sort((a, b) => (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : 0)) })),
  };
  return { envelope, problems };
}

/** Parse one response; map item id → verdict, or → null when its block was present but broken (already reported). */
function readResponse(response: WorkerResponse, canonical: Map<string, string>, problems: CollectProblem[]): Map<string, PlanVerdict | null> {
  const out = new Map<string, PlanVerdict | null>();
  const firstLine = new Map<string, number>();
  const report = (itemId: string, line: number, message: string) => problems.push({ workerId: response.workerId, itemId, file: response.file, line, message });
  for (const block of parseVerdictBlocks(response.markdown, { idPattern: PLAN_ITEM_HEADING_ID, fieldLabels: PLAN_FIELD_LABELS, file: response.file })) {
    const id = canonical.get(block.id.toLowerCase());
    if (!id) {
      report(block.id, block.headingLine, 'verdict for an item outside the persisted queue');
      continue;
    }
    if (firstLine.has(id)) {
      report(id, block.headingLine, `item answered twice (first at line ${firstLine.get(id)}): expected one block per item`);
      out.set(id, null);
      continue;
    }
    firstLine.set(id, block.headingLine);
    const other = secondIdInHeading(block.headingRest);
    const otherId = other ? canonical.get(other.toLowerCase()) : undefined;
    if (otherId && otherId !== id) {
      // `### P-Opt-1, P-Opt-2`: which items the one verdict covers is not beyond doubt (docs/plan-items.md).
      report(id, block.headingLine, `the heading names more than one item (${id} and ${otherId}): answer each in its own block`);
      out.set(id, null);
      continue;
    }
    const read = readPlanVote(block);
    if ('problem' in read) {
      report(id, read.problem.line, read.problem.message);
      out.set(id, null);
    } else out.set(id, { workerId: response.workerId, ...read.vote });
  }
  return out;
}

/** The first near miss of each id (lower-cased) in a response: a heading of another depth, or one inside code, a quote or a list. */
function nearMissesOf(markdown: string): Map<string, NearMiss> {
  const out = new Map<string, NearMiss>();
  for (const near of findNearMisses(markdown, { idPattern: PLAN_ITEM_HEADING_ID, fieldLabels: PLAN_FIELD_LABELS })) {
    if (!out.has(near.id.toLowerCase())) out.set(near.id.toLowerCase(), near);
  }
  return out;
}

/** The 1-based number of the last line (a final newline does not open another line); 1 for an empty text. */
function lastLineNumber(markdown: string): number {
  const lines = markdown.split(/\r\n|\r|\n/);
  return Math.max(1, lines.length - (lines[lines.length - 1] === '' ? 1 : 0));
}
