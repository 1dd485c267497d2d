import { stableStringify } from '@okstra/core';
import { FinalState, FindingReason } from '@okstra/schemas/convergence';
import { formatJsonPath } from '@okstra/state-file';
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
  if (s.rounds > s.roundLimit) errors.push(`rounds: ${s.rounds} rounds exceed the round limit ${s.roundLimit}`);
  const roster = new Set(s.roster.map((w) => w.workerId));
  const ids = new Set<string>();
  s.findings.forEach((f, i) => {
    const at = `findings[${i}]`;
    if (ids.has(f.id)) errors.push(`${at}.id: duplicate finding id ${f.id}`);
    ids.add(f.id);
    if (f.status === 'pending') {
      errors.push(`${at}.status: finding ${f.id} is not terminal (pending)`);
      return;
    }
    if (f.reason === null || !REASONS_BY_STATUS[f.status].includes(f.reason)) {
      errors.push(`${at}.reason: finding ${f.id} is ${f.status} with reason ${JSON.stringify(f.reason)}`);
    }
    if (f.decidedInRound === null || f.decidedInRound > s.rounds) {
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
    });
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
