import { ApiError } from '../errors.js';
import type { Db, Queryable } from '../store/index.js';
import { lockCustomer } from './customers.js';
import { newId } from './ids.js';
import { recordMovement } from './ledger.js';
import type { GrantPackInput, Pack, PackKind } from './types.js';

/**
 * A pack is active for 12 calendar months (PostgreSQL month arithmetic, in UTC): from its purchase, or, for a
 * Studio pack bought while another is active, from the end of that one.
 */
export const PACK_LIFETIME = "interval '12 months'";
/** Largest pack an operator can grant in one go: a typo guard, far above any real pack. */
export const MAX_PACK_CREDITS = 1_000_000;

/** The months a pack is active, as the catalogue states them (src/checkout/catalogue.json). */
export const PACK_LIFETIME_MONTHS = 12;

/** SQL condition: the pack (columns unqualified) is active at the timestamptz parameter `$now`. */
export const activeAt = (now: string) => `refunded_at IS NULL AND expires_at > ${now}::timestamptz`;

const COLUMNS = 'id, customer_id, kind, credits, remaining, purchased_at, refunded_at, expires_at';

/**
 * SQL: when a pack of `$kind` granted to `$customer` at `$at` ends. A Studio pack bought while the
 * customer's Studio access runs extends it: 12 months from the latest end of their active Studio packs.
 * A top-up's credits last 12 months from its purchase.
 */
const endOf = (customer: string, kind: string, at: string) =>
  `(CASE WHEN ${kind} = 'studio' THEN GREATEST(${at}::timestamptz, COALESCE((SELECT max(expires_at) FROM packs
     WHERE customer_id = ${customer} AND kind = 'studio' AND ${activeAt(at)}), ${at}::timestamptz))
   ELSE ${at}::timestamptz END) + ${PACK_LIFETIME}`;

interface PackRow {
  id: string;
  customer_id: string;
  kind: PackKind;
  credits: number;
  remaining: number;
  purchased_at: Date;
  refunded_at: Date | null;
  expires_at: Date;
}

const toPack = (r: PackRow): Pack => ({
  id: r.id,
  customerId: r.customer_id,
  kind: r.kind,
  credits: r.credits,
  remaining: r.remaining,
  purchasedAt: r.purchased_at,
  refundedAt: r.refunded_at,
  expiresAt: r.expires_at,
});

export async function packById(tx: Queryable, packId: string): Promise<Pack | null> {
  const { rows } = await tx.query<PackRow>(`SELECT ${COLUMNS} FROM packs WHERE id = $1`, [packId]);
  return rows.length === 0 ? null : toPack(rows[0]!);
}

export async function grantPack(db: Db, input: GrantPackInput, now: Date): Promise<Pack> {
  return db.transaction((tx) => grantPackIn(tx, input, now));
}

/** Grants a pack in the caller's transaction (a paid order's fulfilment grants it with the order's change). */
export async function grantPackIn(tx: Queryable, input: GrantPackInput, now: Date): Promise<Pack> {
  const { customerId, credits, kind = 'studio', purchasedAt = now, idempotencyKey } = input;
  if (!Number.isInteger(credits) || credits < 1 || credits > MAX_PACK_CREDITS)
    throw new ApiError('invalid_body', {
      message: `credits must be a whole number from 1 to ${MAX_PACK_CREDITS}.`,
      field: 'credits',
    });
  if (Number.isNaN(purchasedAt.getTime()))
    throw new ApiError('invalid_body', { message: 'purchasedAt must be a date.', field: 'purchasedAt' });
  // A pack bought later than now would be active (and open the gateway) before anyone paid for it.
  if (purchasedAt.getTime() > now.getTime())
    throw new ApiError('invalid_body', { message: 'purchasedAt must not be in the future.', field: 'purchasedAt' });
  await lockCustomer(tx, customerId);
  const packId = newId('pack');
  const ledgerKey = `grant:${idempotencyKey ?? packId}`;
  if (idempotencyKey !== undefined) {
    const { rows } = await tx.query<{ pack_id: string; customer_id: string }>(
      'SELECT pack_id, customer_id FROM credit_ledger WHERE idempotency_key = $1',
      [ledgerKey],
    );
    if (rows.length > 0) {
      if (rows[0]!.customer_id !== customerId)
        throw new Error(`grant idempotency key ${idempotencyKey} was used for another customer`);
      return (await packById(tx, rows[0]!.pack_id))!;
    }
  }
  const { rows } = await tx.query<PackRow>(
    `INSERT INTO packs (id, customer_id, kind, credits, remaining, purchased_at, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $4, $5, $6, ${endOf('$2', '$3::text', '$5')}) RETURNING ${COLUMNS}`,
    [packId, customerId, kind, credits, purchasedAt, now],
  );
  await recordMovement(tx, {
    customerId,
    packId,
    kind: 'grant',
    remainingChange: credits,
    heldChange: 0,
    idempotencyKey: ledgerKey,
    at: now,
  });
  return toPack(rows[0]!);
}

/**
 * Refunds the pack: it stops being active and its remaining credits leave the balance (ledger: the
 * negative remainder). Credits on hold from it are settled as usual; one released later goes back to the
 * refunded pack, where it cannot be reserved. Refunding again changes nothing.
 */
export async function refundPack(db: Db, packId: string, now: Date): Promise<Pack> {
  return db.transaction((tx) => refundPackIn(tx, packId, now));
}

/** Refunds a pack in the caller's transaction (a payment refunded refunds it with the order's change). */
export async function refundPackIn(tx: Queryable, packId: string, now: Date): Promise<Pack> {
  const found = await packById(tx, packId);
  if (found === null) throw new ApiError('pack_not_found', { field: 'id' });
  await lockCustomer(tx, found.customerId);
  const { rows } = await tx.query<{ remaining: number; refunded_at: Date | null }>(
    'SELECT remaining, refunded_at FROM packs WHERE id = $1 FOR UPDATE',
    [packId],
  );
  const { remaining, refunded_at } = rows[0]!;
  if (refunded_at !== null) return (await packById(tx, packId))!;
  await tx.query('UPDATE packs SET refunded_at = $2, remaining = 0 WHERE id = $1', [packId, now]);
  await recordMovement(tx, {
    customerId: found.customerId,
    packId,
    kind: 'refund',
    remainingChange: -remaining,
    heldChange: 0,
    idempotencyKey: `refund:${packId}`,
    at: now,
  });
  return (await packById(tx, packId))!;
}

/**
 * The Studio pack active at `now` that ends last, or null: a customer with one is a Studio customer. A
 * top-up adds credits, never access.
 */
export async function activePack(db: Queryable, customerId: string, now: Date): Promise<Pack | null> {
  const { rows } = await db.query<PackRow>(
    `SELECT ${COLUMNS} FROM packs WHERE customer_id = $1 AND kind = 'studio' AND ${activeAt('$2')}
     ORDER BY expires_at DESC, id DESC LIMIT 1`,
    [customerId, now],
  );
  return rows.length === 0 ? null : toPack(rows[0]!);
}

export async function listPacks(db: Queryable, customerId: string): Promise<Pack[]> {
  const { rows } = await db.query<PackRow>(
    `SELECT ${COLUMNS} FROM packs WHERE customer_id = $1 ORDER BY purchased_at, id`,
    [customerId],
  );
  return rows.map(toPack);
}
