// The gateway calls this when a refund settles on its side.
import type { FastifyInstance } from 'fastify';
import { db } from '../../lib/db';
import { verifySignature } from '../../lib/signature';

interface SettlementEvent {
  refund_id: string;
  status: 'settled' | 'failed';
  settled_at: string;
}

export async function registerSettlementWebhook(app: FastifyInstance) {
  app.post('/webhooks/gateway/settlement', async (request, reply) => {
    if (!verifySignature(request)) return reply.code(401).send();
    const event = request.body as SettlementEvent;
    if (event.status !== 'settled') return reply.code(204).send();
    // Written without reading the row first: a sweeper update between the
    // gateway settling and this write is overwritten, and this write wins.
    await db.query("UPDATE refunds SET status = 'SETTLED' WHERE gateway_refund_id = $1", [event.refund_id]);
    return reply.code(204).send();
  });
}
