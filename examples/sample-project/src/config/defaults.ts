// Defaults for every setting the payments service reads from the environment.
// deploy/payments.env overrides them per environment.

export const defaults = {
  PORT: 8080,
  LOG_LEVEL: 'info',

  // Card gateway
  GATEWAY_URL: 'https://gateway.sandbox.invalid',
  GATEWAY_TOKEN: '',
  // Sockets per gateway origin; GatewayClient reads it at start-up.
  GATEWAY_MAX_SOCKETS: 5,
  GATEWAY_TIMEOUT_MS: 0,

  // Database
  DATABASE_URL: 'postgres://payments@localhost:5432/payments',
  DATABASE_POOL_SIZE: 10,

  // Refunds
  REFUND_DEADLINE_SEC: 900,
  REFUND_SWEEP_INTERVAL_MS: 60_000,

  // Settlement
  SETTLEMENT_WEBHOOK_SECRET: '',
  SETTLEMENT_BATCH_SIZE: 100,

  // Outbox
  OUTBOX_TABLE: 'outbox',
  OUTBOX_BATCH_SIZE: 50,
  // How often the outbox worker looks for new rows (ms).
  OUTBOX_POLL_MS: 1000,
  // How long a failed outbox row waits before its next attempt (ms).
  OUTBOX_RETRY_MS: 60_000,
} as const;

export type Settings = { -readonly [K in keyof typeof defaults]: (typeof defaults)[K] };

export const config: Settings = { ...defaults };
