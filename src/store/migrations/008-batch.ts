/**
 * Bulk jobs (src/batch): one row per job, and one row per item of it once it is settled: the rendered file
 * (bytea) and what the manifest says of it. An item's row is written at most once (its primary key), so an
 * item rendered twice (its chunk taken again after an engine died) is kept once. The queue itself is
 * pg-boss's, in a schema of its own.
 */
export const sql = `
CREATE TABLE batch_jobs (
  id           text PRIMARY KEY,
  owner        text NOT NULL,
  status       text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  total        integer NOT NULL CHECK (total >= 0),
  -- The shared design (QrConfig without content), once per job rather than in every queued chunk.
  design       jsonb NOT NULL,
  done         integer NOT NULL DEFAULT 0,
  failed       integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz,
  expires_at   timestamptz NOT NULL
);
CREATE INDEX batch_jobs_expires ON batch_jobs (expires_at);

CREATE TABLE batch_results (
  job_id         text NOT NULL REFERENCES batch_jobs (id) ON DELETE CASCADE,
  row_number     integer NOT NULL,
  filename       text NOT NULL,
  content        text NOT NULL,
  ok             boolean NOT NULL,
  verified       text,
  scan_score     real,
  corrections    integer NOT NULL DEFAULT 0,
  error_code     text,
  error_message  text,
  bytes          bytea,
  PRIMARY KEY (job_id, row_number)
);
`;
