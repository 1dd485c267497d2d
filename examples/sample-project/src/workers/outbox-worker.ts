// Delivers outbox rows to their handlers (settlement, notifications).
import { db } from '../lib/db';
import { logger } from '../lib/logger';
import { config } from '../config/defaults';
import { outboxHandlers } from '../payments/outbox/registry';

interface OutboxRow {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
  next_attempt_at: Date;
}

const pollMs = Number(process.env.OUTBOX_POLL_MS ?? config.OUTBOX_POLL_MS);

async function claimBatch(): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `SELECT * FROM ${config.OUTBOX_TABLE}
      WHERE next_attempt_at <= now()
      ORDER BY id
      LIMIT $1
      FOR UPDATE SKIP LOCKED`,
    [config.OUTBOX_BATCH_SIZE],
  );
}

async function deliver(row: OutboxRow): Promise<void> {
  const handler = outboxHandlers.get(row.kind);
  if (!handler) throw new Error(`no outbox handler for '${row.kind}'`);
  await handler(row.payload);
}

async function markDone(row: OutboxRow): Promise<void> {
  await db.query(`DELETE FROM ${config.OUTBOX_TABLE} WHERE id = $1`, [row.id]);
}

async function tick(): Promise<void> {
  for (const row of await claimBatch()) {
    try {
      await deliver(row);
      await markDone(row);
    } catch (err) {
      logger.warn({ err, id: row.id, kind: row.kind }, 'outbox delivery failed');
      await scheduleRetry(row);
    }
  }
}

async function scheduleRetry(row: OutboxRow): Promise<void> {
  // A failed row waits OUTBOX_RETRY_MS (60 s by default) before its next attempt.
  const retryMs = config.OUTBOX_RETRY_MS;
  await db.query(
    `UPDATE ${config.OUTBOX_TABLE} SET attempts = attempts + 1, next_attempt_at = now() + ($2 || ' milliseconds')::interval WHERE id = $1`,
    [row.id, retryMs],
  );
}

export function startOutboxWorker(): NodeJS.Timeout {
  return setInterval(() => void tick(), pollMs);
}
