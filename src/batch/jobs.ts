import type { Db, Queryable } from '../store/index.js';

/**
 * Bulk jobs and their settled items in the store (migration 008). Every change is one statement, so engines
 * sharing PostgreSQL settle items of one job side by side: each item's row is written once (its primary
 * key), and the job's counts move on its row lock, each statement seeing the counts the previous one left.
 */

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobRow {
  id: string;
  status: JobStatus;
  total: number;
  done: number;
  failed: number;
  createdAt: Date;
  finishedAt: Date | null;
}

/** An item's outcome: a file, or why there is none. */
export interface SettledItem {
  row: number;
  filename: string;
  content: string;
  ok: boolean;
  verified?: string;
  scanScore?: number;
  corrections?: number;
  errorCode?: string;
  errorMessage?: string;
  bytes?: Uint8Array;
}

export interface NewJob {
  id: string;
  owner: string;
  total: number;
  design: Record<string, unknown>;
  expiresAt: Date;
  /** Rows refused before rendering (bad rows): settled at once. */
  refused: SettledItem[];
}

const JOB_COLUMNS = `id, status, total, done, failed, created_at AS "createdAt", finished_at AS "finishedAt"`;

const SETTLE = `
  WITH job AS (SELECT id FROM batch_jobs WHERE id = $1 AND status IN ('queued', 'running')),
  ins AS (
    INSERT INTO batch_results (job_id, row_number, filename, content, ok, verified, scan_score, corrections,
                               error_code, error_message, bytes)
    SELECT job.id, r.*
    FROM job, unnest($2::integer[], $3::text[], $4::text[], $5::boolean[], $6::text[], $7::real[], $8::integer[],
                     $9::text[], $10::text[], $11::bytea[]) AS r
    ON CONFLICT (job_id, row_number) DO NOTHING
    RETURNING ok
  ), counted AS (
    SELECT count(*) FILTER (WHERE ok)::integer AS ok, count(*) FILTER (WHERE NOT ok)::integer AS bad FROM ins
  )
  UPDATE batch_jobs j
  SET done = j.done + counted.ok, failed = j.failed + counted.bad,
      status = CASE WHEN j.done + j.failed + counted.ok + counted.bad >= j.total THEN 'done' ELSE 'running' END,
      finished_at = CASE WHEN j.done + j.failed + counted.ok + counted.bad >= j.total THEN now() END
  FROM counted
  WHERE j.id = $1 AND j.status IN ('queued', 'running') AND counted.ok + counted.bad > 0`;

/** Settles items of a job still queued or running; an item settled already (by another engine) is kept as it was. */
export async function settleItems(db: Queryable, jobId: string, items: readonly SettledItem[]): Promise<void> {
  if (items.length === 0) return;
  await db.query(SETTLE, [
    jobId,
    items.map((i) => i.row),
    items.map((i) => i.filename),
    items.map((i) => i.content),
    items.map((i) => i.ok),
    items.map((i) => i.verified ?? null),
    items.map((i) => i.scanScore ?? null),
    items.map((i) => i.corrections ?? 0),
    items.map((i) => i.errorCode ?? null),
    items.map((i) => i.errorMessage ?? null),
    items.map((i) => i.bytes ?? null),
  ]);
}

/** Records a job and settles its refused rows, in one transaction; a job of refused rows only is done. */
export async function createJob(db: Db, job: NewJob): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO batch_jobs (id, owner, status, total, design, expires_at) VALUES ($1, $2, 'queued', $3, $4, $5)`,
      [job.id, job.owner, job.total, JSON.stringify(job.design), job.expiresAt],
    );
    await settleItems(tx, job.id, job.refused);
  });
}

/** The owner's job; null for anyone else's, or one removed. */
export async function jobOf(db: Queryable, id: string, owner: string): Promise<JobRow | null> {
  const { rows } = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM batch_jobs WHERE id = $1 AND owner = $2`, [
    id,
    owner,
  ]);
  return rows[0] ?? null;
}

/** A job's shared design and whether its items are still to be rendered (not cancelled, removed or done). */
export async function designOf(
  db: Queryable,
  id: string,
): Promise<{ design: Record<string, unknown>; active: boolean } | null> {
  const { rows } = await db.query<{ design: Record<string, unknown>; status: JobStatus }>(
    'SELECT design, status FROM batch_jobs WHERE id = $1',
    [id],
  );
  const row = rows[0];
  return row ? { design: row.design, active: row.status === 'queued' || row.status === 'running' } : null;
}

/** The rows of `rows` settled already: a chunk taken again skips them. */
export async function settledRows(db: Queryable, jobId: string, rows: readonly number[]): Promise<Set<number>> {
  const { rows: found } = await db.query<{ row_number: number }>(
    'SELECT row_number FROM batch_results WHERE job_id = $1 AND row_number = ANY($2::integer[])',
    [jobId, rows],
  );
  return new Set(found.map((r) => r.row_number));
}

/** Cancels the owner's job if it is still queued or running; its status afterwards, null when it is not theirs. */
export async function cancelJob(db: Queryable, id: string, owner: string): Promise<JobRow | null> {
  await db.query(
    `UPDATE batch_jobs SET status = 'cancelled', finished_at = now()
     WHERE id = $1 AND owner = $2 AND status IN ('queued', 'running')`,
    [id, owner],
  );
  return jobOf(db, id, owner);
}

/** A job whose items could not be queued: failed, with what was settled (its refused rows) kept. */
export async function failJob(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE batch_jobs SET status = 'failed', finished_at = now() WHERE id = $1 AND status IN ('queued', 'running')`,
    [id],
  );
}

/** Removes jobs (and their files) past their time; returns how many. */
export async function removeExpiredJobs(db: Queryable, now: Date): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM batch_jobs WHERE expires_at <= $1', [now]);
  return rowCount;
}

export interface ResultRow {
  row: number;
  filename: string;
  content: string;
  ok: boolean;
  verified: string | null;
  scanScore: number | null;
  corrections: number;
  errorCode: string | null;
  errorMessage: string | null;
}

/** A page of a job's rendered files in row order, after `afterRow`. */
export async function filePage(
  db: Queryable,
  jobId: string,
  afterRow: number,
  limit: number,
): Promise<{ row: number; filename: string; bytes: Uint8Array }[]> {
  const { rows } = await db.query<{ row: number; filename: string; bytes: Uint8Array }>(
    `SELECT row_number AS row, filename, bytes FROM batch_results
     WHERE job_id = $1 AND ok AND row_number > $2 ORDER BY row_number LIMIT $3`,
    [jobId, afterRow, limit],
  );
  return rows;
}

/** A page of a job's manifest lines (every settled row, no bytes) in row order, after `afterRow`. */
export async function manifestPage(
  db: Queryable,
  jobId: string,
  afterRow: number,
  limit: number,
): Promise<ResultRow[]> {
  const { rows } = await db.query<ResultRow>(
    `SELECT row_number AS row, filename, content, ok, verified, scan_score AS "scanScore", corrections,
            error_code AS "errorCode", error_message AS "errorMessage"
     FROM batch_results WHERE job_id = $1 AND row_number > $2 ORDER BY row_number LIMIT $3`,
    [jobId, afterRow, limit],
  );
  return rows;
}
