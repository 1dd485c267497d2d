import { resolve } from 'node:path';
import { InputError, OkstraError, parseCsv, UsageError, writeJson, type CliContext } from '@okstra/cli-kit';
import { environmentIdentities, IdentitySet, lastGate } from '@okstra/audit-rules';
import { readArtifact, withFileLock, writeArtifact } from '@okstra/state-file';
import { errorIssuePlanArtifact, type IssueCandidate } from '@okstra/schemas/error-issue';
import { GhCli } from '../github/gh.js';

/** Parsed flags of `okstra error-issue submit` (program.ts). */
export interface ErrorIssueSubmitOptions {
  plan: string;
  approve?: string;
}

/**
 * `okstra error-issue submit --plan <file> --approve <ids|all>` (docs/error-issue.md
 * "submit"): the only command that writes outside the machine. Files
 * (`gh issue create`) or comments (`gh issue comment`) only the approved
 * candidates not yet submitted and not `skip`; the last gate runs over every
 * text first (any refusal → exit 2, nothing sent) and again right before each
 * send; each URL is recorded into the plan file atomically right after its send,
 * so a second run sends nothing twice.
 * @returns 0; throws (exit 2) without `--approve` (or one naming no id, like `,,,`), for unknown ids, an
 *   unchecked plan, gh missing/unauthenticated, a gate refusal or a failed send.
 */
export async function runErrorIssueSubmit(opts: ErrorIssueSubmitOptions, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  if (opts.approve === undefined || opts.approve.trim() === '') {
    throw new UsageError('--approve <ids|all> is required: nothing was sent', { hint: 'review the plan file, then pass the candidate ids you approve' });
  }
  if (opts.approve.trim() !== 'all' && parseCsv(opts.approve).length === 0) {
    throw new UsageError(`--approve <ids|all> names no candidate id ('${opts.approve}'): nothing was sent`, {
      hint: 'review the plan file, then pass the candidate ids you approve',
    });
  }
  const planPath = resolve(io.cwd, opts.plan);
  const plan = await readArtifact(planPath, errorIssuePlanArtifact);
  const ids = new Set(plan.candidates.map((c) => c.id));
  const approved = opts.approve.trim() === 'all' ? [...ids] : [...new Set(parseCsv(opts.approve))];
  const unknown = approved.filter((id) => !ids.has(id));
  if (unknown.length) throw new InputError(`unknown candidate id(s) ${unknown.join(', ')}: nothing was sent`, { file: opts.plan, field: 'candidates' });

  const chosen = plan.candidates.filter((c) => approved.includes(c.id));
  const skipped = chosen
    .filter((c) => c.decision === 'skip' || c.submitted)
    .map((c) => ({ id: c.id, reason: c.submitted ? `already submitted: ${c.submitted.url}` : c.decisionReason }));
  const toSend = chosen.filter((c) => c.decision !== 'skip' && !c.submitted);
  if (toSend.length > 0 && plan.matching.status !== 'checked') {
    throw new InputError(`matching was unchecked when this plan was made (${plan.matching.reason ?? 'gh unavailable'}): nothing was sent`, {
      file: opts.plan,
      field: 'matching',
      hint: 're-run okstra error-issue plan with gh installed and authenticated',
    });
  }
  for (const c of toSend) {
    if (c.decision === 'comment' && !c.match)
      throw new InputError(`candidate ${c.id} decides comment but names no matched issue: nothing was sent`, { file: opts.plan, field: 'candidates' });
  }
  const identities = environmentIdentities(io.env, new IdentitySet());
  const gate = (c: IssueCandidate) => {
    const problems = lastGate(c.decision === 'comment' ? { commentBody: c.commentBody } : { title: c.title, body: c.body }, identities, plan.identityDigests);
    if (problems.length) {
      throw new InputError(`last gate refused candidate ${c.id} (${problems.map((p) => `${p.field}: ${p.detector}`).join(', ')}): nothing was sent for it`, {
        file: opts.plan,
      });
    }
  };
  toSend.forEach(gate); // every text first: one refusal sends nothing at all
  const sent: Array<{ id: string; action: 'create' | 'comment'; url: string }> = [];
  if (toSend.length > 0) {
    const gh = new GhCli(io.env);
    const status = await gh.status();
    if (!status.ok) throw new OkstraError('OKSTRA_GH_UNAVAILABLE', `${status.reason}: nothing was sent`, { hint: status.hint });
    for (const c of toSend) {
      gate(c);
      const action = c.decision === 'comment' ? 'comment' : 'create';
      const url = action === 'comment' ? await gh.comment(plan.repo, c.match!.number, c.commentBody) : await gh.createIssue(plan.repo, c.title, c.body);
      await recordSubmission(planPath, c.id, { action, url });
      sent.push({ id: c.id, action, url });
    }
  }
  writeJson(io, { ok: true, plan: planPath, sent, skipped });
  return 0;
}

/** Record one send into the plan file: re-read under the file lock, set `submitted`, write atomically. */
async function recordSubmission(planPath: string, id: string, submitted: { action: 'create' | 'comment'; url: string }): Promise<void> {
  await withFileLock(planPath, async () => {
    const plan = await readArtifact(planPath, errorIssuePlanArtifact);
    const c = plan.candidates.find((x) => x.id === id);
    if (c) c.submitted = submitted;
    await writeArtifact(planPath, errorIssuePlanArtifact, plan, { replace: 'any' });
  });
}
