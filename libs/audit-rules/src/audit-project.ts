import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InputError } from '@okstra/core';
import { okstraDir, joinPath as join } from '@okstra/paths';
import type { AuditUnchecked, AuditViolation, RunAuditReport } from '@okstra/schemas/audit';
import { auditRun, carryDirOf, type RunVerdict } from './audit-run.js';
import { discoverRuns, type DiscoveredRun, type SkippedRun } from './discover.js';
import { indexDirs, runArtifactDirs, type FileIndex } from './files.js';
import { AuditPool, auditWorkerCount } from './parallel/pool.js';

/** Options of {@link auditProject} / {@link runAudit}. */
export interface AuditOptions {
  /** Only the runs of this task (`<project-id>:<group>:<id>`). */
  taskKey?: string;
  /** Worker threads for a large project (default {@link auditWorkerCount}); 0 audits in this thread only. */
  workers?: number;
  /** Called after each run with the number of runs audited so far (progress display). */
  onProgress?: (runsScanned: number) => void;
  /** Receives each place discovery could not look into (./discover.ts `SkippedRun`). */
  onSkip?: (skipped: SkippedRun) => void;
}

/** One audited run, its violations (empty when it breaks no invariant) and the fact edges it left unchecked. */
export interface AuditedRun extends RunVerdict {
  run: DiscoveredRun;
}

/**
 * Check that `projectRoot` is an okstra project: an existing directory with a `.okstra` directory.
 * @returns the absolute project root.
 * @throws InputError (exit 2) otherwise.
 */
export async function assertProjectRoot(projectRoot: string): Promise<string> {
  const root = resolve(projectRoot);
  const isDir = async (p: string) => (await stat(p).catch(() => null))?.isDirectory() === true;
  if (!(await isDir(root))) throw new InputError('project root does not exist or is not a directory', { file: root });
  if (!(await isDir(okstraDir(root)))) throw new InputError('not an okstra project: no .okstra directory', { file: root });
  return root;
}

/**
 * The project root for a command run without `--project-root`: the nearest of
 * `cwd` and its ancestors that holds a `.okstra` directory, found upward the way
 * git finds `.git` (docs/run-audit.md).
 * @returns the absolute project root.
 * @throws InputError (exit 2) when neither `cwd` nor any parent has one.
 */
export async function findProjectRoot(cwd: string): Promise<string> {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if ((await stat(join(dir, '.okstra')).catch(() => null))?.isDirectory()) return dir;
    if (dirname(dir) === dir) break;
  }
  throw new InputError('not an okstra project: no .okstra directory here or in any parent directory', { file: start });
}

/**
 * Audit every run of a project, in the stable order of {@link discoverRuns}
 * (docs/run-audit.md). Streams: only the current run directory's file index
 * is held, so memory does not grow with the number of runs. In a built bin,
 * a project of more than {@link PARALLEL_AFTER} runs is audited by worker
 * threads as well (./parallel/pool.ts, `OKSTRA_AUDIT_WORKERS`): the runs come
 * out in the same order with the same violations, and an error is raised at
 * the same run, as when audited in this thread alone.
 * @throws InputError for an unusable project root or task key, or an artifact that is not a regular file.
 */
export async function* auditProject(projectRoot: string, options: AuditOptions = {}): AsyncGenerator<AuditedRun> {
  const root = await assertProjectRoot(projectRoot);
  yield* auditInOrder(root, discoverRuns(root, { taskKey: options.taskKey, onSkip: options.onSkip }), options.workers);
}

/**
 * Audit `runs` (discovery order) one at a time in this thread; runs of one
 * run directory share one file index.
 * @throws InputError as {@link auditProject}.
 */
export async function* auditRuns(projectRoot: string, runs: AsyncIterable<DiscoveredRun> | Iterable<DiscoveredRun>): AsyncGenerator<AuditedRun> {
  let indexedDir: string | null = null;
  let files: FileIndex | null = null;
  let turn = performance.now();
  for await (const run of runs) {
    // A long audit lets its process's timers run now and then (progress lines, worker-thread replies).
    if (performance.now() - turn > YIELD_EVERY_MS) {
      await new Promise(setImmediate);
      turn = performance.now();
    }
    if (run.runDir !== indexedDir || !files) {
      files = await indexDirs([...runArtifactDirs(run.runDir), carryDirOf(run.taskRoot)]);
      indexedDir = run.runDir;
    }
    yield { run, ...(await auditRun(projectRoot, run, files)) };
  }
}

/** Audit work (ms) between two turns of the event loop. */
const YIELD_EVERY_MS = 250;

/** Runs audited in this thread before worker threads start: a small project never pays a worker's start-up (~0.1 s). */
export const PARALLEL_AFTER = 200;
/** Runs per batch sent to a worker; a run directory is never split (its runs share one file index). */
const BATCH_RUNS = 25;
/** Batches audited but not yet yielded, at most: bounds memory while a slow batch holds up the order. */
const MAX_PENDING = 16;

interface Slot {
  runs: DiscoveredRun[];
  /** Violations per run; null when the worker failed (the batch is re-audited here, in order). */
  result: Promise<RunVerdict[] | null>;
  settled: boolean;
}

async function* auditInOrder(root: string, discovered: AsyncIterable<DiscoveredRun>, workersOption: number | undefined): AsyncGenerator<AuditedRun> {
  const it = discovered[Symbol.asyncIterator]();
  const head: DiscoveredRun[] = [];
  let done = false;
  while (head.length <= PARALLEL_AFTER) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
  }
  const workers = done ? 0 : (workersOption ?? auditWorkerCount());
  if (workers <= 0) {
    yield* auditRuns(root, done ? head : chain(head, it));
    return;
  }
  const pool = new AuditPool(workers);
  const pending: Slot[] = [];
  const emit = async function* (slot: Slot): AsyncGenerator<AuditedRun> {
    const verdicts = await slot.result;
    if (verdicts) for (let i = 0; i < slot.runs.length; i++) yield { run: slot.runs[i]!, ...verdicts[i]! };
    else yield* auditRuns(root, slot.runs);
  };
  try {
    for await (const runs of batches(chain(head, it))) {
      // A worker with room takes the batch; else this thread audits it, then lets the workers' replies in.
      let slot: Slot;
      if (pool.hasIdle) {
        const result = pool.audit(root, runs);
        slot = { runs, result, settled: false };
        void result.then(() => (slot.settled = true));
      } else {
        slot = { runs, result: Promise.resolve(await auditHere(root, runs)), settled: true };
        await new Promise(setImmediate);
      }
      pending.push(slot);
      while (pending.length > 0 && (pending[0]!.settled || pending.length > MAX_PENDING)) yield* emit(pending.shift()!);
    }
    while (pending.length > 0) yield* emit(pending.shift()!);
  } finally {
    await pool.close();
  }
}

/**
 * Each run's violations of one batch, in its order: what a worker thread
 * posts back (./parallel/audit-worker.ts) and what this thread computes when
 * every worker is full.
 * @throws InputError as {@link auditProject}.
 */
export async function auditBatch(projectRoot: string, runs: readonly DiscoveredRun[]): Promise<RunVerdict[]> {
  const out: RunVerdict[] = [];
  for await (const audited of auditRuns(projectRoot, runs)) out.push({ violations: audited.violations, unchecked: audited.unchecked });
  return out;
}

/** {@link auditBatch} here; null (re-audit in order) when it throws, so the error surfaces at its run. */
function auditHere(root: string, runs: DiscoveredRun[]): Promise<RunVerdict[] | null> {
  return auditBatch(root, runs).catch(() => null);
}

/** Consecutive runs in batches of about {@link BATCH_RUNS}, each ending at a run-directory boundary. */
async function* batches(runs: AsyncIterable<DiscoveredRun>): AsyncGenerator<DiscoveredRun[]> {
  let batch: DiscoveredRun[] = [];
  for await (const run of runs) {
    if (batch.length >= BATCH_RUNS && batch[batch.length - 1]!.runDir !== run.runDir) {
      yield batch;
      batch = [];
    }
    batch.push(run);
  }
  if (batch.length > 0) yield batch;
}

async function* chain<T>(first: readonly T[], rest: AsyncIterator<T>): AsyncGenerator<T> {
  yield* first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/**
 * `okstra run-audit` as a value: `{ok, projectRoot, runsScanned, runsSkipped, violations, unchecked}`
 * (docs/run-audit.md "Output"); `ok` is true exactly when there is no violation and no skipped place.
 * Read-only.
 * @throws InputError for an unusable project root or task key.
 */
export async function runAudit(projectRoot: string, options: AuditOptions = {}): Promise<RunAuditReport> {
  const root = await assertProjectRoot(projectRoot);
  const violations: AuditViolation[] = [];
  const runsSkipped: SkippedRun[] = [];
  const unchecked: AuditUnchecked[] = [];
  let runsScanned = 0;
  for await (const audited of auditProject(root, { ...options, onSkip: (s) => runsSkipped.push(s) })) {
    runsScanned++;
    for (const v of audited.violations) violations.push(v);
    for (const u of audited.unchecked) unchecked.push(u);
    options.onProgress?.(runsScanned);
  }
  // No all-clear without having looked: a place that may hold runs and was not read is not ok.
  return { ok: violations.length === 0 && runsSkipped.length === 0, projectRoot: root, runsScanned, runsSkipped, violations, unchecked };
}
