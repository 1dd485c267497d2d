/**
 * The evidence ledger of audit sidecars (docs/contracts.md §7 "Audit sidecars";
 * docs/worker-audit-check.md): the prompt marker that makes the ledger
 * required, the backticked `path:line` citations of a worker result, and the
 * rows of the sidecar's `## Evidence read` table.
 */

import { isHostName } from '../hosts.js';

/** The line a prompt carries when the evidence ledger is required (exact, on a line of its own). */
export const EVIDENCE_LEDGER_MARKER = '<!-- okstra:evidence-ledger required-v1 -->';

/** True when `promptText` has the required-v1 marker as a whole line (surrounding blanks allowed). */
export function requiresEvidenceLedger(promptText: string): boolean {
  return promptText.split(/\r?\n/).some((line) => line.trim() === EVIDENCE_LEDGER_MARKER);
}

/**
 * A citation (docs/worker-audit-check.md "Citations"): inline code whose whole
 * text is `<path>:<line>`, `<path>:<line>:<col>` or a range of those
 * (`<path>:<line>-<line>`, `<path>:<line>:<col>-<line>:<col>`); lines and
 * columns are positive integers. The path has no blanks, no backtick, no
 * `://`, and names a file: it contains a `/`, or it is dotted and not a host
 * name (`schema.sql`, but not `db.internal` or `127.0.0.1`: `isHostName`), or
 * it is a well-known extensionless file (`Makefile`, `Dockerfile`, …).
 * `localhost:3000`, `db.internal:5432`, `127.0.0.1:8080` are host:port, and
 * `` `a:1` `` in prose is not taken for a file.
 */
const CITATION = /^(?!.*:\/\/)([^\s`:]+):([1-9][0-9]*)(?::[1-9][0-9]*)?(?:-[1-9][0-9]*(?::[1-9][0-9]*)?)?$/;

/** Extensionless file names that are cited as `Makefile:12` (compared case-sensitively, as on disk). */
export const EXTENSIONLESS_FILES: ReadonlySet<string> = new Set([
  'Makefile',
  'GNUmakefile',
  'Dockerfile',
  'Containerfile',
  'Jenkinsfile',
  'Procfile',
  'Gemfile',
  'Rakefile',
  'Vagrantfile',
  'Justfile',
  'justfile',
  'Brewfile',
  'Pipfile',
  'Tiltfile',
  'Earthfile',
  'Caddyfile',
  'Snakefile',
  'BUILD',
  'WORKSPACE',
  'CODEOWNERS',
  'LICENSE',
  'README',
]);

/** A code span (CommonMark): a run of backticks, then text, then a run of as many backticks, neither run longer. */
const INLINE_CODE = /(?<!`)(`+)(?!`)([^\n]*?[^`\n])\1(?!`)/g;

/** True when `text` (the inside of one inline code span) is a `path:line` citation. */
export function isCitation(text: string): boolean {
  const m = CITATION.exec(text);
  if (!m) return false;
  const path = m[1]!;
  if (path.includes('/')) return true;
  if (path.includes('.')) return !isHostName(path);
  return EXTENSIONLESS_FILES.has(path);
}

/**
 * Every distinct backticked `path:line` citation of a worker result, in order
 * of first appearance. Text inside fenced code blocks is not prose and is skipped.
 */
export function extractCitations(markdown: string): string[] {
  const seen = new Set<string>();
  for (const line of outsideFences(markdown)) {
    for (const m of line.matchAll(INLINE_CODE)) {
      const text = m[2]!.trim();
      if (isCitation(text)) seen.add(text);
    }
  }
  return [...seen];
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

/**
 * The lines of `markdown` outside fenced code blocks (CommonMark; the audit's one fence reader, also behind invariant 21's `withoutCode`): a fence of three or more backticks or tildes
 * (a backtick fence's info string holds no backtick, else the line is a code span) runs to a closing fence of the
 * same character at least as long, or to the end — so a ```` ```` ```` fence quoting a ```` ``` ```` block stays
 * code. A fence opens at up to three spaces of indentation, or up to three past the content column of the list
 * item it follows (a fence inside `1. step` indented four spaces is still a fence).
 */
export function outsideFences(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  let listContent = 0;
  for (const line of markdown.split(/\r?\n/)) {
    if (fence !== null) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      if (close && close[0] === fence[0] && close.length >= fence.length) fence = null;
      continue;
    }
    const indent = /^ */.exec(line)![0].length;
    const open = /^ *(`{3,}|~{3,})(.*)$/.exec(line);
    if (open && indent <= listContent + 3 && !(open[1]![0] === '`' && open[2]!.includes('`'))) {
      fence = open[1]!;
      continue;
    }
    const item = /^( *(?:[-*+]|[0-9]{1,9}[.)]) +)\S/.exec(line);
    if (item) listContent = item[1]!.length;
    else if (line.trim() !== '' && indent < listContent) listContent = 0;
    out.push(line);
  }
  return out;
}
