/**
 * Receipts to send: written in the transaction that fulfils an order (a transactional outbox), sent after
 * it by whichever site claims them, retried until sent.
 */
export const sql = `
CREATE TABLE receipts (
  order_id         text PRIMARY KEY REFERENCES orders (id),
  state            text NOT NULL CHECK (state IN ('pending', 'sent')),
  attempts         integer NOT NULL DEFAULT 0,
  -- a claim lasts until then; a receipt still pending after it is claimed again
  next_attempt_at  timestamptz NOT NULL,
  created_at       timestamptz NOT NULL,
  sent_at          timestamptz,
  message_id       text
);
CREATE INDEX receipts_pending ON receipts (next_attempt_at) WHERE state = 'pending';
`;
