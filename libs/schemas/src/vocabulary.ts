/**
 * The okstra vocabularies, each in one home: worker statuses and their
 * terminality, liveness verdicts, dispatch kinds, verdict words and roles
 * (docs/conventions.md "One rule, one home"; the words themselves are
 * documented in docs/team.md, docs/worker-liveness.md, docs/convergence.md
 * and docs/plan-items.md). The zod enums of the artifact schemas are built
 * from these lists, and every lib and app imports them from here.
 *
 * No zod here: this module is cheap enough for a commander program
 * (`--status` choices) to import at start-up.
 */

// ── Worker statuses (docs/team.md "worker-state transition") ────────────────

/** Every status a team-state row can have: `pending` before dispatch, then the `worker-state transition` set. */
export const WORKER_STATUSES = ['pending', 'in-progress', 'completed', 'timeout', 'error', 'not-run'] as const;
export type WorkerStatusWord = (typeof WORKER_STATUSES)[number];

/** The statuses `worker-state transition --status` records (every status but `pending`). */
export const TRANSITION_STATUSES = ['in-progress', 'completed', 'timeout', 'error', 'not-run'] as const;
export type TransitionStatus = (typeof TRANSITION_STATUSES)[number];

/** The statuses a worker cannot leave except by re-dispatch; also the statuses `team await` reports. */
export const TERMINAL_WORKER_STATUSES = ['completed', 'timeout', 'error', 'not-run'] as const;
export type TerminalWorkerStatus = (typeof TERMINAL_WORKER_STATUSES)[number];

/** Terminal statuses that are not a success: each needs a non-empty `reason` on its row. */
export const REASON_REQUIRED_STATUSES = ['timeout', 'error', 'not-run'] as const;

/** Terminal statuses of a worker that was started (so its row has a `startedAt`): all but `not-run`. */
export const STARTED_TERMINAL_STATUSES = ['completed', 'timeout', 'error'] as const;

/** True for a terminal worker status (`completed`, `timeout`, `error`, `not-run`); false for anything else. */
export function isTerminalWorkerStatus(status: string): status is TerminalWorkerStatus {
  return (TERMINAL_WORKER_STATUSES as readonly string[]).includes(status);
}

/** True for a status whose row must carry a reason (`timeout`, `error`, `not-run`). */
export function requiresReason(status: string): boolean {
  return (REASON_REQUIRED_STATUSES as readonly string[]).includes(status);
}

// ── Liveness (docs/worker-liveness.md) ──────────────────────────────────────

/** Which artifact the liveness probe reads for a worker: its audit sidecar's heartbeats or its CLI wrapper's status files. */
export const LIVENESS_MODES = ['audit-heartbeat', 'wrapper-status'] as const;
export type LivenessModeWord = (typeof LIVENESS_MODES)[number];

/** The verdicts the liveness probe gives a pending (non-terminal) worker. */
export const PENDING_LIVENESS_VERDICTS = ['live', 'stalled', 'did-not-launch'] as const;
export type PendingLivenessVerdict = (typeof PENDING_LIVENESS_VERDICTS)[number];

/** The verdict of a selected worker whose row is still `pending` (not dispatched yet): reported as such, never judged, left out of the exit code. */
export const NOT_DISPATCHED_VERDICT = 'not-dispatched';

/** A worker's liveness verdict: one of {@link PENDING_LIVENESS_VERDICTS}, the terminal status its row already has, or {@link NOT_DISPATCHED_VERDICT}. */
export type LivenessVerdict = PendingLivenessVerdict | TerminalWorkerStatus | typeof NOT_DISPATCHED_VERDICT;

/** True for `live`, `stalled` and `did-not-launch` (a judgement, not a status read back from team-state). */
export function isPendingLivenessVerdict(verdict: string): verdict is PendingLivenessVerdict {
  return (PENDING_LIVENESS_VERDICTS as readonly string[]).includes(verdict);
}

// ── Dispatch kinds (docs/team.md; the names are the team tool's) ────────────

/** A dispatch kind: lower-case letters, digits and dashes, starting with a letter (also a file-name segment). */
export const DISPATCH_KIND_PATTERN = /^[a-z][a-z0-9-]*$/;

/** The dispatch kind of a manifest (first) dispatch. */
export const INITIAL_DISPATCH_KIND = 'initial';

/** The dispatch kind of convergence re-verify round `round` (a positive integer): `reverify-r<N>`. */
export function reverifyDispatchKind(round: number): string {
  return `reverify-r${round}`;
}

/** The dispatch kind that retries `kind`: `<kind>-retry` (`initial-retry`, `reverify-r2-retry`). */
export function retryDispatchKind(kind: string): string {
  return `${kind}-retry`;
}

const REPAIR_PREFIX = 'repair-';

/** The dispatch kind of a repair of `kind` (a refused answer restated in the form, docs/convergence.md "Repair dispatch"): `repair-<kind>`. */
export function repairDispatchKind(kind: string): string {
  return `${REPAIR_PREFIX}${kind}`;
}

/** The kind a repair dispatch kind repairs (`repair-reverify-r2` → `reverify-r2`), or undefined when `kind` is not a repair; await judges a repair with it. */
export function repairedDispatchKind(kind: string): string | undefined {
  return kind.startsWith(REPAIR_PREFIX) && kind.length > REPAIR_PREFIX.length ? kind.slice(REPAIR_PREFIX.length) : undefined;
}

/**
 * The round a dispatch kind belongs to: a repair's round is the kind it repairs, a retry's the kind it retries
 * (`repair-reverify-r2` and `reverify-r2-retry` → `reverify-r2`). One round's panes are reclaimed together, and
 * `team await` judges one round at a time (docs/team.md "Dispatch kinds").
 */
export function dispatchRoundOf(kind: string): string {
  const repaired = repairedDispatchKind(kind);
  if (repaired !== undefined) return dispatchRoundOf(repaired);
  const suffix = retryDispatchKind('');
  return kind.endsWith(suffix) ? kind.slice(0, -suffix.length) : kind;
}

// ── Verdict words ───────────────────────────────────────────────────────────

/** The normalized vote every convergence verdict word maps to (docs/convergence.md). */
export const VOTES = ['agree', 'disagree', 'supplement', 'unverifiable'] as const;
export type VoteWord = (typeof VOTES)[number];

/** Convergence modes: `adversarial` (REFUTED/SURVIVES/… words) or `collaborative` (AGREE/DISAGREE/… words). */
export const CONVERGENCE_MODES = ['adversarial', 'collaborative'] as const;
export type ConvergenceModeWord = (typeof CONVERGENCE_MODES)[number];

/** The verdict words each convergence mode accepts (upper case) and the vote each maps to (docs/convergence.md). */
export const CONVERGENCE_VERDICT_WORDS: Readonly<Record<ConvergenceModeWord, Readonly<Record<string, VoteWord>>>> = {
  adversarial: { REFUTED: 'disagree', SURVIVES: 'agree', 'SURVIVES-WITH-CAVEAT': 'supplement', UNVERIFIABLE: 'unverifiable' },
  collaborative: { AGREE: 'agree', DISAGREE: 'disagree', SUPPLEMENT: 'supplement', UNVERIFIABLE: 'unverifiable' },
};

/** The three plan-verify verdict words (docs/plan-items.md "Verdict grammar"). */
export const PLAN_VERDICT_WORDS = ['AGREE', 'DISAGREE', 'SUPPLEMENT'] as const;

/** Breakage kinds `a`–`e` of a plan DISAGREE (docs/plan-items.md "Breakage kinds"). */
export const BREAKAGE_KINDS = ['a', 'b', 'c', 'd', 'e'] as const;

/** Fixability values of a plan DISAGREE (docs/plan-items.md "Fixability"): `in-place` does not block; the others do. */
export const FIXABILITY_VALUES = ['in-place', 'replan', 'needs-clarification'] as const;

// ── Roles ───────────────────────────────────────────────────────────────────

/** Convergence roster roles: analysers raise and re-verify findings; the critic proposes coverage gaps. */
export const ROSTER_ROLES = ['analyser', 'critic'] as const;

/** What a provider can do; a job role needs one of these (docs/providers.md; role labels → capability: roles.ts). */
export const PROVIDER_CAPABILITIES = ['analysis', 'critic', 'implementation', 'verification', 'report-writer'] as const;

/** The role (and conventional worker id) of the worker that writes the final report. */
export const REPORT_WRITER_ROLE = 'report-writer';

/** Who wrote a run's final report (`run-manifest.reportAuthor`). */
export const REPORT_AUTHORS = [REPORT_WRITER_ROLE, 'lead'] as const;
