/**
 * The monthly calls of marketplace users on a plan with a hard limit (Basic: no overage), counted exactly
 * as they are admitted (one statement each), so engines sharing the store refuse the call past the plan's
 * quota together. Paid plans are not counted here (their calls go to `marketplace_usage`, in batches).
 */
export const sql = `
CREATE TABLE marketplace_call_quota (
  marketplace_user  text NOT NULL,
  month             text NOT NULL CHECK (month ~ '^[0-9]{4}-[0-9]{2}$'),
  calls             integer NOT NULL CHECK (calls >= 0),
  PRIMARY KEY (marketplace_user, month)
);
`;
