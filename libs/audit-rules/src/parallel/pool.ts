import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { RunVerdict } from '../audit-run.js';
import type { DiscoveredRun } from '../discover.js';

/** A batch sent to an audit worker: runs of whole run directories, in discovery order. */
export interface WorkerRequest {
  id: number;
  root: string;
  runs: DiscoveredRun[];
}

/** A worker's answer: each run's violations in the batch's order, or `failed` (the main thread re-audits the batch). */
export type WorkerReply = { id: number; verdicts: RunVerdict[] } | { id: number; failed: true };

/** The worker entry beside this module's file: `dist/audit-worker.js` in a built bin; absent when running from sources. */
const WORKER_URL = new URL('./audit-worker.js', import.meta.url);

/**
 * How many worker threads a parallel audit uses: `OKSTRA_AUDIT_WORKERS` (a
 * whole number, 0 = audit in this thread only), else one less than the
 * machine's available parallelism (the main thread audits too), at most 3.
 * 0 when the worker entry is not beside this module (tests on the sources).
 * @throws never: a malformed variable counts as unset.
 */
export function auditWorkerCount(env: NodeJS.ProcessEnv = process.env): number {
  if (WORKER_URL.protocol !== 'file:' || !existsSync(fileURLToPath(WORKER_URL))) return 0;
  const set = env['OKSTRA_AUDIT_WORKERS'];
  if (set !== undefined && /^[0-9]{1,2}$/.test(set)) return Number(set);
  return Math.min(3, Math.max(0, availableParallelism() - 1));
}

/** Batches a worker holds at once: the next one waits in its queue while it audits one, so it never idles on the main thread. */
const DEPTH = 2;

/**
 * A pool of audit worker threads. `audit(batch)` resolves to the batch's
 * violations, or null when the worker failed, crashed or exited (the caller
 * then audits the batch itself). Workers are unref'd, so a pool left open
 * never keeps the process alive; `close()` terminates them.
 */
export class AuditPool {
  /** Each live worker and the resolvers of the batches it holds, by id. */
  private readonly workers = new Map<Worker, Map<number, (v: RunVerdict[] | null) => void>>();
  private nextId = 0;

  constructor(size: number) {
    for (let i = 0; i < size; i++) this.spawn();
  }

  /** True when a worker can take a batch now. */
  get hasIdle(): boolean {
    return this.leastLoaded() !== null;
  }

  /** Send a batch to the least loaded worker; resolves null at once when none can take it. */
  audit(root: string, runs: DiscoveredRun[]): Promise<RunVerdict[] | null> {
    const worker = this.leastLoaded();
    if (!worker) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.workers.get(worker)!.set(id, resolve);
      worker.postMessage({ id, root, runs } satisfies WorkerRequest);
    });
  }

  /** Terminate every worker; batches still out resolve to null. */
  async close(): Promise<void> {
    const all = [...this.workers.keys()];
    for (const jobs of this.workers.values()) for (const resolve of jobs.values()) resolve(null);
    this.workers.clear();
    await Promise.all(all.map((w) => w.terminate()));
  }

  private leastLoaded(): Worker | null {
    let best: Worker | null = null;
    let load = DEPTH;
    for (const [worker, jobs] of this.workers) if (jobs.size < load) [best, load] = [worker, jobs.size];
    return best;
  }

  private spawn(): void {
    // node:worker_threads is loaded only for a large project: a small audit's start-up does not pay for it.
    const worker = new (process.getBuiltinModule('node:worker_threads').Worker)(WORKER_URL, { stdout: true, stderr: true });
    const jobs = new Map<number, (v: RunVerdict[] | null) => void>();
    this.workers.set(worker, jobs);
    worker.unref();
    // Nothing an audit prints is output: a stray write must not interleave with the report.
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on('message', (reply: WorkerReply) => {
      const resolve = jobs.get(reply.id);
      jobs.delete(reply.id);
      resolve?.('failed' in reply ? null : reply.verdicts);
    });
    // A worker that dies (out of memory, a crash) answers its batches with null and takes no more.
    const lost = () => {
      for (const resolve of jobs.values()) resolve(null);
      jobs.clear();
      this.workers.delete(worker);
    };
    worker.on('error', lost);
    worker.on('exit', lost);
  }
}
