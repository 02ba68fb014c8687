import { ApiError } from '../errors.js';
import type { Db } from '../store/index.js';
import { requireCustomer } from './customers.js';
import { newId } from './ids.js';
import { keyStart, newKey } from './key-format.js';
import { keyDigest } from './pepper.js';
import type { ApiKeyInfo, IssuedKey, KeyOwner } from './types.js';

export const MAX_NAME_LENGTH = 100;
/**
 * Live (unrevoked) keys a customer may hold at once: enough for rotation across many deployments, few
 * enough that a stolen session cannot mint keys without end. A 26th is refused (409 key_limit_reached)
 * until one is revoked.
 */
export const MAX_LIVE_KEYS = 25;

interface KeyRow {
  id: string;
  customer_id: string;
  start: string;
  name: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, customer_id, start, name, created_at, last_used_at, revoked_at';

const toInfo = (r: KeyRow): ApiKeyInfo => ({
  id: r.id,
  customerId: r.customer_id,
  start: r.start,
  name: r.name,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

export async function issueKey(
  db: Db,
  pepper: Uint8Array,
  customerId: string,
  name: string | undefined,
  now: Date,
): Promise<IssuedKey> {
  if (name !== undefined && (name.length === 0 || name.length > MAX_NAME_LENGTH))
    throw new ApiError('invalid_body', { message: `name must be 1 to ${MAX_NAME_LENGTH} characters.`, field: 'name' });
  const key = newKey();
  // The customer's row locked, so two issues at once count each other: never more than MAX_LIVE_KEYS live.
  return db.transaction(async (tx) => {
    const customer = await tx.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
    if (customer.rowCount === 0) throw new ApiError('customer_not_found', { field: 'customer' });
    const { rows: live } = await tx.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE customer_id = $1 AND revoked_at IS NULL',
      [customerId],
    );
    if (live[0]!.n >= MAX_LIVE_KEYS)
      throw new ApiError('key_limit_reached', {
        message: `This account already has ${MAX_LIVE_KEYS} live API keys, the most it may hold; revoke one first.`,
      });
    const { rows } = await tx.query<KeyRow>(
      `INSERT INTO api_keys (id, customer_id, hash, start, name, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING ${COLUMNS}`,
      [newId('key'), customerId, keyDigest(pepper, key), keyStart(key), name ?? null, now],
    );
    return { ...toInfo(rows[0]!), key };
  });
}

/** Revokes the key; a key already revoked keeps its first revocation time. Returns it with its digest. */
export async function revokeKey(db: Db, keyId: string, now: Date): Promise<{ info: ApiKeyInfo; digest: Buffer }> {
  const { rows } = await db.query<KeyRow & { hash: Uint8Array }>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING ${COLUMNS}, hash`,
    [keyId, now],
  );
  if (rows.length === 0) throw new ApiError('api_key_not_found', { field: 'id' });
  return { info: toInfo(rows[0]!), digest: Buffer.from(rows[0]!.hash) };
}

export async function listKeys(db: Db, customerId: string): Promise<ApiKeyInfo[]> {
  await requireCustomer(db, customerId);
  const { rows } = await db.query<KeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE customer_id = $1 ORDER BY created_at, id`,
    [customerId],
  );
  return rows.map(toInfo);
}

/** The owner of the active key with this digest, or null. */
export async function findKeyOwner(db: Db, digest: Uint8Array): Promise<KeyOwner | null> {
  const { rows } = await db.query<{ id: string; customer_id: string }>(
    'SELECT id, customer_id FROM api_keys WHERE hash = $1 AND revoked_at IS NULL',
    [digest],
  );
  return rows.length === 0 ? null : { customerId: rows[0]!.customer_id, keyId: rows[0]!.id };
}

/** Records a use; the condition keeps it to one write a minute per key across every instance. */
export async function touchKey(db: Db, keyId: string, now: Date): Promise<void> {
  await db.query(
    `UPDATE api_keys SET last_used_at = $2
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - interval '1 minute')`,
    [keyId, now],
  );
}
