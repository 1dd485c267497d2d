import type { ErrorIssuePlan, IssueCandidate, IssueGate } from '@okstra/schemas/error-issue';
import { clusterClass, passesGate, type Cluster } from './cluster.js';
import type { IdentitySet } from './identities.js';
import { lastGate } from './last-gate.js';
import { decide, findMatch, type GhIssue } from './match.js';
import { evidenceDigest, renderIssue } from './render.js';

/** A candidate before matching: rendered, anonymized, gate-checked. */
export interface DraftCandidate {
  id: string;
  classification: IssueCandidate['classification'];
  signals: Record<string, number>;
  counts: { records: number; runs: number; projects: number };
  evidenceDigest: string;
  title: string;
  body: string;
  commentBody: string;
}

/**
 * Apply the quantitative gate and the classification, and render every
 * okstra-defect cluster that passes as a draft candidate (docs/error-issue.md).
 * A candidate whose rendering the last gate refuses is dropped (and counted),
 * never sent: fail closed.
 */
export function draftCandidates(
  clusters: readonly Cluster[],
  gate: IssueGate,
  identities: IdentitySet,
): {
  summaries: ErrorIssuePlan['clusters'];
  drafts: DraftCandidate[];
  refusedByGate: number;
} {
  const summaries: ErrorIssuePlan['clusters'] = [];
  const drafts: DraftCandidate[] = [];
  let refusedByGate = 0;
  for (const c of clusters) {
    const classification = clusterClass(c);
    const passed = passesGate(c, gate);
    const isCandidate = passed && classification === 'okstra-defect';
    summaries.push({
      fingerprint: c.fingerprint,
      classification,
      records: c.records,
      runs: c.runs.size,
      projects: c.projects.size,
      passedGate: passed,
      candidate: false,
    });
    if (!isCandidate) continue;
    const signals = Object.fromEntries(Object.entries(c.signals).sort(([a], [b]) => (a < b ? -1 : 1))) as Record<string, number>;
    const rendered = renderIssue(c, classification, signals);
    if (lastGate(rendered, identities).length > 0) {
      refusedByGate++;
      continue;
    }
    summaries[summaries.length - 1]!.candidate = true;
    drafts.push({
      id: c.fingerprint,
      classification,
      signals,
      counts: { records: c.records, runs: c.runs.size, projects: c.projects.size },
      evidenceDigest: evidenceDigest(c, classification),
      ...rendered,
    });
  }
  return { summaries, drafts, refusedByGate };
}

/** Decide a draft against the issues `gh` listed for it, or mark it unchecked (`issues` null). */
export function decideCandidate(draft: DraftCandidate, issues: readonly GhIssue[] | null): IssueCandidate {
  if (issues === null) {
    return {
      ...draft,
      decision: 'create',
      decisionReason: 'matching unchecked (gh unavailable): submit refuses until plan is re-run with gh',
      match: null,
      submitted: null,
    };
  }
  return { ...draft, ...decide(findMatch(draft.id, issues), draft.evidenceDigest), submitted: null };
}
