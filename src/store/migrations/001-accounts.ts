/**
 * Customers, their API keys, Studio packs and credits, and the Idempotency-Key records of server AI.
 * Timestamps come from the application's clock (injectable in tests), never from now().
 */
export const sql = `
CREATE TABLE customers (
  id          text PRIMARY KEY,
  email       text NOT NULL,
  created_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX customers_email_key ON customers (lower(email));

-- The key itself is never stored: hash is HMAC-SHA-256(pepper, key), start its first characters for display.
CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  customer_id   text NOT NULL REFERENCES customers (id),
  hash          bytea NOT NULL UNIQUE,
  start         text NOT NULL,
  name          text,
  created_at    timestamptz NOT NULL,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_customer ON api_keys (customer_id);

-- Credits live per pack; remaining is what is left to reserve.
CREATE TABLE packs (
  id            text PRIMARY KEY,
  customer_id   text NOT NULL REFERENCES customers (id),
  credits       integer NOT NULL CHECK (credits > 0),
  remaining     integer NOT NULL CHECK (remaining >= 0),
  purchased_at  timestamptz NOT NULL,
  refunded_at   timestamptz,
  created_at    timestamptz NOT NULL
);
CREATE INDEX packs_customer ON packs (customer_id, purchased_at);

-- One credit held for one AI call, drawn from one pack; settled once (committed or released).
CREATE TABLE credit_reservations (
  id           text PRIMARY KEY,
  customer_id  text NOT NULL REFERENCES customers (id),
  pack_id      text NOT NULL REFERENCES packs (id),
  state        text NOT NULL CHECK (state IN ('held', 'committed', 'released')),
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  settled_at   timestamptz
);
CREATE INDEX credit_reservations_held_expiry ON credit_reservations (expires_at) WHERE state = 'held';
CREATE INDEX credit_reservations_held_customer ON credit_reservations (customer_id) WHERE state = 'held';

-- One row per movement. For every pack, the sum of remaining_change is packs.remaining; for every customer,
-- the sum of held_change is the number of held reservations.
CREATE TABLE credit_ledger (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_id       text NOT NULL REFERENCES customers (id),
  pack_id           text NOT NULL REFERENCES packs (id),
  reservation_id    text REFERENCES credit_reservations (id),
  kind              text NOT NULL CHECK (kind IN ('grant', 'reserve', 'commit', 'release', 'expire', 'refund')),
  remaining_change  integer NOT NULL,
  held_change       integer NOT NULL,
  idempotency_key   text NOT NULL UNIQUE,
  created_at        timestamptz NOT NULL
);
CREATE INDEX credit_ledger_customer ON credit_ledger (customer_id, id);

CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_ledger is append-only';
END
$$;
CREATE TRIGGER credit_ledger_append_only BEFORE UPDATE OR DELETE ON credit_ledger
  FOR EACH STATEMENT EXECUTE FUNCTION credit_ledger_append_only();

-- The first outcome of a server-AI request sent with an Idempotency-Key, replayed for its retries.
CREATE TABLE idempotency_keys (
  customer_id       text NOT NULL REFERENCES customers (id),
  key               text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  request_hash      bytea NOT NULL,
  state             text NOT NULL CHECK (state IN ('running', 'done')),
  started_at        timestamptz NOT NULL,
  created_at        timestamptz NOT NULL,
  response_status   integer,
  response_headers  jsonb,
  response_body     bytea,
  PRIMARY KEY (customer_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
`;
