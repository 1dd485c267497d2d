import type { PlanBodyVerification } from '@okstra/schemas/implementation-planning';

/** The heading of the final report's plan-body verification section (the sample report's, `## 6. Plan-body Verification`). */
export const VERIFICATION_HEADING = '## 6. Plan-body Verification';

/**
 * The Markdown of the final report's plan-body verification section, rendered from data.json's
 * `planBodyVerification` (the report's SSOT): the `Result:` line with its contributors and one row per item
 * with each worker's verdict (`DISAGREE (<kind>, <fixability>)`). Pure.
 */
export function renderVerificationSection(pbv: Pick<PlanBodyVerification, 'result' | 'contributors' | 'planItems'>): string {
  const contributors = pbv.contributors ?? [];
  const lines = [
    VERIFICATION_HEADING,
    '',
    `Result: **${pbv.result ?? 'not run'}** (contributors: ${contributors.length > 0 ? contributors.join(', ') : 'none'})`,
    '',
  ];
  lines.push('| Item | Verdicts |', '|---|---|');
  for (const item of pbv.planItems) {
    const votes = item.verdicts.map((v) => {
      const detail = v.verdict === 'DISAGREE' ? ` (${[v.breakageKind, v.fixability].filter(Boolean).join(', ')})` : '';
      return `${v.workerId}: ${v.verdict}${detail}`;
    });
    lines.push(`| ${item.id} | ${votes.length > 0 ? votes.join('; ') : '—'} |`);
  }
  return lines.join('\n') + '\n';
}

/**
 * `markdown` with its plan-body verification section (a level-2 heading `6.` … `Verification`, up to the next
 * level-2 heading) replaced by `section`, or `section` appended when there is none. Line ends follow the text's.
 */
export function replaceVerificationSection(markdown: string, section: string): string {
  const eol = markdown.includes('\r\n') ? '\r\n' : '\n';
  const text = markdown.replace(/\r\n/g, '\n');
  const start = /^##[ \t]+6\.[^\n]*Verification[^\n]*$/im.exec(text);
  let out: string;
  if (!start) out = `${text.replace(/\n*$/, '\n')}\n${section}`;
  else {
    const rest = text.slice(start.index + start[0].length);
    const next = /^##[ \t]/m.exec(rest);
    const tail = next ? rest.slice(next.index) : '';
    out = `${text.slice(0, start.index)}${section}${tail ? `\n${tail}` : ''}`;
  }
  return eol === '\n' ? out : out.replace(/\n/g, eol);
}
