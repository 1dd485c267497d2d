import type { FindingStatus, Verdict } from '@okstra/schemas/convergence';

/**
 * How the view marks each vote and each finding status. The CSS and the legend are generated from these two
 * tables, and the markup uses the same keys as class names (`vote disagree`, `finding contested`), so a colour
 * cannot style a class the page never carries (docs/convergence.md "view").
 */
export const VOTE_STYLE: Readonly<Record<Verdict, { color: string; mark: string; meaning: string }>> = {
  agree: { color: '#1a7f37', mark: '✓', meaning: 'the finding holds (SURVIVES / AGREE)' },
  disagree: { color: '#c62828', mark: '✗', meaning: 'the finding does not hold (REFUTED / DISAGREE)' },
  supplement: { color: '#1f5fbf', mark: '+', meaning: 'holds with a caveat (SURVIVES-WITH-CAVEAT / SUPPLEMENT)' },
  unverifiable: { color: '#8a5a00', mark: '?', meaning: 'could not be checked (UNVERIFIABLE)' },
};

export const STATUS_STYLE: Readonly<Record<FindingStatus, { background: string; meaning: string }>> = {
  contested: { background: '#fbd5d5', meaning: 'the workers still disagree at the round limit' },
  pending: { background: '#fff1c2', meaning: 'not decided yet' },
  unverifiable: { background: '#f1e4c8', meaning: 'nobody could check it' },
  refuted: { background: '#e4e4e4', meaning: 'the workers found it does not hold' },
  agreed: { background: '#d7f2dc', meaning: 'the workers confirmed it' },
};

/** Display order: contested first, then pending, then the rest. */
export const STATUS_ORDER = Object.keys(STATUS_STYLE) as FindingStatus[];

export function viewCss(): string {
  const votes = Object.entries(VOTE_STYLE).map(
    ([v, s]) => `.vote.${v} summary,.vote.${v}>.mark,.chip.${v}{color:${s.color}}.chip.${v}{border-color:${s.color}}`,
  );
  const statuses = Object.entries(STATUS_STYLE).map(([st, s]) => `tr.finding.${st} th[scope=row],.total.${st},.swatch.${st}{background:${s.background}}`);
  return [
    'body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}',
    'table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}',
    'thead th{background:#f4f4f4}.workers{font-weight:normal;font-size:12px}.w{margin-right:.5em}.w em{color:#a40}',
    '.w.timeout,.w.error,.w.not-run{color:#b00}.fid{font-family:monospace;font-weight:bold}',
    '.status{font-weight:normal;font-size:12px;color:#444}',
    '.vote{margin:.15em 0}.vote summary{cursor:pointer;font-weight:600}.vote.missing{color:#b00}.vote.retry summary,.vote.retry{font-style:italic}',
    '.basis{white-space:pre-wrap;font-size:12px;max-width:40em;color:#333;font-weight:normal}.none{color:#aaa}',
    '.totals{display:flex;flex-wrap:wrap;gap:.5em;margin:.5em 0 1em;padding:0}.total{list-style:none;padding:.3em .7em;border:1px solid #bbb;border-radius:4px}',
    '.total b{font-size:18px;margin-right:.3em}.legend{font-size:12px;margin:0 0 1em}.legend li{display:inline-block;margin-right:1.2em}',
    '.swatch{display:inline-block;width:.9em;height:.9em;border:1px solid #999;vertical-align:middle;margin-right:.3em}',
    '.chip{display:inline-block;border:1px solid;border-radius:3px;padding:0 .3em;margin:0 .2em .2em 0;font-size:12px}',
    ...votes,
    ...statuses,
  ].join('\n');
}

/** The legend: each vote's mark and colour, each status's background. */
export function legendHtml(): string {
  const votes = Object.entries(VOTE_STYLE).map(([v, s]) => `<li><span class="chip ${v}">${s.mark} ${v}</span> ${escHtml(s.meaning)}</li>`);
  const statuses = STATUS_ORDER.map((st) => `<li><span class="swatch ${st}"></span>${st}: ${escHtml(STATUS_STYLE[st].meaning)}</li>`);
  return `<section class="legend" aria-label="legend"><ul><li><b>votes</b></li>${votes.join('')}</ul><ul><li><b>finding status</b></li>${statuses.join('')}</ul></section>`;
}

export function escHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
