import { resolve } from 'node:path';
import { OkstraError, UsageError, writeJson, type CliContext } from '@okstra/cli-kit';
import {
  anonymize,
  assertProjectRoot,
  clusterRecords,
  decideCandidate,
  DEFAULT_GATE,
  draftCandidates,
  environmentIdentities,
  IdentitySet,
  readProjectInputs,
  type GhIssue,
  type RawRecord,
} from '@okstra/audit-rules';
import { writeArtifact } from '@okstra/state-file';
import { errorIssuePlanArtifact, RepoSlug, type ErrorIssuePlan } from '@okstra/schemas/error-issue';
import { defaultPlanPath, DEFAULT_ISSUE_REPO, readUserConfig } from '../github/config.js';
import { GhCli } from '../github/gh.js';

/** Parsed flags of `okstra error-issue plan` (program.ts). */
export interface ErrorIssuePlanOptions {
  projectRoot: string[];
  repo?: string;
  output?: string;
}

/**
 * `okstra error-issue plan --project-root <dir>… [--repo <owner/name>] [--output <plan.json>]`
 * (docs/error-issue.md "plan"): reads run-audit violations and `errors-*.jsonl`
 * of every project, clusters, gates, classifies, matches through `gh` (or
 * records matching as unchecked when gh is missing/unauthenticated), renders
 * anonymized candidates and writes the plan file atomically. Sends nothing.
 * Prints `{ok, plan, repo, matching, candidates: [{id, decision, classification, title}]}`.
 * @returns 0; throws InputError/UsageError (2) on unusable roots, repo or config.
 */
export async function runErrorIssuePlan(opts: ErrorIssuePlanOptions, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const roots: string[] = [];
  for (const r of opts.projectRoot.length ? opts.projectRoot : ['.']) {
    const root = await assertProjectRoot(resolve(io.cwd, r));
    if (!roots.includes(root)) roots.push(root);
  }
  const config = await readUserConfig(io.env);
  const repo = opts.repo ?? config.errorIssue?.repo ?? DEFAULT_ISSUE_REPO;
  if (!RepoSlug.safeParse(repo).success) throw new UsageError(`--repo expects <owner>/<name>, got '${repo}'`);
  const gate = { ...DEFAULT_GATE, ...(config.errorIssue?.gate ?? {}) };
  const output = resolve(io.cwd, opts.output ?? defaultPlanPath(io.env));

  const identities = environmentIdentities(io.env, new IdentitySet());
  const records: RawRecord[] = [];
  let violations = 0;
  let skippedLines = 0;
  for (const [i, root] of roots.entries()) {
    const inputs = await readProjectInputs(root, i, identities);
    records.push(...inputs.records);
    violations += inputs.violations;
    skippedLines += inputs.skipped.length;
    for (const s of inputs.skipped) io.stderr.write(`${ctx.name}: ${s.file}: line ${s.line}: skipped, ${s.reason}\n`);
  }
  // The target repository and okstra's own name are public: naming them is not a leak.
  identities.remove('okstra', repo, ...repo.split('/'));
  const clusters = clusterRecords(records, identities);
  const { summaries, drafts, refusedByGate } = draftCandidates(clusters, gate, identities);
  if (refusedByGate > 0) io.stderr.write(`${ctx.name}: ${refusedByGate} candidate(s) dropped: the last gate refused their rendering\n`);

  const gh = new GhCli(io.env);
  const status = drafts.length > 0 ? await gh.status() : ({ ok: false, reason: 'no candidates to match', hint: '' } as const);
  let matching: ErrorIssuePlan['matching'] = status.ok ? { status: 'checked', reason: null } : { status: 'unchecked', reason: status.reason };
  let found: Array<GhIssue[] | null> = drafts.map(() => null);
  if (status.ok) {
    try {
      found = [];
      for (const d of drafts) found.push(await gh.searchIssues(repo, d.id));
    } catch (error) {
      // gh's stderr may name hosts or accounts: the plan keeps only its anonymized form.
      matching = { status: 'unchecked', reason: anonymize(error instanceof OkstraError ? error.message : String(error), identities) };
      found = drafts.map(() => null);
    }
  }
  if (!status.ok && drafts.length > 0) io.stderr.write(`${ctx.name}: matching unchecked: ${status.reason} (${status.hint})\n`);

  const plan: ErrorIssuePlan = {
    schemaVersion: '1.0',
    repo,
    gate,
    matching,
    inputs: { projects: roots.length, records: records.length, violations, skippedLines },
    identityDigests: identities.digests(),
    clusters: summaries,
    candidates: drafts.map((d, i) => decideCandidate(d, found[i] ?? null)),
  };
  await writeArtifact(output, errorIssuePlanArtifact, plan);
  writeJson(io, {
    ok: true,
    plan: output,
    repo,
    matching,
    candidates: plan.candidates.map((c) => ({ id: c.id, decision: c.decision, classification: c.classification, title: c.title })),
  });
  return 0;
}
