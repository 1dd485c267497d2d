import { failureLogged, type Finding, type RunUnderAudit } from '../run-context.js';

/**
 * Invariant 28 `failure-unlogged`: a run-manifest that says `failed` or
 * `aborted` needs a line of one of its task's `errors-*.jsonl` files naming the
 * run (`taskType`, `seq` as a number) — the case run-audit exists for, a run
 * "that ended wrong without ever logging a failure" (seed 000). A run that left
 * every artifact a finished run must have is still flagged: its status says it
 * ended wrong and nothing says why (docs/run-audit.md "Failed and aborted runs").
 */
export function checkFailureLogged(run: RunUnderAudit): Finding[] {
  const status = run.manifest.status;
  if ((status !== 'failed' && status !== 'aborted') || failureLogged(run)) return [];
  return [
    {
      invariant: 'failure-unlogged',
      message: `run-manifest says ${status} but no errors-*.jsonl line of its task names ${run.taskType} ${run.seq}: the run ended wrong without logging why`,
      evidence: [run.manifestPath],
    },
  ];
}
