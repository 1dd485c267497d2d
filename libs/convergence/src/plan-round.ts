import { InputError } from '@okstra/core';
import type { FindingStanding, PassVote, RoundBatch, RoundPlan, WorkingState } from '@okstra/schemas/convergence';
import { standingVotes } from './decision.js';
import { activeAnalysers, indexSeed, type SeedIndex } from './seed-state.js';

type Revote = NonNullable<RoundBatch['revotes']>[number];

/**
 * The next round's plan for a working state (docs/convergence.md "Planning"):
 * every pending finding goes to each active analyser that is not its author and
 * has not voted in the finding's current pass; a worker gets at most one batch,
 * findings in seed order, batches sorted by worker id. A worker with one failure
 * is planned as usual (`priorFailures: 1`: this batch is its one retry); a worker
 * with two is out of the roster. A finding in a re-vote (pass > 1) is listed in its
 * batch's `revotes` with the other reviewers' latest votes and bases. Past the round
 * limit only retry batches can be planned (the retry-only round). No pending finding
 * → `queueTerminal: true`, no batches. Pure: same state → same plan.
 * @throws InputError when the state is past its round limit with a batch that is not
 *   a retry, or a pending finding has no reviewer left (both impossible for a state
 *   `apply-round` wrote).
 */
export function planRound(state: WorkingState, index: SeedIndex = indexSeed(state.seed, criticIndex(state)), label = 'working state'): RoundPlan {
  const d = state.derived;
  const plan: RoundPlan = {
    schemaVersion: '1.0',
    kind: 'round-plan',
    seedDigest: state.seedDigest,
    mode: state.seed.mode,
    round: d.round + 1,
    roundLimit: state.seed.roundLimit,
    queueTerminal: d.queueTerminal,
    batches: [],
    droppedWorkers: d.workers.filter((w) => w.droppedInRound !== null).map((w) => w.workerId),
  };
  if (d.queueTerminal) return plan;
  const active = activeAnalysers(d.workers);
  const byWorker = new Map<string, string[]>(active.map((w) => [w, []]));
  const revotes = new Map<string, Array<{ f: FindingStanding; standing: PassVote[] }>>(active.map((w) => [w, []]));
  for (const f of d.findings) {
    if (f.status !== 'pending') continue;
    const authors = index.authors.get(f.id) ?? new Set<string>();
    const voted = new Set(f.currentVotes.map((v) => v.workerId));
    let planned = 0;
    const standing = f.pass > 1 ? standingVotes(f) : undefined;
    for (const w of active) {
      if (authors.has(w) || voted.has(w)) continue;
      byWorker.get(w)!.push(f.id);
      if (standing) revotes.get(w)!.push({ f, standing });
      planned += 1;
    }
    if (planned === 0) {
      throw new InputError(`finding ${f.id} is pending but has no reviewer left to plan`, { file: label, field: 'derived.findings' });
    }
  }
  const failures = new Map(d.workers.map((w) => [w.workerId, w.failures]));
  const providers = new Map(d.workers.map((w) => [w.workerId, w.provider]));
  const bases = revoteBases(state);
  plan.batches = active
    .filter((w) => byWorker.get(w)!.length > 0)
    .map((w): RoundBatch => {
      const batch: RoundBatch = { workerId: w, provider: providers.get(w)!, priorFailures: failures.get(w)! as 0 | 1, findingIds: byWorker.get(w)! };
      const list = revotes.get(w)!;
      if (list.length > 0) batch.revotes = list.map(({ f, standing }) => revoteOf(f, standing, w, bases));
      return batch;
    });
  if (d.round >= state.seed.roundLimit) {
    const notRetry = plan.batches.find((b) => b.priorFailures === 0);
    if (d.round > state.seed.roundLimit || notRetry) {
      throw new InputError(
        `the state is past its round limit (${state.seed.roundLimit}) with findings pending that are not owed by a worker's retry${notRetry ? ` (worker ${notRetry.workerId})` : ''}`,
        { file: label, field: 'derived.round' },
      );
    }
  }
  return plan;
}

/** The other reviewers' standing votes on a re-vote finding, with their bases from the stored results. */
function revoteOf(f: FindingStanding, standing: PassVote[], workerId: string, bases: (round: number, workerId: string, findingId: string) => string): Revote {
  const others = standing
    .filter((v) => v.workerId !== workerId)
    .map((v) => ({ workerId: v.workerId, round: v.round, verdict: v.verdict, explanation: bases(v.round, v.workerId, f.id) }));
  return { findingId: f.id, pass: f.pass, others };
}

/** Lookup of a stored vote's explanation, indexing a round's results only when first asked. */
function revoteBases(state: WorkingState): (round: number, workerId: string, findingId: string) => string {
  const indexed = new Map<number, Map<string, string>>();
  return (round, workerId, findingId) => {
    let byKey = indexed.get(round);
    if (!byKey) {
      byKey = new Map();
      for (const w of state.rounds[round - 1]?.results.workers ?? []) for (const v of w.verdicts) byKey.set(`${w.workerId}\u0000${v.findingId}`, v.explanation);
      indexed.set(round, byKey);
    }
    return byKey.get(`${workerId}\u0000${findingId}`) ?? '';
  };
}

/** The critic-sourced findings of a state, for {@link indexSeed}. */
function criticIndex(state: WorkingState): { workerId: string; findingIds: string[] } | undefined {
  if (!state.criticBatch) return undefined;
  return {
    workerId: state.criticBatch.criticWorkerId,
    findingIds: state.derived.findings.filter((f) => f.source === 'critic').map((f) => f.id),
  };
}
