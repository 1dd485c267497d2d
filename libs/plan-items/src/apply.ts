import { InputError } from '@okstra/core';
import type { PlanVerdict, PlanVerificationResult } from '@okstra/schemas/implementation-planning';
import type { PlanVerdictsEnvelope } from '@okstra/schemas/plan-verdicts';
import { summarizePlanVerification, type PlanVerificationSummary } from './aggregate.js';
import { editJsonText, type JsonTextEdit } from './json-text-edit.js';

const ROWS_PATH = 'implementationPlanning.planBodyVerification.planItems';

/** What {@link applyVerdicts} returns: the new document and what it recorded. */
export interface ApplyVerdictsOutcome {
  /** A new data.json value: the input with only `result`, `contributors` and each row's `verdicts` replaced. */
  data: Record<string, unknown>;
  result: PlanVerificationResult;
  contributors: string[];
  /** Rows that now carry at least one verdict. */
  itemsWithVerdicts: number;
  /** Ids of the rows the envelope does not cover (they now carry no verdicts), in row order. */
  uncoveredRows: string[];
  rows: number;
  /** Verdict counts behind `result`. */
  summary: PlanVerificationSummary;
}

/**
 * Overwrite `planBodyVerification.planItems[].verdicts` with one round's envelope
 * (0.161.0 `plan-items apply-verdicts`; docs/contracts.md §7 "Plan verdicts"):
 * every row's verdicts are replaced — rows absent from the envelope end with none,
 * never a previous round's — then `result` is set by the aggregate rule ({@link summarizePlanVerification})
 * and `contributors` to the envelope's. Every other value, and the key order of
 * `raw`, is kept. `raw` is the data.json as parsed (already schema-checked); it is
 * not mutated; `file` names it in errors.
 * @throws InputError (field = the rows' JSON path) when the report has no
 *   `planBodyVerification.planItems`, or carries no row for an incoming item
 *   (all such ids are named).
 */
export function applyVerdicts(raw: Record<string, unknown>, envelope: PlanVerdictsEnvelope, file?: string): ApplyVerdictsOutcome {
  const data = structuredClone(raw);
  const plan = data.implementationPlanning as Record<string, unknown>;
  const pbv = plan.planBodyVerification as Record<string, unknown> | undefined;
  if (!pbv || !Array.isArray(pbv.planItems)) {
    throw new InputError('the report has no plan item rows to apply verdicts to', { file, field: ROWS_PATH });
  }
  const rows = pbv.planItems as Array<Record<string, unknown>>;
  const rowIds = new Set(rows.map((row) => String(row.id)));
  const missing = envelope.items.map((item) => item.id).filter((id) => !rowIds.has(id));
  if (missing.length > 0) {
    throw new InputError(`the report carries no row for incoming item${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, { file, field: ROWS_PATH });
  }
  const incoming = new Map(envelope.items.map((item) => [item.id, item.verdicts] as const));
  let itemsWithVerdicts = 0;
  const uncoveredRows: string[] = [];
  for (const row of rows) {
    if (!incoming.has(String(row.id))) uncoveredRows.push(String(row.id));
    const verdicts = (incoming.get(String(row.id)) ?? []).map(orderedVerdict);
    if (verdicts.length > 0) itemsWithVerdicts++;
    row.verdicts = verdicts;
  }
  const summary = summarizePlanVerification(rows as Array<{ id: string; verdicts: PlanVerdict[] }>);
  pbv.result = summary.result;
  pbv.contributors = [...envelope.contributors];
  return { data, result: summary.result, contributors: [...envelope.contributors], itemsWithVerdicts, uncoveredRows, rows: rows.length, summary };
}

/**
 * {@link applyVerdicts} on the data.json TEXT: the same outcome, and the text
 * with only what apply-verdicts owns rewritten — `planBodyVerification.result`,
 * `.contributors` and each `planItems[i].verdicts` — while every other byte is
 * kept as written (numbers such as `12345678901234567890`, `1e3`, `-0.0`, string
 * escapes, key order, 2-space / 4-space / tab indentation, CRLF, final newline;
 * {@link editJsonText}). A value that already holds what the round says is not
 * touched, so re-applying the same envelope reproduces the file byte for byte.
 * @param text the data.json as read; `raw` is its `JSON.parse` (schema-checked).
 * @throws InputError as {@link applyVerdicts}, and naming the JSON path when a
 *   key on an edited path occurs twice in its object.
 */
export function applyVerdictsToText(
  text: string,
  raw: Record<string, unknown>,
  envelope: PlanVerdictsEnvelope,
  file?: string,
): ApplyVerdictsOutcome & { text: string } {
  const outcome = applyVerdicts(raw, envelope, file);
  const pbv = (outcome.data.implementationPlanning as Record<string, unknown>).planBodyVerification as Record<string, unknown>;
  const base = ['implementationPlanning', 'planBodyVerification'];
  const edits: JsonTextEdit[] = [
    ...(pbv.planItems as Array<{ verdicts: unknown }>).map((row, i) => ({ path: [...base, 'planItems', i, 'verdicts'], value: row.verdicts })),
    { path: [...base, 'result'], value: pbv.result },
    { path: [...base, 'contributors'], value: pbv.contributors },
  ];
  return { ...outcome, text: editJsonText(text, edits, file) };
}

/** A verdict with its keys in the documented order (stable serialization). */
function orderedVerdict(v: PlanVerdict): PlanVerdict {
  return { workerId: v.workerId, verdict: v.verdict, breakageKind: v.breakageKind, fixability: v.fixability, basis: v.basis };
}
