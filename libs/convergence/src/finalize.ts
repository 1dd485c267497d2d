import { InputError } from '@okstra/core';
import type { FinalCounts, FinalFinding, FinalState, FinalVote, TerminalFindingStatus, WorkingState } from '@okstra/schemas/convergence';
import { FINAL_STATE_VERSION } from './seed-state.js';

/**
 * Materialize the terminal v1.3 final state of a working state whose main queue
 * is terminal (docs/convergence.md "Final state"): every finding with its text,
 * authors, status, reason and every vote it got (round order, then worker id),
 * accepted critic gaps as critic-sourced findings, every gap's decision and
 * votes, the roster standing and the counts. Pure and deterministic.
 * @throws InputError (exit 2) naming the first pending finding when the queue is not terminal.
 */
export function finalizeState(state: WorkingState, label = 'working state'): FinalState {
  const d = state.derived;
  const pending = d.findings.filter((f) => f.status === 'pending');
  if (!d.queueTerminal || pending.length > 0) {
    throw new InputError(
      `the working state is not terminal: ${pending.length} finding(s) still pending (first ${pending[0]?.id ?? '?'}); run the next round first`,
      { file: label, field: 'derived.queueTerminal' },
    );
  }
  const votes = new Map<string, FinalVote[]>();
  for (const r of state.rounds) {
    for (const w of r.results.workers) {
      for (const v of w.verdicts) {
        let list = votes.get(v.findingId);
        if (!list) votes.set(v.findingId, (list = []));
        const vote: FinalVote = { round: r.round, workerId: w.workerId, verdict: v.verdict, explanation: v.explanation };
        if (v.disagreeBasis !== undefined) vote.disagreeBasis = v.disagreeBasis;
        list.push(vote);
      }
    }
  }
  const seedById = new Map(state.seed.findings.map((f) => [f.id, f]));
  const gapById = new Map((state.criticBatch?.gaps ?? []).map((g) => [g.id, g]));
  const criticId = state.criticBatch?.criticWorkerId;
  const findings: FinalFinding[] = d.findings.map((f) => {
    // The queue is terminal (checked above), so every finding has a terminal status, a reason and a round.
    const common = { id: f.id, source: f.source, status: f.status as TerminalFindingStatus, reason: f.reason!, decidedInRound: f.decidedInRound! };
    if (f.source === 'critic') {
      const gap = gapById.get(f.id)!;
      return {
        ...common,
        title: gap.title,
        claim: gap.claim,
        evidence: gap.evidence,
        authors: [criticId!],
        votes: sortVotes(gap.votes.map((v) => ({ ...v, round: d.round }))),
      };
    }
    const seed = seedById.get(f.id)!;
    return { ...common, title: seed.title, claim: seed.claim, evidence: seed.evidence, authors: seed.authors, votes: sortVotes(votes.get(f.id) ?? []) };
  });
  const final: FinalState = {
    schemaVersion: FINAL_STATE_VERSION,
    kind: 'convergence-final-state',
    seedDigest: state.seedDigest,
    mode: state.seed.mode,
    roundLimit: state.seed.roundLimit,
    rounds: d.round,
    roster: d.workers,
    findings,
    criticApplied: state.criticBatch !== null,
    criticGaps: d.criticGaps.map((g) => {
      const gap = gapById.get(g.id)!;
      return { id: g.id, title: gap.title, decision: g.decision, votes: sortVotes(gap.votes.map((v) => ({ ...v, round: d.round }))) };
    }),
    counts: countFindings(findings),
  };
  for (const key of ['taskKey', 'taskType', 'seq'] as const) if (state.seed[key] !== undefined) final[key] = state.seed[key];
  return final;
}

/** The `counts` of a final state: totals by status and by source. */
export function countFindings(findings: readonly Pick<FinalFinding, 'status' | 'source'>[]): FinalCounts {
  const counts: FinalCounts = { total: findings.length, agreed: 0, refuted: 0, unverifiable: 0, contested: 0, analyser: 0, critic: 0 };
  for (const f of findings) {
    counts[f.status] += 1;
    counts[f.source] += 1;
  }
  return counts;
}

function sortVotes<T extends { round: number; workerId: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => a.round - b.round || (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : 0));
}
