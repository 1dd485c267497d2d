import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { NonEmptyString, NonNegativeInt, PositiveInt, ProviderId, Seq, TaskKeyString, TaskType, WorkerId } from './common.js';
import { CONVERGENCE_MODES, ROSTER_ROLES, TERMINAL_WORKER_STATUSES, VOTES } from './vocabulary.js';

/**
 * Artifacts of `okstra-convergence` (docs/contracts.md §5 and §7; rules in
 * docs/convergence.md): the lead's groups (seed input), the replayable working
 * state, a round plan, a round's result set, the critic's own result document,
 * the coverage batch `apply-critic-gaps` takes, and the terminal v1.3 final state.
 * Every document carries a `kind` so a command fed the wrong document says which
 * kind it got and which it needs; `kind` may be omitted only in the two documents
 * the lead writes by hand (groups, coverage batch).
 */

/**
 * A finding id: an upper-case prefix, a dash, then dash-separated letters/digits
 * (`F-001`, `C-002`, `ERR-12-b`). Also the heading pattern `collect-results` uses.
 */
export const FINDING_ID_PATTERN = /^[A-Z][A-Z0-9]*-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
export const FindingId = z.string().check(z.regex(FINDING_ID_PATTERN, 'expected a finding id like "F-001"'));

/** `adversarial` (REFUTED/SURVIVES/… prompt words) or `collaborative` (agree/disagree/… words). */
export const ConvergenceMode = z.enum(CONVERGENCE_MODES);
export type ConvergenceMode = z.infer<typeof ConvergenceMode>;

/** Roster roles: analysers raise and re-verify findings; the critic proposes coverage gaps. */
export const RosterRole = z.enum(ROSTER_ROLES);
export type RosterRole = z.infer<typeof RosterRole>;

/** A normalized vote (the words of each mode map to these: `CONVERGENCE_VERDICT_WORDS`). */
export const Verdict = z.enum(VOTES);
export type Verdict = z.infer<typeof Verdict>;

/** Terminal statuses of a dispatched worker, as `okstra team await --json` reports them. */
export const DispatchStatus = z.enum(TERMINAL_WORKER_STATUSES);
export type DispatchStatus = z.infer<typeof DispatchStatus>;

/** The four statuses a finding ends in. */
export const TERMINAL_FINDING_STATUSES = ['agreed', 'refuted', 'unverifiable', 'contested'] as const;
export type TerminalFindingStatus = (typeof TERMINAL_FINDING_STATUSES)[number];
/** Finding statuses: `pending` until one of the four terminal statuses. */
export const FindingStatus = z.enum(['pending', ...TERMINAL_FINDING_STATUSES]);
export type FindingStatus = z.infer<typeof FindingStatus>;

/** Why a finding ended where it did (docs/convergence.md "Reduction"). */
export const FindingReason = z.enum(['corroborated', 'consensus', 'round-limit', 'no-eligible-reviewer', 'critic-accepted']);
export type FindingReason = z.infer<typeof FindingReason>;

const DurationMs = NonNegativeInt;
const Text = z.string();

/** One worker of the roster. */
export const RosterEntry = z.looseObject({
  workerId: WorkerId,
  provider: ProviderId,
  role: RosterRole,
  modelExecutionValue: z.optional(NonEmptyString),
  /**
   * Failures the worker already had in earlier dispatches of the run (initial analysis):
   * 0 or 1 (docs/convergence.md "Retry budget"). A worker with two is out of the run and
   * is not listed.
   */
  failures: z.optional(z.int().check(z.gte(0), z.lte(1))),
});
export type RosterEntry = z.infer<typeof RosterEntry>;

/** One clustered finding of the groups file. */
export const GroupFinding = z.looseObject({
  id: FindingId,
  title: NonEmptyString,
  claim: NonEmptyString,
  /** Workers that raised it (analysers of the roster). */
  authors: z.array(WorkerId).check(z.minLength(1)),
  /** Evidence refs, e.g. `src/refunds/queue.ts:88`. */
  evidence: z._default(z.array(NonEmptyString), []),
  /** The workers' own ids merged into this group, e.g. `claude:F3`. */
  sourceIds: z.optional(z.array(NonEmptyString)),
  severity: z.optional(z.enum(['critical', 'high', 'medium', 'low', 'info'])),
});
export type GroupFinding = z.infer<typeof GroupFinding>;

/**
 * `state/convergence-groups-<type>-<seq>.json` v1.0: the lead's clustered
 * findings, the roster, the mode and the round limit (1–10). Checked: worker
 * ids unique, at least one analyser, at most one critic, finding ids unique,
 * every author an analyser of the roster and listed once.
 */
export const ConvergenceGroups = z
  .looseObject({
    schemaVersion: z.literal('1.0'),
    kind: z.optional(z.literal('convergence-groups')),
    taskKey: z.optional(TaskKeyString),
    taskType: z.optional(TaskType),
    seq: z.optional(Seq),
    mode: ConvergenceMode,
    roundLimit: z.int().check(z.gte(1), z.lte(10)),
    roster: z.array(RosterEntry).check(z.minLength(1)),
    findings: z.array(GroupFinding),
  })
  .check(
    z.superRefine((groups, ctx) => {
      const roles = new Map<string, RosterRole>();
      groups.roster.forEach((w, i) => {
        if (roles.has(w.workerId)) ctx.addIssue({ code: 'custom', path: ['roster', i, 'workerId'], message: `duplicate worker id '${w.workerId}'` });
        roles.set(w.workerId, w.role);
      });
      if (![...roles.values()].includes('analyser')) ctx.addIssue({ code: 'custom', path: ['roster'], message: 'the roster has no analyser' });
      if (groups.roster.filter((w) => w.role === 'critic').length > 1)
        ctx.addIssue({ code: 'custom', path: ['roster'], message: 'the roster has more than one critic' });
      const ids = new Set<string>();
      groups.findings.forEach((f, i) => {
        if (ids.has(f.id)) ctx.addIssue({ code: 'custom', path: ['findings', i, 'id'], message: `duplicate finding id '${f.id}'` });
        ids.add(f.id);
        const seen = new Set<string>();
        f.authors.forEach((a, j) => {
          if (seen.has(a)) ctx.addIssue({ code: 'custom', path: ['findings', i, 'authors', j], message: `author '${a}' is listed twice` });
          seen.add(a);
          if (roles.get(a) !== 'analyser') {
            ctx.addIssue({ code: 'custom', path: ['findings', i, 'authors', j], message: `author '${a}' is not an analyser of the roster` });
          }
        });
      });
    }),
  );
export type ConvergenceGroups = z.infer<typeof ConvergenceGroups>;
export const convergenceGroupsArtifact = defineArtifact('convergence-groups', ['1.0'], 'okstra-convergence seed input (groups)', ConvergenceGroups);

/** One worker's batch in a round plan. */
export const RoundBatch = z.looseObject({
  workerId: WorkerId,
  provider: ProviderId,
  /** Failures this worker had before this round (1 = this batch is its one retry). */
  priorFailures: z.int().check(z.gte(0), z.lte(1)),
  findingIds: z.array(FindingId).check(z.minLength(1)),
  /**
   * The findings of this batch that are a re-vote after a split (pass > 1), each with the
   * other reviewers' latest votes and bases, for the reverify prompt. Omitted when none.
   */
  revotes: z.optional(
    z.array(
      z.looseObject({
        findingId: FindingId,
        pass: z.int().check(z.gte(2)),
        others: z.array(z.looseObject({ workerId: WorkerId, round: PositiveInt, verdict: Verdict, explanation: Text })),
      }),
    ),
  ),
});
export type RoundBatch = z.infer<typeof RoundBatch>;

/**
 * `state/convergence-plan-r<N>-<type>-<seq>.json` v1.0: who re-verifies what in
 * round `round`. `queueTerminal: true` (with no batches) says there is no work left.
 */
export const RoundPlan = z.looseObject({
  schemaVersion: z.literal('1.0'),
  kind: z.literal('round-plan'),
  seedDigest: z.string(),
  mode: ConvergenceMode,
  round: PositiveInt,
  roundLimit: PositiveInt,
  queueTerminal: z.boolean(),
  batches: z.array(RoundBatch),
  /** Workers no longer in the roster (two failures), for the lead's information. */
  droppedWorkers: z.array(WorkerId),
});
export type RoundPlan = z.infer<typeof RoundPlan>;
export const roundPlanArtifact = defineArtifact('convergence-round-plan', ['1.0'], 'okstra-convergence round plan', RoundPlan);

/** What every vote carries, on a finding or on a critic gap: the verdict and its Basis. */
const voteBody = {
  verdict: Verdict,
  explanation: Text,
  disagreeBasis: z.optional(Text),
};

/**
 * One vote. `explanation` is the response's Basis (every vote needs one);
 * `disagreeBasis` repeats it on `disagree` votes; `sourceVerdict` is the word the
 * worker wrote (`REFUTED`); `line` is where, in its response.
 */
export const Vote = z.looseObject({
  findingId: FindingId,
  ...voteBody,
  sourceVerdict: z.optional(z.string()),
  line: z.optional(PositiveInt),
});
export type Vote = z.infer<typeof Vote>;

/** One planned worker's outcome in a round. */
/**
 * The repair of a worker's refused answer, recorded on its round outcome by `collect-results`
 * (docs/convergence.md "Repair dispatch"): the repair's `dispatchKind` (`repair-reverify-r<N>`) and
 * how it ended — `read` (the restated answer gave the votes), `refused` (refused again: the outcome is
 * `error`, `problems` the refusal's lines), or the repair dispatch's own `timeout` / `error` / `not-run`
 * (the outcome is `error`).
 */
export const RepairRecord = z.looseObject({
  dispatchKind: NonEmptyString,
  outcome: z.enum(['read', 'refused', 'timeout', 'error', 'not-run']),
  problems: z.optional(z.array(z.string())),
});
export type RepairRecord = z.infer<typeof RepairRecord>;

export const WorkerOutcome = z.looseObject({
  workerId: WorkerId,
  status: DispatchStatus,
  durationMs: DurationMs,
  /** The response file the votes came from (informational). */
  resultPath: z.optional(z.string()),
  verdicts: z.array(Vote),
  /** Present when the outcome is that of a repair dispatch ({@link RepairRecord}). */
  repair: z.optional(RepairRecord),
});
export type WorkerOutcome = z.infer<typeof WorkerOutcome>;

/** `state/convergence-results-r<N>-<type>-<seq>.json` v1.0: the `apply-round --results` shape. */
export const RoundResults = z.looseObject({
  schemaVersion: z.literal('1.0'),
  kind: z.literal('round-results'),
  round: PositiveInt,
  mode: ConvergenceMode,
  workers: z.array(WorkerOutcome),
});
export type RoundResults = z.infer<typeof RoundResults>;
export const roundResultsArtifact = defineArtifact('convergence-round-results', ['1.0'], 'okstra-convergence round result set', RoundResults);

/** One coverage-gap candidate the critic proposes. */
export const CriticCandidate = z.looseObject({
  id: FindingId,
  title: NonEmptyString,
  claim: NonEmptyString,
  evidence: z._default(z.array(NonEmptyString), []),
  rationale: z.optional(z.string()),
});
export type CriticCandidate = z.infer<typeof CriticCandidate>;

/**
 * The critic worker's own result document v1.0. It feeds no command: the lead
 * has every analyser vote on its candidates and assembles a coverage batch.
 */
export const CriticResults = z.looseObject({
  schemaVersion: z.literal('1.0'),
  kind: z.literal('critic-results'),
  criticWorkerId: WorkerId,
  modelExecutionValue: NonEmptyString,
  candidates: z.array(CriticCandidate),
});
export type CriticResults = z.infer<typeof CriticResults>;
export const criticResultsArtifact = defineArtifact('convergence-critic-results', ['1.0'], "the coverage critic's own result document", CriticResults);

/** An analyser's vote on a gap (no `findingId`: it sits under its gap). */
export const GapVote = z.looseObject({
  workerId: WorkerId,
  ...voteBody,
});
export type GapVote = z.infer<typeof GapVote>;

/** One analyser dispatch of the coverage vote. */
export const CoverageDispatch = z.looseObject({
  workerId: WorkerId,
  status: DispatchStatus,
  durationMs: DurationMs,
  modelExecutionValue: NonEmptyString,
});
export type CoverageDispatch = z.infer<typeof CoverageDispatch>;

/** One critic gap with every analyser's vote. */
export const CoverageGap = z.extend(CriticCandidate, { votes: z.array(GapVote) });
export type CoverageGap = z.infer<typeof CoverageGap>;

/**
 * The `apply-critic-gaps --results` input v1.0: the lead-assembled coverage batch
 * — the critic's candidates (`gaps[]`) with each analyser's vote, the analysers'
 * `dispatches[]`, and the critic's `modelExecutionValue`.
 */
export const CoverageBatch = z.looseObject({
  schemaVersion: z.literal('1.0'),
  kind: z.optional(z.literal('coverage-batch')),
  criticWorkerId: WorkerId,
  modelExecutionValue: NonEmptyString,
  /**
   * The critic's own dispatch outcome; omitted = completed. A critic that did not
   * complete proposes nothing: `gaps` must be empty, and no analyser was dispatched
   * to vote, so `dispatches` may be empty.
   */
  criticDispatch: z.optional(z.looseObject({ status: DispatchStatus, durationMs: DurationMs })),
  dispatches: z.array(CoverageDispatch),
  gaps: z.array(CoverageGap),
});
export type CoverageBatch = z.infer<typeof CoverageBatch>;
export const coverageBatchArtifact = defineArtifact(
  'convergence-coverage-batch',
  ['1.0'],
  'okstra-convergence apply-critic-gaps input (coverage batch)',
  CoverageBatch,
);

/** A vote of the current re-verification pass, kept in the derived state. */
export const PassVote = z.looseObject({ workerId: WorkerId, verdict: Verdict, round: PositiveInt });
export type PassVote = z.infer<typeof PassVote>;

/** A worker's standing in the derived state. */
export const WorkerStanding = z.looseObject({
  workerId: WorkerId,
  provider: ProviderId,
  role: RosterRole,
  /** Failures in the run (groups' roster `failures`, then every round it ended timeout/error/not-run); the first spends its one retry, the second drops it. */
  failures: z.int().check(z.gte(0), z.lte(2)),
  droppedInRound: z.nullable(PositiveInt),
});
export type WorkerStanding = z.infer<typeof WorkerStanding>;

/** A finding's standing in the derived state. */
export const FindingStanding = z.looseObject({
  id: FindingId,
  source: RosterRole,
  status: FindingStatus,
  reason: z.nullable(FindingReason),
  /** 0 = decided at seed; null while pending. */
  decidedInRound: z.nullable(NonNegativeInt),
  /** Re-verification pass (1 first; +1 each time a round ends split below the limit). */
  pass: PositiveInt,
  /** Votes of the current pass. */
  currentVotes: z.array(PassVote),
  /**
   * Each worker's latest vote of an earlier pass (after a split), sorted by worker id;
   * omitted when there is none. A vote never withdrawn keeps counting when the finding
   * is decided without that worker's vote in the current pass (docs/convergence.md "Reduction").
   */
  priorVotes: z.optional(z.array(PassVote)),
});
export type FindingStanding = z.infer<typeof FindingStanding>;

/** Decision on one critic gap. */
export const GapDecision = z.enum(['accepted', 'rejected', 'unresolved']);
export type GapDecision = z.infer<typeof GapDecision>;

/** Everything `validate --kind working` recomputes by replay. */
export const DerivedState = z.looseObject({
  round: NonNegativeInt,
  queueTerminal: z.boolean(),
  workers: z.array(WorkerStanding),
  findings: z.array(FindingStanding),
  criticGaps: z.array(z.looseObject({ id: FindingId, decision: GapDecision })),
});
export type DerivedState = z.infer<typeof DerivedState>;

/** One applied round as stored: the plan and the result set, verbatim. */
export const AppliedRound = z.looseObject({ round: PositiveInt, plan: RoundPlan, results: RoundResults });
export type AppliedRound = z.infer<typeof AppliedRound>;

/**
 * `state/convergence-work-<type>-<seq>.json` v1.1: replayable working state —
 * the seed input and its digest, every applied round, the critic batch once
 * applied, and the derived state those replay to.
 */
export const WorkingState = z.looseObject({
  schemaVersion: z.literal('1.1'),
  kind: z.literal('convergence-working-state'),
  /** `sha256:<hex>` of the canonical (sorted-key) JSON of `seed`. */
  seedDigest: z.string().check(z.regex(/^sha256:[0-9a-f]{64}$/, 'expected sha256:<64 hex>')),
  seed: ConvergenceGroups,
  rounds: z.array(AppliedRound),
  criticBatch: z.nullable(CoverageBatch),
  derived: DerivedState,
});
export type WorkingState = z.infer<typeof WorkingState>;
export const workingStateArtifact = defineArtifact('convergence-working-state', ['1.1'], 'okstra-convergence replayable working state', WorkingState);

/**
 * Working state v1.0 (before okstra-convergence 0.2): the seed was stored as
 * `groups`, the rounds as `appliedRounds`, and there was no digest, critic batch
 * or `kind`. `seed` migrates it to v1.1 by replay, keeping the original.
 */
export const LegacyWorkingState = z.looseObject({
  schemaVersion: z.literal('1.0'),
  groups: z.unknown(),
  appliedRounds: z.array(z.looseObject({ round: PositiveInt, plan: z.unknown(), results: z.unknown() })),
});
export type LegacyWorkingState = z.infer<typeof LegacyWorkingState>;

/** A vote as the final state records it. */
export const FinalVote = z.looseObject({
  /** The round of the vote; critic-gap votes carry the round the main queue ended in (0 when it ended at seed). */
  round: NonNegativeInt,
  workerId: WorkerId,
  verdict: Verdict,
  explanation: Text,
  disagreeBasis: z.optional(Text),
});
export type FinalVote = z.infer<typeof FinalVote>;

/** One finding of the final state. */
export const FinalFinding = z.looseObject({
  id: FindingId,
  title: z.string(),
  claim: z.string(),
  evidence: z.array(z.string()),
  authors: z.array(WorkerId),
  source: RosterRole,
  /** Terminal only: a final state has no pending finding. */
  status: z.enum(TERMINAL_FINDING_STATUSES),
  reason: FindingReason,
  decidedInRound: NonNegativeInt,
  votes: z.array(FinalVote),
});
export type FinalFinding = z.infer<typeof FinalFinding>;

/** Status counts of the final state. */
export const FinalCounts = z.looseObject({
  total: NonNegativeInt,
  agreed: NonNegativeInt,
  refuted: NonNegativeInt,
  unverifiable: NonNegativeInt,
  contested: NonNegativeInt,
  analyser: NonNegativeInt,
  critic: NonNegativeInt,
});
export type FinalCounts = z.infer<typeof FinalCounts>;

/**
 * `state/convergence-final-<type>-<seq>.json` v1.3: the terminal convergence
 * state the report and run-audit read. Every finding terminal; counts consistent.
 */
export const FinalState = z.looseObject({
  schemaVersion: z.literal('1.3'),
  kind: z.literal('convergence-final-state'),
  seedDigest: z.string(),
  taskKey: z.optional(TaskKeyString),
  taskType: z.optional(TaskType),
  seq: z.optional(Seq),
  mode: ConvergenceMode,
  roundLimit: PositiveInt,
  rounds: NonNegativeInt,
  roster: z.array(WorkerStanding),
  findings: z.array(FinalFinding),
  criticApplied: z.boolean(),
  criticGaps: z.array(z.looseObject({ id: FindingId, title: z.string(), decision: GapDecision, votes: z.array(GapVote) })),
  counts: FinalCounts,
});
export type FinalState = z.infer<typeof FinalState>;
export const finalStateArtifact = defineArtifact('convergence-final-state', ['1.3'], 'okstra-convergence terminal final state', FinalState);
