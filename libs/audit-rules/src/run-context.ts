import type { RunManifest } from '@okstra/schemas/run-manifest';
import type { TeamState } from '@okstra/schemas/team-state';
import { joinPath as join } from '@okstra/paths';
import { OkstraError, sameTaskKey } from '@okstra/core';
import { isRegularIfExists, parseJsonText, readRegularFileSync } from '@okstra/state-file';
import { listDirSync, type FileIndex } from './files.js';
import type { InvariantId } from './invariants.js';
import type { UncheckedEdge } from './checks/facts.js';

/**
 * One run as the invariant checks see it: where it is, its parsed
 * run-manifest and team-state (null when absent or unreadable — the loader
 * already reported that as `artifact-invalid`), and its file index.
 * All paths are absolute.
 */
export interface RunUnderAudit {
  projectRoot: string;
  taskRoot: string;
  taskKey: string;
  runDir: string;
  taskType: string;
  /** The implementation stage (`stage-<N>/` level), when there is one. */
  stage?: number;
  /** Zero-padded seq from the run-manifest file name (`001`). */
  seq: string;
  manifestPath: string;
  manifest: RunManifest;
  teamStatePath: string | null;
  teamState: TeamState | null;
  files: FileIndex;
  /** Fact-table edges that could not be compared (checks/facts.ts), filled while the checks run. */
  unchecked?: UncheckedEdge[];
}

/** What one check found: an invariant id, a one-line message, and absolute evidence paths. */
export interface Finding {
  invariant: InvariantId;
  message: string;
  evidence: string[];
}

/** One invariant check: pure over the run and its files (reads go through `run.files`). */
export type RunCheck = (run: RunUnderAudit) => Promise<Finding[]> | Finding[];

/** True when the run-manifest says the run is over (`completed`, `failed` or `aborted`). */
export function runEnded(run: RunUnderAudit): boolean {
  return run.manifest.status !== 'running';
}

const failureLines = new WeakMap<RunUnderAudit, FailureLine[]>();

/** One line of the task's `errors-*.jsonl` files that names a run: the file and the parsed line. */
export interface FailureLine {
  file: string;
  line: Record<string, unknown>;
}

/**
 * True when a `failed` or `aborted` run logged its failure: a line of one of
 * its task's `errors-*.jsonl` files names this run ({@link failureLinesOf}).
 * Read once per run, only for failed/aborted runs.
 */
export function failureLogged(run: RunUnderAudit): boolean {
  if (run.manifest.status !== 'failed' && run.manifest.status !== 'aborted') return false;
  return failureLinesOf(run).length > 0;
}

/**
 * The lines of the task's `errors-*.jsonl` files that name this run: `taskType` equal, `seq` equal as a number,
 * and — when the line names a task — this run's task key (a line of another task with the same type and seq logs
 * that task's failure: docs/run-audit.md "The fact graph", edge `errors-line-task`). Read once per run.
 */
export function failureLinesOf(run: RunUnderAudit): FailureLine[] {
  let known = failureLines.get(run);
  if (known === undefined) {
    known = listDirSync(run.taskRoot)
      .filter((n) => /^errors-.+\.jsonl$/.test(n))
      .filter((n) => isRegularIfExists(join(run.taskRoot, n)))
      .flatMap((n) => linesNamingRun(readTextSync(join(run.taskRoot, n)), run).map((line) => ({ file: join(run.taskRoot, n), line })));
    failureLines.set(run, known);
  }
  return known;
}

/**
 * True when the run must have finished its workflow (docs/run-audit.md "Failed
 * and aborted runs"): a `completed` run, or a `failed`/`aborted` run that did
 * not log its failure (it ended wrong without saying so). A failed or aborted
 * run that logged its failure is judged only by what it left (rows, records,
 * files, times, provenance), not by what a finished run must have.
 */
export function mustHaveFinished(run: RunUnderAudit): boolean {
  if (run.manifest.status === 'completed') return true;
  return runEnded(run) && !failureLogged(run);
}

function linesNamingRun(text: string, run: RunUnderAudit): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  // A BOM before the first line is the file's encoding mark, not part of that line's JSON.
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (!line.includes(run.taskType)) continue;
    try {
      // parseJsonText: a line naming a key twice (`"seq":1,"seq":2`) logs nothing, so the stricter table applies.
      const r = parseJsonText(line) as { taskType?: unknown; seq?: unknown; taskKey?: unknown };
      if (r.taskType !== run.taskType || !(typeof r.seq === 'string' || typeof r.seq === 'number') || Number(r.seq) !== Number(run.seq)) continue;
      if (typeof r.taskKey === 'string' && !sameTaskKey(r.taskKey, run.taskKey) && !sameTaskKey(r.taskKey, run.manifest.taskKey)) continue;
      out.push(r as Record<string, unknown>);
    } catch {
      // a line that is not JSON logs nothing about this run
    }
  }
  return out;
}

/**
 * The text of a finding about JSON text `parseJsonText` refused: `is not valid
 * JSON (…)`, or `<json path>: holds the key "k" twice …` (docs/run-audit.md).
 */
export function jsonProblem(error: unknown): string {
  if (error instanceof OkstraError) return error.field ? `${error.field}: ${error.message}` : error.message;
  return `is not valid JSON: ${(error as Error).message}`;
}

function readTextSync(abs: string): string {
  try {
    return readRegularFileSync(abs)?.toString('utf8') ?? '';
  } catch {
    return '';
  }
}
