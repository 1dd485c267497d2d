import { pathArg, writeJson, type CliContext } from '@okstra/cli-kit';
import { parseApproval, readMachineFacts, submitApproved } from '@okstra/error-issue';
import { GhCli } from '../github/gh.js';

/** Parsed flags of `okstra error-issue submit` (program.ts). */
export interface ErrorIssueSubmitOptions {
  plan: string;
  approve?: string;
  dryRun?: boolean;
}

/**
 * `okstra error-issue submit --plan <file> --approve <ids|all>` (docs/error-issue.md
 * "submit"): the only command that writes outside the machine. The policy —
 * approval, last gate, check-then-send under the plan file's lock, recording
 * each URL — is `submitApproved` of libs/error-issue with the real machine and
 * the `gh` CLI. Prints `{ok, plan, sent, skipped}`; with `--dry-run`, after the
 * same checks, `{ok, plan, dryRun: true, wouldSend, skipped}` — gh is not run and
 * the plan file is not changed.
 * @returns 0; throws (exit 2) without `--approve` (or one naming no id, like `,,,`), for unknown ids, an
 *   unchecked plan, gh missing/unauthenticated, a gate refusal or a failed send.
 */
export async function runErrorIssueSubmit(opts: ErrorIssueSubmitOptions, ctx: CliContext): Promise<number> {
  const { io } = ctx;
  const approve = parseApproval(opts.approve);
  const planPath = pathArg(io, opts.plan);
  const request = { planPath, planLabel: opts.plan, approve, gh: new GhCli(io.env), machine: readMachineFacts(io.env), dryRun: opts.dryRun === true };
  const { sent, skipped, wouldSend } = await submitApproved(request);
  writeJson(io, opts.dryRun ? { ok: true, plan: planPath, dryRun: true, wouldSend, skipped } : { ok: true, plan: planPath, sent, skipped });
  return 0;
}
