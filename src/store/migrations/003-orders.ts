/**
 * Buying packs: a pack's kind (a Studio pack opens the gateway, a top-up only adds credits), orders, the
 * buyer's waiver of the right of withdrawal (Directive 2011/83/EU art. 16(m)) as given for each order, and
 * what the payment provider told us, each event once.
 */
export const sql = `
ALTER TABLE packs ADD COLUMN kind text NOT NULL DEFAULT 'studio' CHECK (kind IN ('studio', 'topup'));

-- An order keeps the offer as it was sold (the catalogue may change) and, once paid, the pack it granted.
CREATE TABLE orders (
  id                   text PRIMARY KEY,
  customer_id          text NOT NULL REFERENCES customers (id),
  offer_id             text NOT NULL,
  kind                 text NOT NULL CHECK (kind IN ('studio', 'topup')),
  credits              integer NOT NULL CHECK (credits > 0),
  -- in the currency's minor unit (cents)
  price                integer NOT NULL CHECK (price >= 0),
  currency             text NOT NULL CHECK (currency ~ '^[a-z]{3}$'),
  provider             text NOT NULL CHECK (provider IN ('stripe', 'test')),
  state                text NOT NULL CHECK (state IN ('open', 'paid', 'refunded', 'expired', 'failed')),
  checkout_session_id  text UNIQUE,
  payment_intent_id    text UNIQUE,
  pack_id              text UNIQUE REFERENCES packs (id),
  created_at           timestamptz NOT NULL,
  paid_at              timestamptz,
  closed_at            timestamptz
);
CREATE INDEX orders_customer ON orders (customer_id, created_at);

-- The two boxes, both ticked (a pre-ticked box or a clause in the terms does not count), the version of the
-- text shown and its SHA-256, and when. One per order, written with it.
CREATE TABLE withdrawal_waivers (
  order_id         text PRIMARY KEY REFERENCES orders (id),
  consent          boolean NOT NULL CHECK (consent),
  acknowledgement  boolean NOT NULL CHECK (acknowledgement),
  text_version     text NOT NULL,
  text_sha256      bytea NOT NULL CHECK (length(text_sha256) = 32),
  given_at         timestamptz NOT NULL
);

-- Events of the payment provider already acted on, by their id: a retried or repeated delivery is a no-op.
CREATE TABLE payment_events (
  event_id     text PRIMARY KEY,
  type         text NOT NULL,
  order_id     text REFERENCES orders (id),
  received_at  timestamptz NOT NULL
);

-- Full refunds by payment, kept even when the payment's own event has not arrived yet (events may come out
-- of order): the order is then never fulfilled.
CREATE TABLE payment_refunds (
  payment_intent_id  text PRIMARY KEY,
  refunded_at        timestamptz NOT NULL
);
`;
