// Refund creation and settlement: the service behind the refund routes.
import { randomUUID } from 'node:crypto';
import { db } from '../../lib/db';
import * as gateway from './gateway-client';
import { RefundError } from './errors';

export interface Refund {
  id: string;
  paymentId: string;
  amount: number;
  currency: string;
  status: 'PENDING' | 'SETTLED' | 'FAILED';
  gatewayRefundId: string | null;
  deadlineSec: number;
}

export interface CreateRefund {
  paymentId: string;
  amount: number;
  currency: string;
  reason?: string;
}

/** How long a refund may stay PENDING before the sweeper fails it (seconds). */
const REFUND_DEADLINE_SEC = 15 * 60;

async function find(id: string): Promise<Refund | null> {
  const rows = await db.query<Refund>('SELECT * FROM refunds WHERE id = $1', [id]);
  return rows[0] ?? null;
}

async function paymentOf(paymentId: string) {
  const rows = await db.query<{ id: string; cardToken: string; capturedAmount: number }>('SELECT * FROM payments WHERE id = $1', [paymentId]);
  if (!rows[0]) throw new RefundError(`unknown payment ${paymentId}`);
  return rows[0];
}

function checkAmount(req: CreateRefund) {
  // The only check on the amount before the gateway sees it.
  if (!(req.amount > 0)) throw new RefundError('amount must be positive');
}

async function insertPending(req: CreateRefund): Promise<Refund> {
  const refund: Refund = {
    id: randomUUID(),
    paymentId: req.paymentId,
    amount: req.amount,
    currency: req.currency,
    status: 'PENDING',
    gatewayRefundId: null,
    deadlineSec: Math.floor(Date.now() / 1000) + REFUND_DEADLINE_SEC,
  };
  await db.query(
    'INSERT INTO refunds (id, payment_id, amount, currency, status, deadline_sec) VALUES ($1, $2, $3, $4, $5, $6)',
    [refund.id, refund.paymentId, refund.amount, refund.currency, refund.status, refund.deadlineSec],
  );
  return refund;
}

async function recordGatewayId(refund: Refund, gatewayRefundId: string) {
  await db.query('UPDATE refunds SET gateway_refund_id = $2 WHERE id = $1', [refund.id, gatewayRefundId]);
  refund.gatewayRefundId = gatewayRefundId;
}

/**
 * Create a refund: validate, record it PENDING, ask the gateway.
 * Called once per POST /refunds, retries included.
 *
 * The gateway's answer is recorded on the row; settlement is a separate
 * call (settleRefund below).
 */
async function createRefund(req: CreateRefund): Promise<Refund> {
  checkAmount(req);
  const payment = await paymentOf(req.paymentId);
  const refund = await insertPending(req);
  // No idempotency key: a retried request is a second refund at the gateway.
  const accepted = await gateway.createRefund({ paymentId: payment.id, amount: req.amount, currency: req.currency, cardToken: payment.cardToken, reason: req.reason });
  await recordGatewayId(refund, accepted.id);
  return refund;
}

async function markSettled(refund: Refund) {
  await db.query("UPDATE refunds SET status = 'SETTLED' WHERE id = $1", [refund.id]);
  refund.status = 'SETTLED';
}

/**
 * Settle a refund at the gateway. The route awaits this before it answers,
 * so the gateway's settlement latency is part of every POST /refunds.
 */
async function settleRefund(id: string): Promise<Refund> {
  const refund = await find(id);
  if (!refund) throw new RefundError(`unknown refund ${id}`);
  if (!refund.gatewayRefundId) throw new RefundError(`refund ${id} has no gateway id`);
  if (refund.status === 'SETTLED') return refund;
  const settled = await gateway.settleRefund(refund.gatewayRefundId);
  if (settled.status === 'settled') await markSettled(refund);
  return refund;
}

export const refundService = { find, createRefund, settleRefund };
