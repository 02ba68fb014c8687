import type { Queryable } from '../store/index.js';
import type { LedgerEntry, LedgerKind } from './types.js';

export interface Movement {
  customerId: string;
  packId: string;
  reservationId?: string;
  kind: LedgerKind;
  remainingChange: number;
  heldChange: number;
  /**
   * Unique over the ledger: `grant:<pack or caller's key>`, `reserve:<reservation>`,
   * `settle:<reservation>` (a reservation is committed or released once, never both), `refund:<pack>`.
   */
  idempotencyKey: string;
  at: Date;
}

/** Appends one movement, in the caller's transaction (the table refuses UPDATE and DELETE). */
export async function recordMovement(tx: Queryable, m: Movement): Promise<void> {
  await tx.query(
    `INSERT INTO credit_ledger
       (customer_id, pack_id, reservation_id, kind, remaining_change, held_change, idempotency_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [m.customerId, m.packId, m.reservationId ?? null, m.kind, m.remainingChange, m.heldChange, m.idempotencyKey, m.at],
  );
}

interface LedgerRow {
  id: string;
  kind: LedgerKind;
  pack_id: string;
  reservation_id: string | null;
  remaining_change: number;
  held_change: number;
  created_at: Date;
}

export async function listLedger(db: Queryable, customerId: string, limit: number): Promise<LedgerEntry[]> {
  const { rows } = await db.query<LedgerRow>(
    `SELECT l.id::text AS id, kind, pack_id, reservation_id, remaining_change, held_change, created_at
     FROM credit_ledger l WHERE customer_id = $1 ORDER BY l.id DESC LIMIT $2`,
    [customerId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    packId: r.pack_id,
    reservationId: r.reservation_id,
    remainingChange: r.remaining_change,
    heldChange: r.held_change,
    createdAt: r.created_at,
  }));
}
