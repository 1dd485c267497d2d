import { isStdio, pathArg, UsageError, writeJson, type CliContext } from '@okstra/cli-kit';
import { buildErrorIssuePlan, mergeGate, readMachineFacts, resolveProjectRoots, writePlanFile } from '@okstra/error-issue';
import { errorIssuePlanArtifact, RepoSlug } from '@okstra/schemas/error-issue';
import { renderArtifact } from '@okstra/state-file';
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
 * (docs/error-issue.md "plan"): the policy is `buildErrorIssuePlan` of
 * libs/error-issue with the real machine and the `gh` CLI; this command
 * resolves the flags and config, writes the plan file (keeping what was
 * already submitted) and prints
 * `{ok, plan, repo, matching, candidates: [{id, decision, classification, title}]}`. Sends nothing.
 * @returns 0; throws InputError/UsageError (2) on unusable roots, repo or config.
 */
export async function runErrorIssuePlan(opts: ErrorIssuePlanOptions, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const roots = await resolveProjectRoots(
    io.cwd,
    opts.projectRoot.map((r) => pathArg(io, r)),
  );
  const config = await readUserConfig(io.env);
  const repo = opts.repo ?? config.errorIssue?.repo ?? DEFAULT_ISSUE_REPO;
  if (!RepoSlug.safeParse(repo).success) throw new UsageError(`--repo expects <owner>/<name>, got '${repo}'`);
  const toStdout = opts.output !== undefined && isStdio(opts.output); // `--output -`: the plan itself on stdout, no file
  const output = toStdout ? '-' : pathArg(io, opts.output ?? defaultPlanPath(io.env));
  const { plan, warnings } = await buildErrorIssuePlan({
    roots,
    repo,
    gate: mergeGate(config.errorIssue?.gate),
    machine: readMachineFacts(io.env),
    gh: new GhCli(io.env),
  });
  for (const w of warnings) io.stderr.write(`${ctx.name}: ${w}\n`);
  if (toStdout) {
    io.stdout.write(renderArtifact(errorIssuePlanArtifact, plan));
    return 0;
  }
  const written = await writePlanFile(output, plan);
  writeJson(io, {
    ok: true,
    plan: output,
    repo,
    matching: written.matching,
    candidates: written.candidates.map((c) => ({ id: c.id, decision: c.decision, classification: c.classification, title: c.title })),
  });
  return 0;
}
