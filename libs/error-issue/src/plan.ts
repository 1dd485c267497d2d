import type { ErrorIssuePlan, IssueCandidate, IssueGate } from '@okstra/schemas/error-issue';
import { clusterClass, passesGate, type Cluster } from './cluster.js';
import type { IdentitySet } from './identities.js';
import { lastGate, type GateProblem } from './last-gate.js';
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

/** A candidate the last gate refused at plan time: which cluster, and which detectors on which field. */
export interface DroppedCandidate {
  fingerprint: string;
  /** The cluster's anonymized source and kind (`run-audit` / `worker-not-terminal`, `okstra-team` / `E_LOCK`). */
  source: string;
  kind: string;
  problems: GateProblem[];
}

/** The stderr line for a dropped candidate (docs/error-issue.md "Rendering"). */
export function describeDropped(d: DroppedCandidate): string {
  return `candidate ${d.fingerprint} (${d.source}${d.kind ? ` ${d.kind}` : ''}) dropped: the last gate refused ${d.problems.map((p) => `${p.field}: ${p.detector}`).join(', ')}`;
}

/**
 * Apply the quantitative gate and the classification, and render every
 * okstra-defect cluster that passes as a draft candidate (docs/error-issue.md).
 * A candidate whose rendering the last gate refuses is dropped (and reported
 * with its cluster and detectors), never sent: fail closed.
 */
export function draftCandidates(
  clusters: readonly Cluster[],
  gate: IssueGate,
  identities: IdentitySet,
): {
  summaries: ErrorIssuePlan['clusters'];
  drafts: DraftCandidate[];
  dropped: DroppedCandidate[];
} {
  const summaries: ErrorIssuePlan['clusters'] = [];
  const drafts: DraftCandidate[] = [];
  const dropped: DroppedCandidate[] = [];
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
    const problems = lastGate(rendered, identities);
    if (problems.length > 0) {
      dropped.push({ fingerprint: c.fingerprint, source: c.source, kind: c.kind, problems });
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
  return { summaries, drafts, dropped };
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
