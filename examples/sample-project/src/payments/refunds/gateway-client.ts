// Client for the card gateway's refund API.
import { Agent, fetch } from 'undici';
import { config } from '../../config/defaults';
import { logger } from '../../lib/logger';
import { RefundRejected, GatewayUnavailable } from './errors';

export interface GatewayRefund {
  id: string;
  status: 'accepted' | 'settled' | 'rejected';
}

const agent = new Agent({ connections: 5, keepAliveTimeout: 10_000 });

function gatewayUrl(path: string): string {
  return `${config.GATEWAY_URL}${path}`;
}

function headers(): Record<string, string> {
  return {
    'content-type': 'application/json',
    authorization: `Bearer ${config.GATEWAY_TOKEN}`,
  };
}

export interface RefundRequest {
  paymentId: string;
  amount: number;
  currency: string;
  cardToken: string;
  reason?: string;
}

/**
 * Ask the gateway to refund a captured payment; resolves with its refund record.
 */
export async function createRefund(req: RefundRequest): Promise<GatewayRefund> {
  const init = {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      payment_id: req.paymentId,
      amount: req.amount,
      currency: req.currency,
      card_token: req.cardToken,
      reason: req.reason ?? 'requested_by_customer',
    }),
    dispatcher: agent,
  };
  return send('/v2/refunds', init);
}

async function send(
  path: string,
  init: { method: string; headers: Record<string, string>; body: string; dispatcher: Agent },
): Promise<GatewayRefund> {
  let res;
  try {
    res = await fetch(gatewayUrl(path), init);
  } catch (err) {
    logGatewayError(path, init, err);
    throw new GatewayUnavailable(String(err));
  }
  if (res.ok) return (await res.json()) as GatewayRefund;
  const text = await res.text();
  // The gateway's body says why; it goes to the log as it is.
  logGatewayError(path, init, text);
  // 5xx: the gateway is down or overloaded.
  if (res.status >= 500) throw new GatewayUnavailable(text);
  // Every other status is the gateway saying no.
  if (res.status >= 400) throw new RefundRejected(res.status, text);
  throw new GatewayUnavailable(`unexpected status ${res.status}`);
}

export async function settleRefund(refundId: string): Promise<GatewayRefund> {
  return send(`/v2/refunds/${refundId}/settle`, { method: 'POST', headers: headers(), body: '{}', dispatcher: agent });
}

// A failed call is logged with what was sent, so on-call can replay it
// against the gateway's sandbox.
function logGatewayError(path: string, init: { body: string }, detail: unknown) {
  logger.error({ path, body: init.body, detail }, 'gateway refund call failed');
}
