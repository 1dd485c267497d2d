// What a worker that follows the repair prompt (libs/verdict-blocks repair.ts)
// writes back: its own blocks restated in the form the prompt shows — each
// dispatched id's verdict and fixability as its block or table row wrote them,
// its Basis without the lines the refusal quoted — and nothing around them. Used
// to report, for the committed corpora, which refused answers one repair turns
// into a read vote (libs/convergence and libs/plan-items read-votes specs). A
// model may do better (it can settle a contradiction the refusal names) or worse
// (it can fail to answer); this restatement is the mechanical middle.
import { parseAnswer, tableRows, type ParseOptions } from '../index.js';

/** The restated answer, or undefined when the answer has no block or row to restate. */
export function restatedAnswer(text: string, refusal: string, ids: readonly string[], options: ParseOptions & { idPattern: RegExp }): string | undefined {
  const quoted = new Set([...refusal.matchAll(/\bline (\d+)\b/g)].map((m) => Number(m[1])));
  const answer = parseAnswer(text, options);
  const lower = (id: string) => id.toLowerCase().replace(/\d+/g, (n) => String(Number(n)));
  const dispatched = (written: string) => ids.find((id) => lower(id) === lower(written));
  const out = new Map<string, string>();
  for (const block of answer.blocks) {
    const id = dispatched(block.id);
    if (!id || out.has(id)) continue;
    const verdict = block.fields['verdict'];
    const word = verdict ? verdict.value.split('\n')[0] : block.headingRest;
    if (!word) continue;
    const basisField = block.fields['basis'] ?? block.fields['explanation'] ?? block.fields['rationale'] ?? block.fields['reasoning'];
    const basis = (basisField?.source ?? '')
      .split('\n')
      .filter((_, k) => !quoted.has(basisField!.line + k) || basisField!.line + k === verdict?.line)
      .join('\n')
      .trim();
    const fix = block.fields['fixability']?.value;
    out.set(id, `### ${id}\n**Verdict**: ${word}\n${fix ? `**Fixability**: ${fix}\n` : ''}**Basis**: ${basis || 'as before'}\n`);
  }
  for (const row of tableRows(answer, options.idPattern)) {
    const id = dispatched(row.id);
    if (!id || out.has(id)) continue;
    out.set(
      id,
      `### ${id}\n**Verdict**: ${row.verdict}${row.kind ? ` (${row.kind})` : ''}\n${row.fixability ? `**Fixability**: ${row.fixability}\n` : ''}**Basis**: ${row.basis ?? 'as before'}\n`,
    );
  }
  if (out.size === 0) return undefined;
  return ids
    .filter((id) => out.has(id))
    .map((id) => out.get(id)!)
    .join('\n');
}
