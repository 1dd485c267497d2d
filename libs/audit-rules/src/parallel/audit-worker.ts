/**
 * The worker-thread entry of the parallel audit (./pool.ts): audits each batch
 * of runs it is sent and posts back their violations. Bundled as
 * `dist/audit-worker.js` beside the bin's chunks (tools/bundle-bin.mjs); a
 * batch that throws is answered `{ id, failed: true }`, and the main thread
 * re-audits it in order so the error surfaces exactly as a sequential audit's.
 */
import { parentPort } from 'node:worker_threads';
import { auditBatch } from '../audit-project.js';
import type { WorkerReply, WorkerRequest } from './pool.js';

const port = parentPort;
if (!port) throw new Error('audit-worker.js runs only as a worker thread');
// One batch at a time, in arrival order: the pool queues a second batch here while the first is audited.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: WorkerRequest) => {
  queue = queue.then(() => answer(request));
});

async function answer({ id, root, runs }: WorkerRequest): Promise<void> {
  let reply: WorkerReply;
  try {
    reply = { id, verdicts: await auditBatch(root, runs) };
  } catch {
    reply = { id, failed: true };
  }
  port!.postMessage(reply);
}
