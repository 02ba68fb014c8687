/**
 * The marketplace channel's metering, per marketplace user and calendar month (UTC, `YYYY-MM`): managed-AI
 * designs counted exactly (each change is one statement), and calls by endpoint class, flushed in batches
 * from memory. Months are text, not dates, so no driver turns them into local-time instants.
 */
export const sql = `
CREATE TABLE managed_ai_usage (
  marketplace_user  text NOT NULL,
  month             text NOT NULL CHECK (month ~ '^[0-9]{4}-[0-9]{2}$'),
  -- the plan of the user's latest managed call this month
  plan              text NOT NULL,
  -- calls between reservation and answer; they count against a hard limit
  held              integer NOT NULL DEFAULT 0 CHECK (held >= 0),
  -- designs delivered, and of those, the ones past the plan's quota (paid plans only)
  designs           integer NOT NULL DEFAULT 0 CHECK (designs >= 0),
  overage           integer NOT NULL DEFAULT 0 CHECK (overage >= 0 AND overage <= designs),
  PRIMARY KEY (marketplace_user, month)
);

-- One managed call in flight. Settled once (a design delivered, or not); one left by a crashed engine is
-- released by the sweeper after expires_at.
CREATE TABLE managed_ai_holds (
  id                text PRIMARY KEY,
  marketplace_user  text NOT NULL,
  month             text NOT NULL,
  expires_at        timestamptz NOT NULL,
  FOREIGN KEY (marketplace_user, month) REFERENCES managed_ai_usage (marketplace_user, month)
);
CREATE INDEX managed_ai_holds_expiry ON managed_ai_holds (expires_at);

CREATE TABLE marketplace_usage (
  marketplace_user  text NOT NULL,
  month             text NOT NULL CHECK (month ~ '^[0-9]{4}-[0-9]{2}$'),
  endpoint_class    text NOT NULL,
  calls             bigint NOT NULL CHECK (calls >= 0),
  -- the plan of the user's latest counted call this month
  plan              text NOT NULL,
  PRIMARY KEY (marketplace_user, month, endpoint_class)
);
CREATE INDEX marketplace_usage_month ON marketplace_usage (month);
`;
