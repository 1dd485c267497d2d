-- Refund requests as the client sent them, for idempotent retries (stage 2 of the refund plan).
CREATE TABLE refund_requests (
  id              uuid PRIMARY KEY,
  idempotency_key text NOT NULL,
  fingerprint     text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refund_requests_idempotency_key ON refund_requests (idempotency_key);
