import { InputError } from '@okstra/core';
import type { PlanVerdict } from '@okstra/schemas/implementation-planning';
import type { PlanVerdictsEnvelope } from '@okstra/schemas/plan-verdicts';
import {
  bearingProblems,
  dispatchedIds,
  findNearMisses,
  parseAnswer,
  PLAN_FIELD_LABELS,
  readFixabilityText,
  readKindText,
  readPlanVote,
  readVerdictLine,
  verdictWordsIn,
  refuseAnswers,
  secondIdInHeading,
  summaryStatements,
  tableRows,
  truncatedAt,
  type NearMiss,
  type PlanVote,
} from '@okstra/verdict-blocks';
import { PLAN_ITEM_HEADING_ID } from './ids.js';
import { readObjectResponse, type PlanResponseObject } from './object-votes.js';

/** The queue id an id as written names: exactly one match in case or zero-padding (verdict-blocks dispatchedIds), else none. */
function resolveId(written: string, queue: readonly string[]): string | undefined {
  const ids = dispatchedIds(written, queue);
  return ids.length === 1 ? ids[0] : undefined;
}

/** One worker's plan-verify response: its id, the file it came from (for messages) and the Markdown. */
export interface WorkerResponse {
  workerId: string;
  file: string;
  markdown: string;
  /** The provider's end-of-turn signal when captured (docs/team.md "End of turn"): any but `end-turn` refuses the answer as truncated. */
  endOfTurn?: { signal: string } | null;
  /** A schema-bound answer's object (docs/contracts.md "Answer objects"): when given, the votes are read from it, never from `markdown`. */
  object?: PlanResponseObject;
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
 * @throws InputError listing every problem (`refuseAnswers`: the first names the
 *   response file and `line N`, each other one its own); also for a worker id given twice.
 */
export function collectVerdicts(queue: readonly string[], responses: readonly WorkerResponse[]): PlanVerdictsEnvelope {
  const { envelope, problems } = collectVerdictsWithProblems(queue, responses);
  if (problems.length > 0)
    refuseAnswers(problems.map((p) => ({ workerId: p.workerId, id: p.itemId, thing: 'item', file: p.file, line: p.line, message: p.message })));
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
  const canonical = { get: (written: string) => resolveId(written, queue), size: queue.length };
  const byItem = new Map<string, PlanVerdict[]>(queue.map((id) => [id, []]));
  const problems: CollectProblem[] = [];
  for (const response of responses) {
    const found = response.object ? readObjectResponse({ ...response, object: response.object }, queue, problems) : readResponse(response, canonical, problems);
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
function readResponse(
  response: WorkerResponse,
  canonical: { get: (written: string) => string | undefined; size: number },
  problems: CollectProblem[],
): Map<string, PlanVerdict | null> {
  const out = new Map<string, PlanVerdict | null>();
  const firstLine = new Map<string, number>();
  const voteLine = new Map<string, number>();
  const report = (itemId: string, line: number, message: string) => problems.push({ workerId: response.workerId, itemId, file: response.file, line, message });
  const options = { idPattern: PLAN_ITEM_HEADING_ID, fieldLabels: PLAN_FIELD_LABELS, file: response.file };
  const answer = parseAnswer(response.markdown, options);
  for (const block of answer.blocks) {
    const id = canonical.get(block.id);
    if (!id) {
      // A title heading that looks like an id but carries no verdict is not an answer.
      if (block.fields['verdict']) report(block.id, block.headingLine, 'verdict for an item outside the persisted queue');
      continue;
    }
    const other = secondIdInHeading(block.headingRest);
    const otherId = other ? canonical.get(other) : undefined;
    if (otherId && otherId !== id) {
      // `### P-Opt-1, P-Opt-2`: which items the one verdict covers is not beyond doubt (docs/plan-items.md).
      report(id, block.headingLine, `the heading names more than one item (${id} and ${otherId}): answer each in its own block`);
      out.set(id, null);
      continue;
    }
    const read = readPlanVote(block);
    if (firstLine.has(id)) {
      const earlier = out.get(id);
      // The same answer printed twice is one answer; anything else is two verdicts.
      if (earlier && 'vote' in read && sameVote(earlier, read.vote)) continue;
      report(id, block.headingLine, `item answered twice (first at line ${firstLine.get(id)}): expected one block per item`);
      out.set(id, null);
      continue;
    }
    firstLine.set(id, block.headingLine);
    if ('problem' in read) {
      report(id, read.problem.line, read.problem.message);
      out.set(id, null);
    } else {
      out.set(id, { workerId: response.workerId, ...read.vote });
      voteLine.set(id, block.fields['verdict']?.line ?? block.headingLine);
    }
  }
  // Tables: a row answers an item with no block; for one with a block, it is a statement compared below.
  const rows = tableRows(answer, PLAN_ITEM_HEADING_ID).map((r) => ({ ...r, item: canonical.get(r.id) }));
  for (const row of rows) {
    if (!row.item || firstLine.has(row.item)) continue;
    firstLine.set(row.item, row.line);
    const fields = [
      `**Verdict**: ${row.verdict}`,
      row.kind ? `**Breakage kind**: ${row.kind}` : '',
      row.fixability ? `**Fixability**: ${row.fixability}` : '',
      row.basis ? `**Basis**: ${row.basis}` : '',
    ];
    const [block] = parseAnswer(`### ${row.item}\n${fields.filter(Boolean).join('\n')}\n`, options).blocks;
    const read = readPlanVote(block);
    if ('problem' in read) {
      report(row.item, row.line, `the table row: ${read.problem.message}`);
      out.set(row.item, null);
    } else {
      out.set(row.item, { workerId: response.workerId, ...read.vote });
      voteLine.set(row.item, row.line);
    }
  }
  type Statement = {
    item: string | null | undefined;
    text: string;
    line: number;
    what: string;
    correction?: boolean;
    afterTitle?: string;
    kind?: string | null;
    fixability?: string | null;
  };
  const statements: Statement[] = [
    ...rows.filter((r) => r.item).map((r) => ({ item: r.item, text: r.verdict, line: r.line, what: 'the table row', ...rowCells(r) })),
    ...summaryStatements(answer, PLAN_ITEM_HEADING_ID).map((st) => ({
      item: st.id === null ? null : canonical.get(st.id),
      text: st.text,
      line: st.line,
      what: st.id === null ? 'the summary' : st.correction ? 'the correction' : 'the summary line',
      correction: st.correction,
      afterTitle: st.afterTitle,
    })),
  ];
  const votes = [...out].filter((e): e is [string, PlanVerdict] => e[1] !== null);
  for (const st of statements) {
    if (st.item === undefined) continue;
    let line = readVerdictLine(st.text.replace(/[*_`]/g, ''));
    if ('error' in line && st.afterTitle !== undefined) line = readVerdictLine(st.afterTitle.replace(/[*_`]/g, ''));
    if ('error' in line) {
      // A correction may name its verdict anywhere (`… so P-Opt-1 is really DISAGREE`): every word it names must be the block's.
      const vote = st.item === null ? undefined : out.get(st.item);
      const named = st.correction ? verdictWordsIn(st.text, ['AGREE', 'DISAGREE', 'SUPPLEMENT']) : undefined;
      if (vote && named && named.words.length > 0 && (named.negated || named.words.length > 1 || named.words[0] !== vote.verdict))
        report(
          st.item!,
          st.line,
          `the block says ${describe(vote)} (line ${voteLine.get(st.item!)}) but a correction at line ${st.line} says '${st.text}': expected one verdict, the same everywhere`,
        );
      continue; // prose, not a verdict
    }
    // A table row's Kind and Fixability cells state them too.
    const said = {
      ...line,
      kind: line.kind ?? st.kind ?? null,
      fixability: line.fixability ?? st.fixability ?? null,
    };
    const shown = `${said.verdict}${said.kind ? ` (${said.kind})` : ''}`;
    if (st.item === null) {
      const match = votes.some(([, v]) => v.verdict === said.verdict && (said.kind === null || v.breakageKind === said.kind));
      if (votes.length > 0 && !match) {
        const [item, v] = votes[0];
        report(
          item,
          st.line,
          `${st.what} says ${shown} (line ${st.line}) but no item block says it (${item} says ${describe(v)} at line ${voteLine.get(item)}): expected one verdict per item, the same everywhere`,
        );
      }
      continue;
    }
    const vote = out.get(st.item);
    if (!vote) continue;
    const differs =
      vote.verdict !== said.verdict ||
      (said.kind !== null && vote.breakageKind !== said.kind) ||
      (said.fixability !== null && vote.fixability !== said.fixability);
    if (differs && st.line !== voteLine.get(st.item))
      report(
        st.item,
        st.line,
        `the block says ${describe(vote)} (line ${voteLine.get(st.item)}) but ${st.what} says ${shown} (line ${st.line}): expected one verdict, the same everywhere`,
      );
  }
  // Fail closed: every other line that bears on a vote refuses the answer (docs/contracts.md "Which answers give a vote").
  const reported = new Set(problems.filter((p) => p.workerId === response.workerId).map((p) => p.line));
  const ownLines = new Set<number>(voteLine.values());
  for (const block of answer.blocks)
    for (const key of ['verdict', 'fixability', 'breakage kind', 'breakage', 'kind', 'confidence'])
      for (const f of block.occurrences[key] ?? []) ownLines.add(f.line);
  const held = new Map(
    votes.map(([id, v]) => [id, { word: v.verdict, line: voteLine.get(id) ?? 0, kind: v.breakageKind ?? null, fixability: v.fixability ?? null }] as const),
  );
  // Only for an answer whose blocks all read: the repair of a broken block comes first, and its text bears on nothing yet.
  const clean = ![...out.values()].includes(null) && out.size === canonical.size;
  if (clean && problems.every((p) => p.workerId !== response.workerId))
    for (const p of bearingProblems({ answer, idPattern: PLAN_ITEM_HEADING_ID, resolve: (w) => canonical.get(w), votes: held, ownLines }))
      if (!reported.has(p.line)) report(p.id, p.line, p.message);
  const cut =
    response.endOfTurn && response.endOfTurn.signal !== 'end-turn'
      ? { line: 0, why: `the provider's turn did not end (end-of-turn signal '${response.endOfTurn.signal}' in the wrapper's status sidecar)` }
      : truncatedAt(answer.text);
  if (cut) report([...out.keys()].pop() ?? '(answer)', cut.line, `the answer is cut off: ${cut.why} (a truncated answer gives no vote)`);
  return out;
}

/** The kind and fixability a table row's own cells state, when each is exactly one value. */
function rowCells(row: { kind: string | null; fixability: string | null }): { kind: string | null; fixability: string | null } {
  const kind = row.kind === null ? undefined : readKindText(row.kind.replace(/[*_`]/g, ''), 'field');
  const fix = row.fixability === null ? undefined : readFixabilityText(row.fixability.replace(/[*_`]/g, ''));
  return {
    kind: kind && 'kind' in kind ? kind.kind : null,
    fixability: fix && 'fixability' in fix ? fix.fixability : null,
  };
}

function describe(v: Pick<PlanVote, 'verdict' | 'breakageKind' | 'fixability'>): string {
  return v.verdict === 'DISAGREE' ? `DISAGREE (${v.breakageKind}, ${v.fixability})` : v.verdict;
}

/** Two votes that are one answer printed twice: the same vote, and the same Basis (one may run on into the closing words). */
function sameVote(a: PlanVerdict, b: PlanVote): boolean {
  const x = a.basis ?? '';
  const y = b.basis ?? '';
  return describe(a) === describe(b) && (x.startsWith(y) || y.startsWith(x));
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
