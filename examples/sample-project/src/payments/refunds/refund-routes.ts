// POST /refunds and GET /refunds/:id.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refundService } from './refund-service';
import { RefundRejected } from './errors';

interface RefundBody {
  paymentId: string;
  amount: number;
  currency: string;
  reason?: string;
}

function badRequest(reply: FastifyReply, message: string) {
  return reply.code(400).send({ error: message });
}

function validate(body: RefundBody): string | null {
  if (!body.paymentId) return 'paymentId is required';
  if (typeof body.amount !== 'number') return 'amount must be a number';
  if (!/^[A-Z]{3}$/.test(body.currency)) return 'currency must be an ISO 4217 code';
  return null;
}

export async function registerRefundRoutes(app: FastifyInstance) {
  app.get('/refunds/:id', async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const refund = await refundService.find(request.params.id);
    if (!refund) return reply.code(404).send({ error: 'not found' });
    return reply.send(refund);
  });

  // The one writer of refunds: every refund request enters here,
  // authenticated by the gateway plugin registered before these routes.
  app.post('/refunds', handleCreate);
}

async function handleCreate(request: FastifyRequest<{ Body: RefundBody }>, reply: FastifyReply) {
  const problem = validate(request.body);
  if (problem) return badRequest(reply, problem);
  try {
    // A client that timed out and retries lands here again: nothing tells the two requests apart.
    const refund = await refundService.createRefund({
      paymentId: request.body.paymentId,
      amount: request.body.amount,
      currency: request.body.currency,
      reason: request.body.reason,
    });
    const settled = await refundService.settleRefund(refund.id);
    return reply.code(201).send({
      id: refund.id,
      status: settled.status,
      amount: request.body.amount,
    });
  } catch (err) {
    if (err instanceof RefundRejected) {
      return reply.code(422).send({ error: err.message, gatewayStatus: err.status });
    }
    request.log.error({ err }, 'refund failed');
    if ((err as Error).name === 'AbortError') return reply.code(504).send({ error: 'gateway timeout' });
    if ((err as Error).name === 'GatewayUnavailable') {
      return reply.code(502).send({ error: 'gateway unavailable' });
    }
    // Anything else is ours.
    return reply.code(500).send({ error: 'internal error' });
  }
}
