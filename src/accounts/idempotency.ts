import { createHash } from 'node:crypto';
import type { Db } from '../store/index.js';
import type { IdempotencyStart, StoredResponse } from './types.js';

/** Records are kept this long, then pruned: a retry a day later runs as a new request. */
export const IDEMPOTENCY_RETENTION = "interval '24 hours'";
/** Printable ASCII without spaces, 1 to 255 characters (what the table's CHECK and the header allow). */
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export const isValidIdempotencyKey = (key: string): boolean => KEY_SHAPE.test(key);

/** SHA-256 of what makes two requests the same one: method, path with query, body. */
export function hashRequest(method: string, pathAndQuery: string, body: Uint8Array): Buffer {
  return createHash('sha256').update(`${method}\n${pathAndQuery}\n`).update(body).digest();
}

interface RecordRow {
  request_hash: Uint8Array;
  state: 'running' | 'done';
  started_at: Date;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Uint8Array | null;
}

/**
 * Claims the key for this request, or says why not. A key still `running` after `leaseMs` belongs to an
 * instance that died mid-request: it is taken over, so a retry is not refused until the record is pruned.
 */
export async function beginIdempotent(
  db: Db,
  customerId: string,
  key: string,
  requestHash: Uint8Array,
  now: Date,
  leaseMs: number,
): Promise<IdempotencyStart> {
  if (!isValidIdempotencyKey(key)) throw new Error('Idempotency-Key must be 1 to 255 printable ASCII characters');
  const hash = Buffer.from(requestHash);
  return db.transaction(async (tx) => {
    // On a conflict with a row another transaction is inserting, this waits for it to commit.
    const inserted = await tx.query(
      `INSERT INTO idempotency_keys (customer_id, key, request_hash, state, started_at, created_at)
       VALUES ($1, $2, $3, 'running', $4, $4) ON CONFLICT (customer_id, key) DO NOTHING`,
      [customerId, key, hash, now],
    );
    if (inserted.rowCount === 1) return { outcome: 'started' };
    const { rows } = await tx.query<RecordRow>(
      `SELECT request_hash, state, started_at, response_status, response_headers, response_body
       FROM idempotency_keys WHERE customer_id = $1 AND key = $2 FOR UPDATE`,
      [customerId, key],
    );
    const found = rows[0];
    // Abandoned between our INSERT and SELECT: the key is free again; the client's retry will claim it.
    if (found === undefined) return { outcome: 'in_progress' };
    if (!hash.equals(Buffer.from(found.request_hash))) return { outcome: 'reused' };
    if (found.state === 'done')
      return {
        outcome: 'replay',
        response: {
          status: found.response_status!,
          headers: found.response_headers ?? {},
          body: new Uint8Array(found.response_body!),
        },
      };
    if (now.getTime() - found.started_at.getTime() < leaseMs) return { outcome: 'in_progress' };
    await tx.query('UPDATE idempotency_keys SET started_at = $3 WHERE customer_id = $1 AND key = $2', [
      customerId,
      key,
      now,
    ]);
    return { outcome: 'started' };
  });
}

export async function completeIdempotent(
  db: Db,
  customerId: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET state = 'done', response_status = $3, response_headers = $4::jsonb, response_body = $5
     WHERE customer_id = $1 AND key = $2 AND state = 'running'`,
    [customerId, key, response.status, JSON.stringify(response.headers), Buffer.from(response.body)],
  );
}

export async function abandonIdempotent(db: Db, customerId: string, key: string): Promise<void> {
  await db.query(`DELETE FROM idempotency_keys WHERE customer_id = $1 AND key = $2 AND state = 'running'`, [
    customerId,
    key,
  ]);
}

export async function pruneIdempotency(db: Db, now: Date): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM idempotency_keys WHERE created_at <= $1::timestamptz - ${IDEMPOTENCY_RETENTION}`,
    [now],
  );
  return rowCount;
}
