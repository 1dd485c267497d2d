import { existsSync, realpathSync, rmSync, lstatSync } from 'node:fs';
import { isInside } from '@okstra/paths';
import type { CaptureResult } from '@okstra/providers';
import type { ProviderAnswer } from '@okstra/schemas/worker-usage';
import { readRegularFileSync, writeTextAtomic } from '@okstra/state-file';

/** The largest last-message file the wrapper reads (a final answer, not a transcript). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const MAX_REASON = 400;

/** Remove an earlier dispatch's last-message file, so its answer is never taken for this run's. */
export function clearLastMessage(path: string | null | undefined): void {
  if (!path) return;
  try {
    if (lstatSync(path).isFile()) rmSync(path);
  } catch {
    // absent
  }
}

/** The provider's last-message file as text; null when it is absent (or not a readable regular file). */
export function readLastMessage(path: string | null | undefined): string | null {
  if (!path) return null;
  try {
    return readRegularFileSync(path, { maxBytes: MAX_ANSWER_BYTES })?.toString('utf8') ?? null;
  } catch {
    return null;
  }
}

/**
 * When the provider exited 0 without writing its result file but gave a
 * non-empty final answer, write that answer there atomically (docs/team.md
 * "exec": the answer capture). @returns the sidecar's `answer` record (null
 * when the provider gave no answer).
 */
export async function deliverAnswer(o: {
  capture: CaptureResult;
  exitedCleanly: boolean;
  resultPath: string;
  realRoot: string;
}): Promise<ProviderAnswer | null> {
  const answer = o.capture.answer;
  if (!answer) return null;
  const record: ProviderAnswer = { source: answer.source, chars: answer.text.length, wroteResult: false };
  if (!o.exitedCleanly || answer.text.trim() === '' || existsSync(o.resultPath)) return record;
  await writeTextAtomic(o.resultPath, answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`);
  // Counted only when the file really landed inside the root (a symlinked parent cannot carry it out).
  record.wroteResult = isInside(o.realRoot, realpathSync(o.resultPath));
  return record;
}

/**
 * The wrapper verdict's reason refined by what the capture saw (docs/team.md
 * "exec"): exit 0 with the result missing says whether the provider gave no
 * final answer or an empty one; a failed run carries the provider's own
 * account of the failure (claude's error `result`, codex's `turn.failed`).
 */
export function refineReason(o: {
  verdict: { status: 'completed' | 'error'; reason: string | null };
  exitCode: number | null;
  captureKind: string;
  capture: CaptureResult;
  /** The last event the capture read (libs/providers `Capture.lastEvent`), named when a run crashed without its own account. */
  lastEvent?: string | null;
}): string | null {
  const { verdict, capture } = o;
  if (verdict.status === 'completed' || verdict.reason === null) return verdict.reason;
  // A crash mid-stream (killed, or a non-zero exit without the provider's own account) says where the stream stopped.
  if (o.lastEvent && !capture.providerError && (verdict.reason.startsWith('provider CLI killed') || (o.exitCode !== null && o.exitCode !== 0)))
    return clip(`${verdict.reason}; last event: ${o.lastEvent}`);
  const said = capture.providerError ? oneLine(capture.providerError) : null;
  if (o.exitCode === 0 && verdict.reason.startsWith('exit 0 but result missing') && o.captureKind !== 'none') {
    const why = !capture.answer ? 'the provider gave no final answer' : capture.answer.text.trim() === '' ? "the provider's final answer was empty" : null;
    const base = why ? verdict.reason.replace('exit 0 but result missing', `exit 0 but result missing and ${why}`) : verdict.reason;
    return clip(said ? `${base}; provider: ${said}` : base);
  }
  if (said && o.exitCode !== null && o.exitCode !== 0 && !verdict.reason.includes(said)) {
    return clip(
      verdict.reason === `exit ${o.exitCode}` || verdict.reason.endsWith('with no output')
        ? `exit ${o.exitCode}: ${said}`
        : `${verdict.reason}; provider: ${said}`,
    );
  }
  return verdict.reason;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string): string {
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}
