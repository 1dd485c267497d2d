/** What the wrapper observed of one provider CLI run. */
export interface ProviderRunObservation {
  /** Exit code, or null when killed by a signal or never started. */
  exitCode: number | null;
  signal: string | null;
  /** True once the child wrote anything on stdout. */
  sawOutput: boolean;
  /** The end of the child's stderr (the wrapper keeps the last few KiB). */
  stderrTail: string;
  /** Set when the executable could not be started (e.g. `ENOENT`). */
  spawnError?: string | null;
  /** Required completion paths that do not exist after the exit. */
  missingPaths: readonly string[];
}

const MAX_REASON = 400;

/**
 * The wrapper's terminal verdict (okstra-team issue, exec wrapper):
 * exit 0 with every required completion path present → `completed`;
 * exit 0 with one absent → `error` ("result missing"); a non-zero exit
 * before any output → `error` whose reason is the child's stderr (not
 * "result missing"); a signal or a start failure → `error` saying so.
 */
export function wrapperVerdict(o: ProviderRunObservation): { status: 'completed' | 'error'; reason: string | null } {
  const stderr = clip(o.stderrTail.replace(/\s+/g, ' ').trim());
  if (o.spawnError) return { status: 'error', reason: clip(`provider CLI did not start: ${o.spawnError}`) };
  if (o.signal) return { status: 'error', reason: clip(`provider CLI killed by ${o.signal}${stderr ? `: ${stderr}` : ''}`) };
  if (o.exitCode !== 0) {
    if (!o.sawOutput) return { status: 'error', reason: stderr ? clip(`exit ${o.exitCode}: ${stderr}`) : `exit ${o.exitCode} with no output` };
    return { status: 'error', reason: clip(`exit ${o.exitCode}${stderr ? `; stderr: ${stderr}` : ''}`) };
  }
  if (o.missingPaths.length > 0) return { status: 'error', reason: clip(`exit 0 but result missing: ${o.missingPaths.join(', ')}`) };
  return { status: 'completed', reason: null };
}

function clip(text: string): string {
  return text.length > MAX_REASON ? `…${text.slice(text.length - MAX_REASON)}` : text;
}
