import type { Db, Queryable } from '../store/index.js';
import { lockCustomer } from './customers.js';
import { newId } from './ids.js';
import { recordMovement } from './ledger.js';
import { activeAt } from './packs.js';
import type { CreditBalance, Reservation } from './types.js';

/**
 * Holds one credit from the active pack that expires first. The customer's row lock makes concurrent
 * reservations queue, so each one sees the remaining credits the previous one left: never an overdraw,
 * on any number of instances (READ COMMITTED takes a fresh snapshot per statement, after the lock).
 */
export async function reserveCredit(db: Db, customerId: string, now: Date, ttlMs: number): Promise<Reservation | null> {
  return db.transaction(async (tx) => {
    await lockCustomer(tx, customerId);
    const { rows } = await tx.query<{ id: string }>(
      `SELECT id FROM packs WHERE customer_id = $1 AND ${activeAt('$2')} AND remaining > 0
       ORDER BY purchased_at, id LIMIT 1`,
      [customerId, now],
    );
    if (rows.length === 0) return null;
    const packId = rows[0]!.id;
    const reservation: Reservation = {
      id: newId('res'),
      customerId,
      packId,
      expiresAt: new Date(now.getTime() + ttlMs),
    };
    await tx.query('UPDATE packs SET remaining = remaining - 1 WHERE id = $1', [packId]);
    await tx.query(
      `INSERT INTO credit_reservations (id, customer_id, pack_id, state, created_at, expires_at)
       VALUES ($1, $2, $3, 'held', $4, $5)`,
      [reservation.id, customerId, packId, now, reservation.expiresAt],
    );
    await recordMovement(tx, {
      customerId,
      packId,
      reservationId: reservation.id,
      kind: 'reserve',
      remainingChange: -1,
      heldChange: 1,
      idempotencyKey: `reserve:${reservation.id}`,
      at: now,
    });
    return reservation;
  });
}

interface ClosedRow {
  customer_id: string;
  pack_id: string;
}

interface ReservationClosing {
  customerId: string;
  /** False when the reservation had already been closed. */
  changed: boolean;
}

/**
 * Ends a held reservation: committed (the credit spent), released or expired (the credit back to its
 * pack). The conditional UPDATE lets exactly one of concurrent endings (commit, release, the sweeper)
 * win, and the others change nothing. Null for an unknown reservation.
 */
async function closeReservation(
  db: Db,
  reservationId: string,
  kind: 'commit' | 'release' | 'expire',
  now: Date,
): Promise<ReservationClosing | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<ClosedRow>(
      `UPDATE credit_reservations SET state = $2, settled_at = $3
       WHERE id = $1 AND state = 'held' RETURNING customer_id, pack_id`,
      [reservationId, kind === 'commit' ? 'committed' : 'released', now],
    );
    if (rows.length === 0) {
      const owner = await ownerOf(tx, reservationId);
      return owner === null ? null : { customerId: owner, changed: false };
    }
    const { customer_id: customerId, pack_id: packId } = rows[0]!;
    if (kind !== 'commit') await tx.query('UPDATE packs SET remaining = remaining + 1 WHERE id = $1', [packId]);
    await recordMovement(tx, {
      customerId,
      packId,
      reservationId,
      kind,
      remainingChange: kind === 'commit' ? 0 : 1,
      heldChange: -1,
      // The ledger's key for a reservation's end, as rows already stored carry it.
      idempotencyKey: `settle:${reservationId}`,
      at: now,
    });
    return { customerId, changed: true };
  });
}

async function ownerOf(tx: Queryable, reservationId: string): Promise<string | null> {
  const { rows } = await tx.query<{ customer_id: string }>(
    'SELECT customer_id FROM credit_reservations WHERE id = $1',
    [reservationId],
  );
  return rows.length === 0 ? null : rows[0]!.customer_id;
}

/** Spends the held credit; a reservation already closed (released, swept) stays as it is. */
export async function commitCredit(db: Db, reservationId: string, now: Date): Promise<CreditBalance> {
  const closed = await closeReservation(db, reservationId, 'commit', now);
  if (closed === null) throw new Error(`no reservation ${reservationId}`);
  return balance(db, closed.customerId, now);
}

/** Gives the held credit back to its pack; a reservation already closed (or unknown) is left alone. */
export async function releaseCredit(db: Db, reservationId: string, now: Date): Promise<void> {
  await closeReservation(db, reservationId, 'release', now);
}

/** How many expired holds one sweep releases at most; the next sweep takes the rest. */
const SWEEP_BATCH = 500;

/**
 * Releases holds past their expiry: what an instance that crashed mid-call left behind. Each is closed
 * in its own transaction by the same conditional UPDATE as a release, so sweepers on several instances
 * (and a late commit) never close one twice.
 */
export async function sweepExpiredReservations(db: Db, now: Date): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM credit_reservations WHERE state = 'held' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
    [now, SWEEP_BATCH],
  );
  let released = 0;
  for (const { id } of rows) if ((await closeReservation(db, id, 'expire', now))?.changed) released++;
  return released;
}

export async function balance(db: Queryable, customerId: string, now: Date): Promise<CreditBalance> {
  const { rows } = await db.query<CreditBalance>(
    `SELECT
       (SELECT COALESCE(SUM(remaining), 0)::int FROM packs WHERE customer_id = $1 AND ${activeAt('$2')}) AS available,
       (SELECT COUNT(*)::int FROM credit_reservations WHERE customer_id = $1 AND state = 'held') AS reserved`,
    [customerId, now],
  );
  return rows[0]!;
}
