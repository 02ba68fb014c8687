/**
 * The account lifecycle: verified addresses, single-use e-mail tokens (verification and password reset),
 * and customers kept for accounting after their person deleted the account.
 */
export const sql = `
-- Null until the person opened the link sent to their address; accounts made before this migration verify once.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;
-- The address a user signed up with, until it is verified: meanwhile their customer holds a placeholder
-- address, so an address nobody has verified is never taken, and one the admin CLI gave a customer can be claimed.
ALTER TABLE users ADD COLUMN claimed_email text;
CREATE INDEX users_claimed_email ON users (lower(claimed_email)) WHERE claimed_email IS NOT NULL;

-- A deleted account's customer: its address replaced by a placeholder, its orders and ledger kept.
ALTER TABLE customers ADD COLUMN deleted_at timestamptz;

-- A link sent by e-mail. The token exists only in the message; the row holds its SHA-256 and is deleted when used.
CREATE TABLE email_tokens (
  token_hash  bytea PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('verify', 'reset')),
  -- verify: the address the link proves (a new one for a change of address); reset: where it was sent
  email       text NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX email_tokens_user ON email_tokens (user_id);
CREATE INDEX email_tokens_expiry ON email_tokens (expires_at);
`;
