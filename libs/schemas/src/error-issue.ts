import * as z from './zod.js';
import { NonEmptyString, NonNegativeInt, PositiveInt } from './common.js';
import { defineArtifact } from './artifact.js';

/**
 * One line of an `errors-*.jsonl` log (docs/contracts.md §4; docs/error-issue.md
 * "Inputs"). Only `message` is required; unknown keys are kept. `source` is the
 * okstra component that logged it (`okstra-team`, `convergence`, `wrapper`…),
 * `kind` a short error code, `detail` a stderr/stack excerpt.
 */
export const ErrorRecord = z.looseObject({
  ts: z.optional(z.string()),
  source: z.optional(NonEmptyString),
  kind: z.optional(NonEmptyString),
  message: NonEmptyString,
  detail: z.optional(z.string()),
  stderr: z.optional(z.string()),
  stack: z.optional(z.string()),
  exitCode: z.optional(z.nullable(z.int())),
  taskKey: z.optional(z.string()),
  taskType: z.optional(z.string()),
  seq: z.optional(z.string()),
  workerId: z.optional(z.string()),
});
export type ErrorRecord = z.infer<typeof ErrorRecord>;

/** The three classes of a cluster (seed 000 `issue_signals.py` row). Only `okstra-defect` becomes a candidate. */
export const IssueClassification = z.enum(['okstra-defect', 'environment-policy', 'target-code']);
export type IssueClassification = z.infer<typeof IssueClassification>;

/** The quantitative gate (docs/error-issue.md "Gate"): a cluster needs both thresholds. */
export const IssueGate = z.looseObject({
  /** Distinct runs the cluster was seen in (default 2). */
  minRuns: PositiveInt,
  /** Records in the cluster (default 2). */
  minRecords: PositiveInt,
});
export type IssueGate = z.infer<typeof IssueGate>;

/**
 * `owner/name` of a GitHub repository, in GitHub's allowed characters: the
 * owner 1–39 letters, digits and `-`, not starting with `-`; the name 1–100
 * letters, digits, `.`, `_` and `-`, not starting with `-`, not `.`, and
 * without `..` (so it can never be read as a path or a flag by `gh`).
 */
export const RepoSlug = z
  .string()
  .check(
    z.regex(
      /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/(?!\.\.?$)(?!.*\.\.)[A-Za-z0-9._][A-Za-z0-9._-]{0,99}$/,
      'expected <owner>/<name> of GitHub repository name characters',
    ),
  );

/** A candidate's action: open a new issue, comment on the matched open one, or send nothing. */
export const IssueDecision = z.enum(['create', 'comment', 'skip']);

/** One issue candidate of a plan (docs/error-issue.md "Plan file"). Title and bodies are already anonymized. */
export const IssueCandidate = z.looseObject({
  /** The cluster fingerprint (12 hex); also the id `--approve` takes. */
  id: z.string().check(z.regex(/^[0-9a-f]{12}$/)),
  classification: IssueClassification,
  /** Signal name → number of records carrying it. */
  signals: z.record(z.string(), NonNegativeInt),
  counts: z.looseObject({ records: z.int(), runs: z.int(), projects: z.int() }),
  /** Digest of the counts (no identities): an issue already carrying it has nothing new. */
  evidenceDigest: z.string().check(z.regex(/^[0-9a-f]{12}$/)),
  title: NonEmptyString,
  body: NonEmptyString,
  commentBody: NonEmptyString,
  decision: IssueDecision,
  /** Why this decision (one line). */
  decisionReason: z.string(),
  match: z.nullable(z.looseObject({ number: z.int(), url: z.string(), state: z.string() })),
  /** Set by `submit` once sent; a second submit sends nothing for it. */
  submitted: z.nullable(z.looseObject({ action: z.enum(['create', 'comment']), url: z.string() })),
});
export type IssueCandidate = z.infer<typeof IssueCandidate>;

/** Every cluster seen, candidate or not, without any identity. */
export const IssueClusterSummary = z.looseObject({
  fingerprint: z.string(),
  classification: IssueClassification,
  records: z.int(),
  runs: z.int(),
  projects: z.int(),
  passedGate: z.boolean(),
  candidate: z.boolean(),
});

/**
 * The `error-issue plan` file (seed 000 `error_issue.py` row; docs/error-issue.md).
 * `identityDigests` are salted SHA-256 digests of the identities found at plan
 * time, so `submit`'s last gate can refuse them without the plan holding them.
 */
export const ErrorIssuePlan = z.looseObject({
  schemaVersion: z.literal('1.0'),
  repo: RepoSlug,
  gate: IssueGate,
  /** `checked`: gh listed matches; `unchecked`: gh missing, unauthenticated or failing (submit refuses); `not-needed`: no candidate to match. */
  matching: z.looseObject({ status: z.enum(['checked', 'unchecked', 'not-needed']), reason: z.nullable(z.string()) }),
  inputs: z.looseObject({ projects: z.int(), records: z.int(), violations: z.int(), skippedLines: z.int() }),
  identityDigests: z.array(z.string()),
  clusters: z.array(IssueClusterSummary),
  /** Candidate ids are unique: `submit --approve <id>` must never file one cluster twice. */
  candidates: z.array(IssueCandidate).check(
    z.superRefine((candidates, ctx) => {
      const seen = new Set<string>();
      candidates.forEach((c, i) => {
        if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate candidate id '${c.id}'` });
        seen.add(c.id);
      });
    }),
  ),
});
export type ErrorIssuePlan = z.infer<typeof ErrorIssuePlan>;

export const errorIssuePlanArtifact = defineArtifact('error-issue-plan', ['1.0'], 'okstra error-issue plan file', ErrorIssuePlan);

/** The `errorIssue` section of `~/.okstra/config.json` (other sections are kept, not read). */
export const OkstraUserConfig = z.looseObject({
  errorIssue: z.optional(
    z.looseObject({
      repo: z.optional(RepoSlug),
      gate: z.optional(z.partial(IssueGate)),
    }),
  ),
});
export type OkstraUserConfig = z.infer<typeof OkstraUserConfig>;
