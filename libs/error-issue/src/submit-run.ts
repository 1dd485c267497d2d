import { InputError, OkstraError, UsageError } from '@okstra/core';
import { errorIssuePlanArtifact, type IssueCandidate } from '@okstra/schemas/error-issue';
import { readArtifact, withFileLock, writeArtifact } from '@okstra/state-file';
import type { GhRunner } from './gh.js';
import { IdentitySet } from './identities.js';
import { lastGate } from './last-gate.js';
import { machineIdentities, type MachineFacts } from './machine.js';

const APPROVE_HINT = 'review the plan file, then pass the candidate ids you approve';

/**
 * Parse `--approve <ids|all>`: `all`, or comma-separated candidate ids (blanks
 * dropped, duplicates removed in order).
 * @throws UsageError (exit 2) when it is missing, blank, or names no id (`,,,`): nothing is sent.
 */
export function parseApproval(raw: string | undefined): 'all' | string[] {
  if (raw === undefined || raw.trim() === '') throw new UsageError('--approve <ids|all> is required: nothing was sent', { hint: APPROVE_HINT });
  if (raw.trim() === 'all') return 'all';
  const ids = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) throw new UsageError(`--approve <ids|all> names no candidate id ('${raw}'): nothing was sent`, { hint: APPROVE_HINT });
  return ids;
}

/** What {@link submitApproved} needs; `gh` and the machine are injected. */
export interface SubmitRequest {
  planPath: string;
  /** Shown in error messages instead of `planPath` (the path as the user typed it). */
  planLabel?: string;
  approve: 'all' | readonly string[];
  gh: GhRunner;
  machine: MachineFacts;
  /** Every check, then report what would be sent (`wouldSend`) without calling gh or changing the plan file. */
  dryRun?: boolean;
}

/** What was sent and what was skipped (with why). */
export interface SubmitOutcome {
  sent: Array<{ id: string; action: 'create' | 'comment'; url: string }>;
  skipped: Array<{ id: string; reason: string }>;
  /** With `dryRun`: each send that would happen — to `repo`, a new issue titled `title` or a comment on issue `issue`. */
  wouldSend?: Array<{ id: string; action: 'create' | 'comment'; repo: string; title?: string; issue?: number }>;
}

/**
 * `error-issue submit` as a function (docs/error-issue.md "submit"): the only
 * step that writes outside the machine. Refuses (exit 2, nothing sent) unknown
 * ids, an unchecked plan, a comment with no matched issue, any last-gate
 * refusal over every text, and an unusable gh. Then, per approved candidate,
 * under the plan file's lock: re-read the plan, skip the candidate when it was
 * submitted meanwhile, gate it again, send it, record `submitted` atomically —
 * so check-then-send is one step and concurrent submits file each issue once.
 * A failed send stops (exit 2); what was sent before stays recorded.
 */
export async function submitApproved(req: SubmitRequest): Promise<SubmitOutcome> {
  const label = req.planLabel ?? req.planPath;
  const plan = await readArtifact(req.planPath, errorIssuePlanArtifact, { label });
  const ids = new Set(plan.candidates.map((c) => c.id));
  const approved = req.approve === 'all' ? [...ids] : [...req.approve];
  const unknown = approved.filter((id) => !ids.has(id));
  if (unknown.length) throw new InputError(`unknown candidate id(s) ${unknown.join(', ')}: nothing was sent`, { file: label, field: 'candidates' });

  const chosen = plan.candidates.filter((c) => approved.includes(c.id));
  const skipped: SubmitOutcome['skipped'] = chosen.filter((c) => c.decision === 'skip' || c.submitted).map((c) => ({ id: c.id, reason: skipReason(c) }));
  const toSend = chosen.filter((c) => c.decision !== 'skip' && !c.submitted);
  if (toSend.length > 0 && plan.matching.status !== 'checked') {
    throw new InputError(`matching was unchecked when this plan was made (${plan.matching.reason ?? 'gh unavailable'}): nothing was sent`, {
      file: label,
      field: 'matching',
      hint: 're-run okstra error-issue plan with gh installed and authenticated',
    });
  }
  for (const c of toSend) {
    if (c.decision === 'comment' && !c.match) {
      throw new InputError(`candidate ${c.id} decides comment but names no matched issue: nothing was sent`, { file: label, field: 'candidates' });
    }
  }
  const identities = machineIdentities(req.machine, new IdentitySet());
  const gate = (c: IssueCandidate, digests: readonly string[]) => {
    const problems = lastGate(c.decision === 'comment' ? { commentBody: c.commentBody } : { title: c.title, body: c.body }, identities, digests);
    if (problems.length) {
      throw new InputError(`last gate refused candidate ${c.id} (${problems.map((p) => `${p.field}: ${p.detector}`).join(', ')}): nothing was sent for it`, {
        file: label,
      });
    }
  };
  for (const c of toSend) gate(c, plan.identityDigests); // every text first: one refusal sends nothing at all
  const sent: SubmitOutcome['sent'] = [];
  if (req.dryRun) {
    const wouldSend = toSend.map((c) =>
      c.decision === 'comment'
        ? { id: c.id, action: 'comment' as const, repo: plan.repo, issue: c.match!.number }
        : { id: c.id, action: 'create' as const, repo: plan.repo, title: c.title },
    );
    return { sent, skipped, wouldSend };
  }
  if (toSend.length === 0) return { sent, skipped };
  const status = await req.gh.status();
  if (!status.ok) throw new OkstraError('OKSTRA_GH_UNAVAILABLE', `${status.reason}: nothing was sent`, { hint: status.hint });
  for (const { id } of toSend) {
    await withFileLock(req.planPath, async () => {
      // Check and send under one lock: another submit may have filed this candidate since we read the plan.
      const current = await readArtifact(req.planPath, errorIssuePlanArtifact, { label });
      const c = current.candidates.find((x) => x.id === id);
      if (!c || c.submitted || c.decision === 'skip') {
        skipped.push({ id, reason: c ? skipReason(c) : 'no longer in the plan file' });
        return;
      }
      gate(c, current.identityDigests);
      const action = c.decision === 'comment' ? 'comment' : 'create';
      const url =
        action === 'comment' ? await req.gh.comment(current.repo, c.match!.number, c.commentBody) : await req.gh.createIssue(current.repo, c.title, c.body);
      c.submitted = { action, url };
      await writeArtifact(req.planPath, errorIssuePlanArtifact, current);
      sent.push({ id, action, url });
    });
  }
  return { sent, skipped };
}

function skipReason(c: IssueCandidate): string {
  return c.submitted ? `already submitted: ${c.submitted.url}` : c.decisionReason;
}
