/**
 * The fact table as docs/run-audit.md shows it ("The fact graph"): rendered from facts/table.ts, so the doc and
 * the data the checks and the generator read cannot drift (facts.spec.ts compares them).
 */
import { FACT_ARTIFACTS, FACT_EDGES } from './table.js';

const cell = (s: string) => s.replaceAll('|', '\\|');
const code = (s: string) => `\`${cell(s)}\``;

/** The Markdown between the doc's `<!-- fact-table -->` markers: where each artifact lives, then one row per edge. */
export function renderFactTable(): string {
  const artifacts = Object.entries(FACT_ARTIFACTS).map(([id, where]) => `| ${code(id)} | ${cell(where)} |`);
  const edges = FACT_EDGES.map((e) => {
    const extra = [
      e.taskTypes ? `${e.taskTypes.join(', ')} runs` : '',
      e.normalize ? `roles by capability` : '',
      e.toleranceS ? `± ${e.toleranceS} s` : '',
      e.silentA ? `first end ${e.silentA.join('/')} says nothing` : '',
      e.silentB ? `second end ${e.silentB.join('/')} not compared` : '',
    ]
      .filter(Boolean)
      .join('; ');
    const checked = e.checkedBy === 'edge' ? 'the edge check' : e.checkedBy.replace(/^check /, '');
    return `| ${code(e.id)} | ${cell(e.fact)} | ${code(e.a)} | ${code(e.b)} | ${code(e.relation)}${extra ? ` (${cell(extra)})` : ''} | ${e.invariant} | ${e.rule} | ${cell(checked)} |`;
  });
  return [
    '| artifact | where it lives |',
    '|---|---|',
    ...artifacts,
    '',
    '| edge | fact | authoritative copy | other copy | relation | reported as | rule | compared by |',
    '|---|---|---|---|---|---|---|---|',
    ...edges,
  ].join('\n');
}
