import { resolve } from 'node:path';
import { appendAll, OkstraError } from '@okstra/core';
import { errorIssuePlanArtifact, type ErrorIssuePlan, type IssueGate } from '@okstra/schemas/error-issue';
import { readArtifactIfExists, withFileLock, writeArtifact } from '@okstra/state-file';
import { assertProjectRoot, findProjectRoot } from '@okstra/audit-rules';
import { clusterRecords, DEFAULT_GATE } from './cluster.js';
import type { GhRunner } from './gh.js';
import { IdentitySet } from './identities.js';
import { readProjectInputs } from './inputs.js';
import { machineIdentities, type MachineFacts } from './machine.js';
import type { GhIssue } from './match.js';
import { anonymize } from './normalize.js';
import { decideCandidate, describeDropped, draftCandidates } from './plan.js';
import type { RawRecord } from './signals.js';

/**
 * The project roots of one `plan`: each given root resolved against `cwd`
 * and checked (`assertProjectRoot`), duplicates (after resolution) dropped in
 * order; none given → the project found upward from `cwd` (`findProjectRoot`).
 * @throws InputError (exit 2) for an unusable root.
 */
export async function resolveProjectRoots(cwd: string, given: readonly string[]): Promise<string[]> {
  if (given.length === 0) return [await findProjectRoot(cwd)];
  const roots: string[] = [];
  for (const r of given) {
    const root = await assertProjectRoot(resolve(cwd, r));
    if (!roots.includes(root)) roots.push(root);
  }
  return roots;
}

/** The gate of a plan: the documented defaults, overridden field by field by `~/.okstra/config.json` `errorIssue.gate`. */
export function mergeGate(configured: Partial<IssueGate> | undefined): IssueGate {
  return { ...DEFAULT_GATE, ...(configured ?? {}) };
}

/** What {@link buildErrorIssuePlan} needs; everything that touches the outside world is injected. */
export interface PlanRequest {
  roots: readonly string[];
  repo: string;
  gate: IssueGate;
  machine: MachineFacts;
  gh: GhRunner;
}

/** A plan and the stderr lines the command prints (skipped lines, dropped candidates, unchecked matching). */
export interface PlanOutcome {
  plan: ErrorIssuePlan;
  warnings: string[];
}

/**
 * `error-issue plan` as a function (docs/error-issue.md "plan"): identities
 * of the machine and every project, records, clusters, gate, candidates, and
 * matching through the injected `gh`. Sends nothing, writes nothing.
 * Matching is `not-needed` when there are no candidates (gh is not asked),
 * `unchecked` when gh is missing, unauthenticated or fails (its error
 * anonymized), else `checked`.
 */
export async function buildErrorIssuePlan(req: PlanRequest): Promise<PlanOutcome> {
  const warnings: string[] = [];
  const identities = machineIdentities(req.machine, new IdentitySet());
  const records: RawRecord[] = [];
  let violations = 0;
  let skippedLines = 0;
  for (const [i, root] of req.roots.entries()) {
    const inputs = await readProjectInputs(root, i, identities);
    appendAll(records, inputs.records);
    violations += inputs.violations;
    skippedLines += inputs.skipped.length;
    for (const s of inputs.skipped) warnings.push(`${s.file}: line ${s.line}: skipped, ${s.reason}`);
  }
  // The target repository and okstra's own name are public: naming them is not a leak.
  identities.remove('okstra', req.repo, ...req.repo.split('/'));
  const clusters = clusterRecords(records, identities);
  const { summaries, drafts, dropped } = draftCandidates(clusters, req.gate, identities);
  for (const d of dropped) warnings.push(describeDropped(d));

  let matching: ErrorIssuePlan['matching'] = { status: 'not-needed', reason: 'no candidates to match' };
  let found: Array<GhIssue[] | null> = drafts.map(() => null);
  if (drafts.length > 0) {
    const status = await req.gh.status();
    matching = status.ok ? { status: 'checked', reason: null } : { status: 'unchecked', reason: status.reason };
    if (!status.ok) warnings.push(`matching unchecked: ${status.reason} (${status.hint})`);
    if (status.ok) {
      try {
        found = await searchAll(
          req.gh,
          req.repo,
          drafts.map((d) => d.id),
        );
      } catch (error) {
        // gh's stderr may name hosts or accounts: the plan keeps only its anonymized form.
        matching = { status: 'unchecked', reason: anonymize(error instanceof OkstraError ? error.message : String(error), identities) };
        found = drafts.map(() => null);
      }
    }
  }
  const plan: ErrorIssuePlan = {
    schemaVersion: '1.0',
    repo: req.repo,
    gate: req.gate,
    matching,
    inputs: { projects: req.roots.length, records: records.length, violations, skippedLines },
    identityDigests: identities.digests(),
    clusters: summaries,
    candidates: drafts.map((d, i) => decideCandidate(d, found[i] ?? null)),
  };
  return { plan, warnings };
}

/** How many `gh issue list` searches run at once: each is a subprocess, and a plan has one per candidate. */
const SEARCH_CONCURRENCY = 4;

/** The issues each fingerprint's search returns, in `ids` order; at most {@link SEARCH_CONCURRENCY} searches in flight. Rejects with the first failure. */
async function searchAll(gh: GhRunner, repo: string, ids: readonly string[]): Promise<GhIssue[][]> {
  const found: GhIssue[][] = new Array(ids.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (next < ids.length && !failed) {
      const i = next++;
      try {
        found[i] = await gh.searchIssues(repo, ids[i]!);
      } catch (error) {
        failed = true; // no new search starts once one failed: the plan is unchecked anyway
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SEARCH_CONCURRENCY, ids.length) }, lane));
  return found;
}

/**
 * Keep what an earlier plan already sent: each candidate of `plan` whose id
 * (the fingerprint) was `submitted` in `previous` for the same repository
 * keeps that record (action and URL), so `submit` never files it again — not
 * even while GitHub's search index has not caught up with the issue.
 */
export function keepSubmitted(plan: ErrorIssuePlan, previous: ErrorIssuePlan | undefined): ErrorIssuePlan {
  if (!previous || previous.repo !== plan.repo) return plan;
  const sent = new Map(previous.candidates.filter((c) => c.submitted).map((c) => [c.id, c.submitted]));
  return { ...plan, candidates: plan.candidates.map((c) => (sent.has(c.id) && !c.submitted ? { ...c, submitted: sent.get(c.id)! } : c)) };
}

/**
 * Write a plan file under its lock, atomically, keeping the `submitted`
 * records of the plan already there ({@link keepSubmitted}); a concurrent
 * `submit` recording a send waits for the lock, so no record is lost.
 * @returns the plan as written.
 * @throws InputError (exit 2) when the file exists and is not a plan file (it is left untouched).
 */
export async function writePlanFile(path: string, plan: ErrorIssuePlan): Promise<ErrorIssuePlan> {
  return withFileLock(path, async () => {
    const merged = keepSubmitted(plan, readArtifactIfExists(path, errorIssuePlanArtifact));
    await writeArtifact(path, errorIssuePlanArtifact, merged);
    return merged;
  });
}
