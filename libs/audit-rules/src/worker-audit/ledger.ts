/**
 * The evidence ledger of audit sidecars (docs/contracts.md §7 "Audit sidecars";
 * docs/worker-audit-check.md): the prompt marker that makes the ledger
 * required, the backticked `path:line` citations of a worker result, and the
 * rows of the sidecar's `## Evidence read` table.
 */

import { isCitation, outsideFences } from '@okstra/citations';

// The citation grammar and the fence reader live in libs/citations (one home, shared with the citation checker).
export { EXTENSIONLESS_FILES, extractCitations, isCitation, outsideFences } from '@okstra/citations';

/** The line a prompt carries when the evidence ledger is required (exact, on a line of its own). */
export const EVIDENCE_LEDGER_MARKER = '<!-- okstra:evidence-ledger required-v1 -->';

/** True when `promptText` has the required-v1 marker as a whole line (surrounding blanks allowed). */
export function requiresEvidenceLedger(promptText: string): boolean {
  return promptText.split(/\r?\n/).some((line) => line.trim() === EVIDENCE_LEDGER_MARKER);
}

/**
 * The first cells of the `## Evidence read` table rows of a sidecar: the
 * backticked `path:line` of each row (header and `---` separator rows are
 * not rows). The section runs to the next heading of level ≤ 2. Cells that
 * are not a backticked citation are ignored.
 */
export function evidenceReadRows(sidecar: string): string[] {
  const rows: string[] = [];
  let inSection = false;
  for (const line of outsideFences(sidecar)) {
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      if (heading[1]!.length <= 2) inSection = /^evidence read$/i.test(heading[2]!.trim());
      continue;
    }
    if (!inSection || !line.trim().startsWith('|')) continue;
    const first = line.trim().replace(/^\|/, '').split('|')[0]!.trim();
    const code = /^`([^`]+)`$/.exec(first);
    if (code && isCitation(code[1]!.trim())) rows.push(code[1]!.trim());
  }
  return rows;
}

/** True when the text has a `## 0. Reading Confirmation` heading (any level, any case). */
export function hasReadingConfirmationHeading(markdown: string): boolean {
  return outsideFences(markdown).some((line) => /^\s{0,3}#{1,6}\s+0\.\s*Reading Confirmation\b/i.test(line));
}
