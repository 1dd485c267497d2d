import type { IssueCandidate } from '@okstra/schemas/error-issue';
import { evidenceMarker, fingerprintMarker } from './render.js';

/** The fields of `gh issue list --json number,title,body,state,url,comments` okstra reads. */
export interface GhIssue {
  number: number;
  title?: string;
  body?: string | null;
  state?: string;
  url?: string;
  comments?: Array<{ body?: string | null }> | null;
}

/** The `gh` argv that lists candidate matches for a fingerprint (search narrows; our code decides). */
export function issueSearchArgs(repo: string, fp: string): string[] {
  return ['issue', 'list', '--repo', repo, '--state', 'all', '--search', `${fp} in:body`, '--json', 'number,title,body,state,url,comments', '--limit', '100'];
}

/**
 * The issue okstra itself filed for `fp`: one whose body carries the exact
 * fingerprint marker (search ranking is never trusted). Open issues win over
 * closed ones, then the lowest number.
 */
export function findMatch(fp: string, issues: readonly GhIssue[]): GhIssue | null {
  const marker = fingerprintMarker(fp);
  const hits = issues.filter((i) => typeof i.body === 'string' && i.body.includes(marker));
  hits.sort((a, b) => Number(isOpen(b)) - Number(isOpen(a)) || a.number - b.number);
  return hits[0] ?? null;
}

/**
 * Decide what to send (docs/error-issue.md "Matching"):
 * - no match → `create`;
 * - an open match whose body or a comment already carries this evidence digest → `skip`;
 * - an open match → `comment` on it;
 * - only a closed match → `create` (a regression; the body is unchanged).
 */
export function decide(match: GhIssue | null, digest: string): Pick<IssueCandidate, 'decision' | 'decisionReason' | 'match'> {
  if (!match) return { decision: 'create', decisionReason: 'no issue carries this fingerprint', match: null };
  const ref = { number: match.number, url: match.url ?? '', state: (match.state ?? '').toLowerCase() };
  if (!isOpen(match)) return { decision: 'create', decisionReason: `only closed issue #${match.number} carries this fingerprint`, match: ref };
  const marker = evidenceMarker(digest);
  const texts = [match.body ?? '', ...(match.comments ?? []).map((c) => c.body ?? '')];
  if (texts.some((t) => t.includes(marker)))
    return { decision: 'skip', decisionReason: `open issue #${match.number} already reports this evidence`, match: ref };
  return { decision: 'comment', decisionReason: `open issue #${match.number} carries this fingerprint`, match: ref };
}

function isOpen(issue: GhIssue): boolean {
  return (issue.state ?? '').toLowerCase() === 'open';
}
