import { InputError } from '@okstra/core';
import type { PlanVerdict } from '@okstra/schemas/implementation-planning';
import type { PlanVerdictsEnvelope } from '@okstra/schemas/plan-verdicts';
import { parseVerdictBlocks, type VerdictBlock } from '@okstra/verdict-blocks';
import { PLAN_ITEM_HEADING_ID } from './ids.js';
import { parseFixability, parseKindField, parseVerdictValue, toBreakageKind } from './verdict-grammar.js';

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

const KIND_LABELS = ['breakage kind', 'breakage', 'kind'];

/**
 * Read one plan-verify round's worker responses into a verdicts envelope
 * (0.161.0 `plan-items collect-verdicts`). Every worker is assigned every queue
 * item. Blocks are `### <item-id>` (or `####`) with a `**Verdict**` field, parsed by
 * the shared `@okstra/verdict-blocks` parser (code fences and block quotes ignored).
 *
 * Hard errors (each names worker, item and line), collected over all responses:
 * an assigned item with no block or no Verdict; a block for an id outside the queue;
 * an unknown verdict word; a DISAGREE with no breakage kind, or a kind outside a–e,
 * or two different kinds; a DISAGREE with no (or an unknown) fixability value; an
 * item answered twice; a kind written inside an AGREE/SUPPLEMENT verdict.
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
    for (const id of queue) {
      const verdict = found.get(id);
      if (verdict) byItem.get(id)!.push(verdict);
      else if (!found.has(id))
        problems.push({
          workerId: response.workerId,
          itemId: id,
          file: response.file,
          line: lastLine,
          message: `assigned item left unanswered: no "### ${id}" block with a Verdict before the end of the response`,
        });
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
  for (const block of parseVerdictBlocks(response.markdown, { idPattern: PLAN_ITEM_HEADING_ID, file: response.file })) {
    const id = canonical.get(block.id.toLowerCase());
    if (!id) {
      report(block.id, block.headingLine, 'verdict for an item outside the persisted queue');
      continue;
    }
    if (firstLine.has(id)) {
      report(id, block.headingLine, `item answered twice (first at line ${firstLine.get(id)})`);
      out.set(id, null);
      continue;
    }
    firstLine.set(id, block.headingLine);
    const verdict = readBlock(response.workerId, block, (line, message) => report(id, line, message));
    out.set(id, verdict);
  }
  return out;
}

function readBlock(workerId: string, block: VerdictBlock, report: (line: number, message: string) => void): PlanVerdict | null {
  const field = block.fields['verdict'];
  if (!field || field.value === '') {
    report(field?.line ?? block.headingLine, 'assigned item left unanswered: the block has no **Verdict** value');
    return null;
  }
  if (block.duplicateFields.includes('verdict')) {
    report(field.line, 'the block has more than one **Verdict** line');
    return null;
  }
  const parsed = parseVerdictValue(field.value);
  if (!parsed) {
    report(field.line, `unknown verdict '${firstWords(field.value)}' (expected AGREE, DISAGREE (a-e) or SUPPLEMENT)`);
    return null;
  }
  const basis = block.fields['basis']?.value || null;
  if (parsed.verdict !== 'DISAGREE') {
    if (parsed.kind !== null) {
      report(field.line, `${parsed.verdict} takes no breakage kind (got '${parsed.kind}')`);
      return null;
    }
    return { workerId, verdict: parsed.verdict, breakageKind: null, fixability: null, basis };
  }
  const kindField = KIND_LABELS.map((label) => block.fields[label]).find(Boolean);
  const fieldKind = kindField ? parseKindField(kindField.value) : null;
  if (parsed.kind !== null && fieldKind !== null && parsed.kind !== fieldKind) {
    report(kindField!.line, `DISAGREE (${parsed.kind}) and Breakage kind '${fieldKind}' disagree`);
    return null;
  }
  const letter = parsed.kind ?? fieldKind;
  if (letter === null) {
    report(kindField?.line ?? field.line, 'DISAGREE with no breakage kind (write DISAGREE (a) … DISAGREE (e))');
    return null;
  }
  const kind = toBreakageKind(letter);
  if (kind === null) {
    report(kindField?.line ?? field.line, `breakage kind '${letter}' is not one of a-e`);
    return null;
  }
  const fixField = block.fields['fixability'];
  const inBrackets = parsed.fixability !== null && parseFixability(parsed.fixability) !== null ? parsed.fixability : null;
  const fixText = fixField?.value || inBrackets;
  if (!fixText) {
    report(field.line, 'DISAGREE without a fixability value (in-place, replan or needs-clarification)');
    return null;
  }
  const fixability = parseFixability(fixText);
  if (fixability === null) {
    report(fixField?.line ?? field.line, `unknown fixability '${firstWords(fixText)}' (expected in-place, replan or needs-clarification)`);
    return null;
  }
  return { workerId, verdict: 'DISAGREE', breakageKind: kind, fixability, basis };
}

/** The 1-based number of the last line (a final newline does not open another line); 1 for an empty text. */
function lastLineNumber(markdown: string): number {
  const lines = markdown.split(/\r\n|\r|\n/);
  return Math.max(1, lines.length - (lines[lines.length - 1] === '' ? 1 : 0));
}

function firstWords(text: string): string {
  const line = text.split('\n')[0].trim();
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}
