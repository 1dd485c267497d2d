import { appendAll, stableStringify } from '@okstra/core';
import { FinalState, type FinalFinding, type FindingReason, type PassVote } from '@okstra/schemas/convergence';
import { formatJsonPath } from '@okstra/state-file';
import { gapDecision } from './critic-gaps.js';
import { decide, standingVotes } from './decision.js';
import { countFindings } from './finalize.js';
import type { ValidationReport } from './replay.js';

const REASONS_BY_STATUS: Record<string, ReadonlyArray<FindingReason>> = {
  agreed: ['corroborated', 'consensus', 'round-limit', 'no-eligible-reviewer', 'critic-accepted'],
  refuted: ['consensus', 'round-limit', 'no-eligible-reviewer'],
  unverifiable: ['consensus', 'round-limit', 'no-eligible-reviewer'],
  contested: ['round-limit', 'no-eligible-reviewer'],
};

/**
 * `validate --kind final`, also called by okstra-run-audit (docs/convergence.md
 * "Validation"): schema v1.3; every finding terminal with a reason its status
 * allows; ids unique; `rounds` within `roundLimit` and every `decidedInRound`
 * within `rounds`; corroborated findings decided in round 0; no vote from a
 * finding's own author or from a worker outside the roster, none from a round
 * after `rounds`; critic-sourced findings exactly the accepted gaps; `counts`
 * equal to a recount. Takes any parsed JSON value; never throws.
 */
export function validateFinalState(state: unknown): ValidationReport {
  const parsed = FinalState.safeParse(state);
  if (!parsed.success) {
    const version = (state as { schemaVersion?: unknown } | null)?.schemaVersion;
    if (version !== undefined && version !== '1.3') {
      return { ok: false, errors: [`schemaVersion: unsupported schemaVersion ${JSON.stringify(version)} (supported: 1.3)`] };
    }
    const issue = parsed.error.issues[0];
    return { ok: false, errors: [`${formatJsonPath(issue?.path ?? [])}: ${issue?.message ?? 'does not match its schema'}`] };
  }
  const s = parsed.data;
  const errors: string[] = [];
  // A retry-only round may follow the limit (docs/convergence.md "Retry budget").
  if (s.rounds > s.roundLimit + 1) errors.push(`rounds: ${s.rounds} rounds exceed the round limit ${s.roundLimit} (plus one retry-only round)`);
  const roster = new Map(s.roster.map((w) => [w.workerId, w]));
  const analysers = s.roster.filter((w) => w.role === 'analyser').map((w) => w.workerId);
  const ids = new Set<string>();
  s.findings.forEach((f, i) => {
    const at = `findings[${i}]`;
    if (ids.has(f.id)) errors.push(`${at}.id: duplicate finding id ${f.id}`);
    ids.add(f.id);
    if (!REASONS_BY_STATUS[f.status].includes(f.reason)) {
      errors.push(`${at}.reason: finding ${f.id} is ${f.status} with reason ${JSON.stringify(f.reason)}`);
    }
    if (f.decidedInRound > s.rounds) {
      errors.push(`${at}.decidedInRound: finding ${f.id} decided in round ${f.decidedInRound}, the state has ${s.rounds} round(s)`);
    }
    if (f.reason === 'corroborated' && f.decidedInRound !== 0) errors.push(`${at}.decidedInRound: corroborated finding ${f.id} must be decided in round 0`);
    if ((f.source === 'critic') !== (f.reason === 'critic-accepted'))
      errors.push(`${at}.source: finding ${f.id} is ${f.source}-sourced with reason ${f.reason}`);
    for (const a of f.authors) if (!roster.has(a)) errors.push(`${at}.authors: author ${a} of ${f.id} is not in the roster`);
    f.votes.forEach((v, j) => {
      if (f.authors.includes(v.workerId)) errors.push(`${at}.votes[${j}]: finding ${f.id} has a vote from its own author ${v.workerId}`);
      if (!roster.has(v.workerId)) errors.push(`${at}.votes[${j}]: vote from ${v.workerId}, which is not in the roster`);
      if (v.round > s.rounds) errors.push(`${at}.votes[${j}]: vote from round ${v.round}, the state has ${s.rounds} round(s)`);
      else if (f.source === 'analyser' && v.round > f.decidedInRound)
        errors.push(`${at}.votes[${j}]: vote from round ${v.round}, after ${f.id} was decided in round ${f.decidedInRound}`);
    });
    appendAll(errors, redecide(f, at, { analysers, roster, roundLimit: s.roundLimit }));
  });
  s.criticGaps.forEach((g, i) => {
    const expected = gapDecision(g.votes.map((v) => v.verdict));
    if (g.decision !== expected) errors.push(`criticGaps[${i}].decision: gap ${g.id} is ${g.decision}, but its votes decide ${expected}`);
  });
  const accepted = new Set(s.criticGaps.filter((g) => g.decision === 'accepted').map((g) => g.id));
  const criticSourced = new Set(s.findings.filter((f) => f.source === 'critic').map((f) => f.id));
  if (stableStringify([...accepted].sort()) !== stableStringify([...criticSourced].sort())) {
    errors.push('criticGaps: the accepted gaps and the critic-sourced findings differ');
  }
  if (!s.criticApplied && s.criticGaps.length > 0) errors.push('criticApplied: false, but critic gaps are recorded');
  const recount = countFindings(s.findings);
  for (const key of Object.keys(recount) as (keyof typeof recount)[]) {
    if (s.counts[key] !== recount[key]) errors.push(`counts.${key}: ${s.counts[key]}, but the findings count ${recount[key]}`);
  }
  return { ok: errors.length === 0, errors };
}

/**
 * Re-decide one final finding from its votes with the reduction's own decision
 * function (docs/convergence.md "Validation"): each worker's latest vote stands
 * ({@link standingVotes}); its decision must be the stored status. A corroborated
 * finding has no votes and every analyser among its authors; `consensus` needs a
 * vote from every non-author analyser still in the roster at the decision;
 * `no-eligible-reviewer` needs every non-author analyser dropped by then;
 * `round-limit` needs the decision at or after the limit.
 */
function redecide(f: FinalFinding, at: string, ctx: { analysers: string[]; roster: Map<string, FinalState['roster'][number]>; roundLimit: number }): string[] {
  const errors: string[] = [];
  if (f.reason === 'corroborated') {
    if (f.votes.length > 0) errors.push(`${at}.votes: corroborated finding ${f.id} has votes`);
    const missing = ctx.analysers.find((a) => !f.authors.includes(a));
    if (missing) errors.push(`${at}.reason: finding ${f.id} is corroborated, but analyser ${missing} is not among its authors`);
    if (f.status !== 'agreed') errors.push(`${at}.status: corroborated finding ${f.id} is ${f.status}, not agreed`);
    return errors;
  }
  // Oldest round first, so standingVotes keeps each worker's latest (the later of two in one round, as listed).
  const byRound: PassVote[] = f.votes.map((v) => ({ workerId: v.workerId, verdict: v.verdict, round: v.round })).sort((a, b) => a.round - b.round);
  const standing = standingVotes({ currentVotes: [], priorVotes: byRound });
  const voted = new Set(standing.map((v) => v.workerId));
  const expected =
    f.source === 'critic' ? (gapDecision(f.votes.map((v) => v.verdict)) === 'accepted' ? 'agreed' : 'not accepted') : decide(standing.map((v) => v.verdict));
  if (expected !== f.status) errors.push(`${at}.status: finding ${f.id} is ${f.status}, but its votes decide ${expected}`);
  if (f.source === 'critic') return errors;
  const stillIn = (w: string) => {
    const dropped = ctx.roster.get(w)?.droppedInRound ?? null;
    return dropped === null || dropped > f.decidedInRound;
  };
  const reviewers = ctx.analysers.filter((a) => !f.authors.includes(a));
  if (f.reason === 'consensus') {
    const silent = reviewers.find((w) => stillIn(w) && !voted.has(w));
    if (silent) errors.push(`${at}.reason: finding ${f.id} is decided by consensus, but reviewer ${silent} has no vote on it`);
  }
  if (f.reason === 'no-eligible-reviewer') {
    const left = reviewers.find(stillIn);
    if (left) errors.push(`${at}.reason: finding ${f.id} has reason no-eligible-reviewer, but reviewer ${left} was still in the roster`);
  }
  if (f.reason === 'round-limit' && f.decidedInRound < ctx.roundLimit)
    errors.push(`${at}.reason: finding ${f.id} has reason round-limit, but was decided in round ${f.decidedInRound} (limit ${ctx.roundLimit})`);
  return errors;
}
