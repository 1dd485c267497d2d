// Feature flags and switches of the payments service, read once at start-up.
import { config } from './defaults';

function flag(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  return raw === '1' || raw.toLowerCase() === 'true';
}

export interface PaymentFlags {
  /** Accept partial refunds (amount below the captured amount). */
  partialRefunds: boolean;
  /** Send the card token to the gateway in refund calls (older gateway API). */
  sendCardToken: boolean;
  /** Settle refunds inside the request instead of through the outbox. */
  syncSettlement: boolean;
  /** Log the gateway's response bodies at debug level. */
  logGatewayBodies: boolean;
}

export function readFlags(): PaymentFlags {
  return {
    partialRefunds: flag('REFUNDS_PARTIAL', true),
    sendCardToken: flag('GATEWAY_SEND_CARD_TOKEN', true),
    logGatewayBodies: flag('GATEWAY_LOG_BODIES', config.LOG_LEVEL === 'debug'),
    // The kill switch: on by default today; the outbox path is used when it is off.
    syncSettlement: flag('REFUNDS_SYNC_SETTLEMENT', true),
  };
}
