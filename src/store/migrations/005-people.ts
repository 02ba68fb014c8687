/**
 * People who sign in to the site, their sessions, and the daily count of their gateway calls. A user is
 * one customer: the keys, packs and credits of the customer are the user's.
 */
export const sql = `
-- The e-mail address is the customer's (unique, compared case-insensitively there).
CREATE TABLE users (
  id             text PRIMARY KEY,
  customer_id    text NOT NULL UNIQUE REFERENCES customers (id),
  password_hash  text NOT NULL,
  created_at     timestamptz NOT NULL
);

-- A signed-in browser. The token exists only in its cookie; the row holds its SHA-256.
CREATE TABLE sessions (
  token_hash  bytea PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users (id),
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- Gateway calls per customer, UTC day and limit class, added to in batches.
CREATE TABLE usage_daily (
  customer_id  text NOT NULL REFERENCES customers (id),
  day          date NOT NULL,
  class        text NOT NULL CHECK (class IN ('general', 'generation', 'ai')),
  calls        integer NOT NULL CHECK (calls > 0),
  PRIMARY KEY (customer_id, day, class)
);
`;
