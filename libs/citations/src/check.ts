/**
 * The citation checker (docs/worker-audit-check.md "Citations checked"): for
 * every citation of a worker's Markdown, whether the file exists in the
 * project, the lines are in it, attached code matches them, and the worker's
 * own tools read it.
 */
import type { WorkerEvidence } from '@okstra/schemas/worker-evidence';
import { citedIn } from './cited.js';
import { quoteMatches } from './quotes.js';
import { projectRelative, type SourceTree } from './source-tree.js';

/** Whether the worker's own tools reached the cited file: opened it, searched it (or a directory holding it), neither, or no record. */
export type ReadStatus = 'read' | 'searched' | 'not-read' | 'unknown';

/** Why a citation does not hold; null when it does. */
export type CitationProblem = 'outside-project' | 'missing' | 'not-a-file' | 'out-of-range' | 'quote-mismatch' | null;

/** One citation, checked. */
export interface CitationReport {
  citation: string;
  /** The project file it names (project-relative), null when none. A bare name resolves by a unique path suffix. */
  file: string | null;
  lines: [number, number];
  exists: boolean;
  /** The cited lines are in the file; null when the file does not exist. */
  inRange: boolean | null;
  /** Attached code: `match`, `mismatch`, or `none` attached (or nothing to compare against). */
  quote: 'match' | 'mismatch' | 'none';
  read: ReadStatus;
  problem: CitationProblem;
  /** exists, in range, and no attached code that does not match. Was-read is reported, never part of holding. */
  holds: boolean;
}

/** What citations are checked against: the project's tree, and the worker's evidence file when it has one. */
export interface CitationContext {
  root: string;
  tree: SourceTree;
  /** The worker's evidence file (cli-wrapper workers); null when there is none: `read` is then `unknown`. */
  evidence: WorkerEvidence | null;
}

/** Check every citation of `markdown` (in order of first appearance). */
export function checkCitations(markdown: string, ctx: CitationContext): CitationReport[] {
  return citedIn(markdown).map((c) => {
    const base = { citation: c.citation, lines: [c.start, c.end] as [number, number] };
    const rel = projectRelative(ctx.root, c.path);
    if (rel === null) return { ...base, ...failed('outside-project') };
    const found = candidates(ctx.tree, rel);
    if ('problem' in found) return { ...base, ...failed(found.problem) };
    // Of several files a bare name may be, the first that holds (else the first in range, else the first).
    const judged = found.files.map(([file, lines]) => {
      const read = wasRead(ctx.evidence, file);
      if (c.end > lines.length) return { file, exists: true, inRange: false, quote: 'none' as const, read, problem: 'out-of-range' as const, holds: false };
      const quote = c.quotes.length === 0 ? 'none' : c.quotes.every((q) => quoteMatches(q, lines, c.start, c.end)) ? 'match' : 'mismatch';
      return {
        file,
        exists: true,
        inRange: true,
        quote,
        read,
        problem: quote === 'mismatch' ? ('quote-mismatch' as const) : null,
        holds: quote !== 'mismatch',
      };
    });
    const best = judged.find((j) => j.holds) ?? judged.find((j) => j.inRange) ?? judged[0]!;
    return { ...base, ...best } as CitationReport;
  });
}

function failed(problem: Exclude<CitationProblem, null>) {
  return { file: null, exists: false, inRange: null, quote: 'none' as const, read: 'unknown' as const, problem, holds: false };
}

/**
 * The files a project-relative path may name: itself, or — for a path that is not a file of the
 * project — every project file whose path ends in `/<path>` (workers cite `timeout-sweeper.ts:23`
 * for `src/payments/refunds/timeout-sweeper.ts`; a name two directories hold is checked against both).
 */
function candidates(tree: SourceTree, rel: string): { files: Array<[string, string[]]> } | { problem: Exclude<CitationProblem, null> } {
  const direct = tree.lookup(rel);
  if (direct.kind === 'file') return { files: [[rel, direct.lines]] };
  if (direct.kind === 'outside') return { problem: 'outside-project' };
  if (direct.kind === 'not-a-file') return { problem: 'not-a-file' };
  const suffix = `/${rel}`;
  const files: Array<[string, string[]]> = [];
  for (const f of tree.files()) {
    if (!f.endsWith(suffix)) continue;
    const hit = tree.lookup(f);
    if (hit.kind === 'file') files.push([f, hit.lines]);
  }
  return files.length > 0 ? { files } : { problem: 'missing' };
}

/**
 * Whether the worker's evidence shows it reached `file`: `read` when an entry opened it;
 * `searched` when a search ran over it or over a directory holding it; `not-read` otherwise
 * (a listing of names is not reading); `unknown` without an evidence file.
 */
export function wasRead(evidence: WorkerEvidence | null, file: string): ReadStatus {
  if (!evidence) return 'unknown';
  if (evidence.entries.some((e) => e.how === 'read' && e.path === file)) return 'read';
  const covers = (dir: string) => dir === '.' || file === dir || file.startsWith(`${dir}/`);
  if (evidence.entries.some((e) => e.how === 'searched' && covers(e.path))) return 'searched';
  return 'not-read';
}

/** The per-worker figures `worker-audit-check --json` reports. */
export interface CitationSummary {
  cited: number;
  exist: number;
  inRange: number;
  /** Citations with attached code, and how many of those match. */
  quoted: number;
  match: number;
  /** Read or searched by the worker's own tools; `unknown` without an evidence file. */
  read: number | 'unknown';
  holding: number;
}

export function summarize(reports: readonly CitationReport[], evidence: WorkerEvidence | null): CitationSummary {
  const count = (p: (r: CitationReport) => boolean) => reports.filter(p).length;
  return {
    cited: reports.length,
    exist: count((r) => r.exists),
    inRange: count((r) => r.inRange === true),
    quoted: count((r) => r.quote !== 'none'),
    match: count((r) => r.quote === 'match'),
    read: evidence ? count((r) => r.read === 'read' || r.read === 'searched') : 'unknown',
    holding: count((r) => r.holds),
  };
}

/** A citation whose file does not exist or whose lines are not in it: the worker-audit-check failure. */
export function isInvented(r: CitationReport): boolean {
  return r.problem === 'missing' || r.problem === 'out-of-range' || r.problem === 'outside-project' || r.problem === 'not-a-file';
}
