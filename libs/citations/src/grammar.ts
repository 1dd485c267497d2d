/**
 * The citation grammar (docs/worker-audit-check.md "Citations"): which inline
 * code spans of a worker's Markdown are `path:line` citations, and the one
 * CommonMark fence reader the audit uses. One home for the evidence-ledger
 * rule (libs/audit-rules), the citation checker (./check.ts) and invariant
 * 21's `withoutCode`.
 */

import { isHostName } from './hosts.js';

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
 * The lines of `markdown` outside fenced code blocks (CommonMark; the audit's one fence reader, also behind invariant 21's `withoutCode`): a fence of three or more backticks or tildes
 * (a backtick fence's info string holds no backtick, else the line is a code span) runs to a closing fence of the
 * same character at least as long, or to the end — so a ```` ```` ```` fence quoting a ```` ``` ```` block stays
 * code. A fence opens at up to three spaces of indentation, or up to three past the content column of the list
 * item it follows (a fence inside `1. step` indented four spaces is still a fence).
 */
export function outsideFences(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  return proseLineIndexes(lines).map((i) => lines[i]!);
}

/** The indexes of the lines of `lines` that {@link outsideFences} keeps, in order. */
export function proseLineIndexes(lines: readonly string[]): number[] {
  const out: number[] = [];
  let fence: string | null = null;
  let listContent = 0;
  for (const [i, line] of lines.entries()) {
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
    out.push(i);
  }
  return out;
}
