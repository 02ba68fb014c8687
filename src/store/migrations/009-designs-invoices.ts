/**
 * Saved designs (a name and a QrConfig without content, rendered later with new content), a Studio pack's
 * own end (a pack bought while another is active runs 12 months from that one's end), and invoices: one
 * per paid order, numbered from a sequence so a number is never given twice.
 */
export const sql = `
CREATE TABLE designs (
  id           text PRIMARY KEY,
  customer_id  text NOT NULL REFERENCES customers (id),
  name         text NOT NULL,
  config       jsonb NOT NULL,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);
CREATE INDEX designs_customer ON designs (customer_id, created_at);

-- Until now a pack ended 12 months after its purchase; the end is now its own, written when it is granted.
ALTER TABLE packs ADD COLUMN expires_at timestamptz;
UPDATE packs SET expires_at = purchased_at + interval '12 months';
ALTER TABLE packs ALTER COLUMN expires_at SET NOT NULL;

-- nextval is never rolled back: a number taken by a transaction that failed is skipped, never reused.
CREATE SEQUENCE invoice_numbers;
-- The seller, the buyer's address and the tax as they were when the order was paid: an invoice never changes.
CREATE TABLE invoices (
  number          bigint PRIMARY KEY,
  order_id        text NOT NULL UNIQUE REFERENCES orders (id),
  issued_at       timestamptz NOT NULL,
  buyer_email     text NOT NULL,
  seller_name     text NOT NULL,
  seller_address  text NOT NULL,
  seller_tax_id   text NOT NULL,
  tax_percent     numeric(5, 2) NOT NULL CHECK (tax_percent >= 0 AND tax_percent < 100)
);
`;
