// Small edits the mutation classes and legal variants share. Not part of the build.
import type { RunModel } from './model.js';

/** A mutation class: one way to break one seed rule (docs/run-audit.md "Seed rules"). */
export interface MutationClass {
  id: string;
  /** The seed rule it breaks (`S1` … of docs/run-audit.md). */
  rule: string;
  /** Edit the run; false when the run has nothing this class can break (it does not fit). */
  apply(r: RunModel): boolean;
}

/** A legal-but-unusual variant: must audit clean on every run it fits. */
export interface LegalVariant {
  id: string;
  apply(r: RunModel): boolean;
}

export const isWriter = (w: any) => w.workerId === 'report-writer' || /report[\s_-]*writer/i.test(String(w.role ?? ''));

/** The first completed non-writer row whose result file exists (task-relative path), or null. */
export function completedAnalyser(r: RunModel): { row: any; result: string } | null {
  for (const row of r.rows) {
    if (row.status !== 'completed' || isWriter(row)) continue;
    const result = r.local(row.resultPath) ?? r.p.result(row.workerId);
    if (r.has(result)) return { row, result };
  }
  return null;
}

/** The report writer's row, or undefined. */
export const writerRow = (r: RunModel) => r.rows.find(isWriter);

/** Edit the first completed analyser's row; false when there is none. */
export function editAnalyser(r: RunModel, fn: (row: any, result: string) => void): boolean {
  const a = completedAnalyser(r);
  if (!a) return false;
  return r.editRow(
    (w) => w.workerId === a.row.workerId,
    (w) => fn(w, a.result),
  );
}

/** Replace the first completed analyser's result text. */
export function setResult(r: RunModel, text: string | ((old: string, prompt: string) => string)): boolean {
  const a = completedAnalyser(r);
  if (!a) return false;
  const prompt = r.has(r.local(a.row.promptPath) ?? r.p.prompt(a.row.workerId)) ? r.text(r.local(a.row.promptPath) ?? r.p.prompt(a.row.workerId)) : '';
  r.set(a.result, typeof text === 'string' ? text : text(r.text(a.result), prompt));
  return true;
}

/** Shift an ISO instant by `minutes`. */
export function shift(iso: string, minutes: number): string {
  return new Date(Date.parse(iso) + minutes * 60_000).toISOString().replace('.000Z', 'Z');
}

/** Turn the report writer row into a lead fallback: the writer timed out with `reason`; reportAuthor lead. */
export function leadFallback(r: RunModel, reason: string, status = 'timeout'): boolean {
  const hit = r.editRow(isWriter, (w) => {
    w.status = status;
    w.reason = reason;
    if (status === 'not-run') delete w.startedAt;
    w.endedAt ??= r.manifest.endedAt ?? '2026-11-29T09:00:00Z';
  });
  if (!hit) return false;
  r.editManifest((m) => {
    m.reportAuthor = 'lead';
  });
  return true;
}

/** True when the main run has ended (`completed`, `failed`, `aborted`). */
export const ended = (r: RunModel) => r.manifest.status !== 'running';
export const completed = (r: RunModel) => r.manifest.status === 'completed';
