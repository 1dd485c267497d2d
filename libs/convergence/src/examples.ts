import type { ConvergenceGroups, CoverageBatch, CriticResults, RoundResults, Verdict } from '@okstra/schemas/convergence';
import { planRound } from './plan-round.js';
import { createWorkingState } from './seed-state.js';

/** Kinds `example --kind` prints. */
export const EXAMPLE_KINDS = ['groups', 'round-results', 'critic-results', 'coverage-batch'] as const;
export type ExampleKind = (typeof EXAMPLE_KINDS)[number];

/**
 * The groups example (feeds `seed --groups`): two analysers and a critic, four
 * findings — one raised by both analysers (corroborated at seed), three to be
 * re-verified by the other analyser in round 1.
 */
export function exampleGroups(): ConvergenceGroups {
  return {
    schemaVersion: '1.0',
    kind: 'convergence-groups',
    taskKey: 'sample:payments:refund-timeout',
    taskType: 'error-analysis',
    seq: '001',
    mode: 'adversarial',
    roundLimit: 3,
    roster: [
      { workerId: 'claude', provider: 'claude', role: 'analyser', modelExecutionValue: 'claude-opus-4-1' },
      { workerId: 'codex', provider: 'codex', role: 'analyser', modelExecutionValue: 'gpt-5.5' },
      { workerId: 'grok', provider: 'grok', role: 'critic', modelExecutionValue: 'grok-4' },
    ],
    findings: [
      {
        id: 'F-001',
        title: 'Refund timeout compares seconds with milliseconds',
        claim: 'isExpired() compares a deadline in seconds with Date.now() in milliseconds, so every refund looks expired.',
        authors: ['claude'],
        evidence: ['src/refunds/timeout.ts:41'],
      },
      {
        id: 'F-002',
        title: 'Settlement webhook races the timeout handler',
        claim: 'The timeout handler can mark a refund failed after the settlement webhook marked it settled.',
        authors: ['codex'],
        evidence: ['src/refunds/queue.ts:88', 'src/webhooks/settlement.ts:30'],
      },
      {
        id: 'F-003',
        title: 'Retry worker never resets the attempt counter',
        claim: 'retryRefund() increments attempts but never resets them after a successful provider call.',
        authors: ['claude', 'codex'],
        evidence: ['src/refunds/retry.ts:57'],
      },
      {
        id: 'F-004',
        title: 'Idempotency keys may be served stale',
        claim: 'The idempotency cache has no TTL, so a reused key may return a previous refund.',
        authors: ['claude'],
        evidence: ['src/refunds/idempotency.ts:12'],
      },
    ],
  };
}

const ROUND1_VOTES: Record<string, { verdict: Verdict; word: string; explanation: string }> = {
  'F-001': { verdict: 'agree', word: 'SURVIVES', explanation: 'timeout.ts:41 divides by nothing: deadlineSec is compared with Date.now() directly.' },
  'F-002': { verdict: 'disagree', word: 'REFUTED', explanation: 'settle() takes the row lock (queue.ts:88) before the timeout handler reads the status.' },
  'F-004': { verdict: 'unverifiable', word: 'UNVERIFIABLE', explanation: 'The cache implementation is injected at runtime and is not in the repository.' },
};

/**
 * The round-results example (feeds `apply-round --results`): the complete result
 * set for the round-1 plan that `plan-round` makes from {@link exampleGroups}.
 */
export function exampleRoundResults(): RoundResults {
  const plan = planRound(createWorkingState(exampleGroups()));
  return {
    schemaVersion: '1.0',
    kind: 'round-results',
    round: plan.round,
    mode: plan.mode,
    workers: plan.batches.map((b, i) => ({
      workerId: b.workerId,
      status: 'completed',
      durationMs: 412_000 + i * 61_000,
      verdicts: b.findingIds.map((id) => {
        const v = ROUND1_VOTES[id];
        return {
          findingId: id,
          verdict: v.verdict,
          explanation: v.explanation,
          sourceVerdict: v.word,
          ...(v.verdict === 'disagree' ? { disagreeBasis: v.explanation } : {}),
        };
      }),
    })),
  };
}

/** The critic worker's own result document (feeds nothing; see `coverage-batch`). */
export function exampleCriticResults(): CriticResults {
  return {
    schemaVersion: '1.0',
    kind: 'critic-results',
    criticWorkerId: 'grok',
    modelExecutionValue: 'grok-4',
    candidates: [
      {
        id: 'C-001',
        title: 'Refund amount is not re-checked against the capture',
        claim: 'A partial capture followed by a full refund request is not rejected.',
        evidence: ['src/refunds/create.ts:22'],
        rationale: 'No analyser looked at refund creation.',
      },
      {
        id: 'C-002',
        title: 'Timeout job runs twice after a deploy',
        claim: 'Two schedulers can run the timeout job for a minute after a rolling deploy.',
        evidence: ['deploy/scheduler.yaml:8'],
        rationale: "Scheduling was outside both analysers' scope.",
      },
    ],
  };
}

/**
 * The coverage-batch example (feeds `apply-critic-gaps --results` once the main
 * queue of the {@link exampleGroups} state is terminal): the critic's candidates
 * with each analyser's vote — C-001 accepted, C-002 split (unresolved).
 */
export function exampleCoverageBatch(): CoverageBatch {
  const critic = exampleCriticResults();
  const votes: Record<string, CoverageBatch['gaps'][number]['votes']> = {
    'C-001': [
      { workerId: 'claude', verdict: 'agree', explanation: 'create.ts:22 only checks amount > 0.' },
      { workerId: 'codex', verdict: 'agree', explanation: 'Confirmed: the capture total is never read when creating a refund.' },
    ],
    'C-002': [
      {
        workerId: 'claude',
        verdict: 'disagree',
        explanation: 'The job takes an advisory lock (scheduler.ts:14).',
        disagreeBasis: 'The job takes an advisory lock (scheduler.ts:14).',
      },
      { workerId: 'codex', verdict: 'supplement', explanation: 'Possible, but only when the lock table is unavailable.' },
    ],
  };
  return {
    schemaVersion: '1.0',
    kind: 'coverage-batch',
    criticWorkerId: critic.criticWorkerId,
    modelExecutionValue: critic.modelExecutionValue,
    dispatches: [
      { workerId: 'claude', status: 'completed', durationMs: 203_000, modelExecutionValue: 'claude-opus-4-1' },
      { workerId: 'codex', status: 'completed', durationMs: 188_000, modelExecutionValue: 'gpt-5.5' },
    ],
    gaps: critic.candidates.map((c) => ({ ...c, votes: votes[c.id] })),
  };
}

/** The example document of one kind. */
export function exampleDocument(kind: ExampleKind): unknown {
  switch (kind) {
    case 'groups':
      return exampleGroups();
    case 'round-results':
      return exampleRoundResults();
    case 'critic-results':
      return exampleCriticResults();
    case 'coverage-batch':
      return exampleCoverageBatch();
  }
}
