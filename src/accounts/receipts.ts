import type { Db, Queryable } from '../store/index.js';
import { getOrder, orderWaiver } from './orders.js';
import { packById } from './packs.js';
import type { PaidOrder, ReceiptState } from './types.js';

/**
 * The receipts waiting to be sent, claimed for `leaseMs`: one statement, skipping rows another site holds,
 * so two sites never claim the same receipt at once. A claim not followed by `receiptSent` (a send that
 * failed, a site that stopped) lets the receipt be claimed again when the lease ends. Returns order ids.
 */
export async function claimReceipts(db: Db, now: Date, leaseMs: number, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ order_id: string }>(
    `UPDATE receipts SET next_attempt_at = $2, attempts = attempts + 1
     WHERE order_id IN (
       SELECT order_id FROM receipts WHERE state = 'pending' AND next_attempt_at <= $1
       ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED
     ) RETURNING order_id`,
    [now, new Date(now.getTime() + leaseMs), limit],
  );
  return rows.map((r) => r.order_id);
}

export async function receiptSent(db: Queryable, orderId: string, messageId: string, now: Date): Promise<void> {
  await db.query(`UPDATE receipts SET state = 'sent', sent_at = $2, message_id = $3 WHERE order_id = $1`, [
    orderId,
    now,
    messageId,
  ]);
}

/** A send that failed: tried again `retryInMs` from `now`. */
export async function receiptFailed(db: Queryable, orderId: string, now: Date, retryInMs: number): Promise<void> {
  await db.query(`UPDATE receipts SET next_attempt_at = $2 WHERE order_id = $1 AND state = 'pending'`, [
    orderId,
    new Date(now.getTime() + retryInMs),
  ]);
}

export async function receiptState(db: Queryable, orderId: string): Promise<ReceiptState | null> {
  const { rows } = await db.query<{
    state: 'pending' | 'sent';
    attempts: number;
    sent_at: Date | null;
    message_id: string | null;
  }>('SELECT state, attempts, sent_at, message_id FROM receipts WHERE order_id = $1', [orderId]);
  const r = rows[0];
  return r === undefined ? null : { state: r.state, attempts: r.attempts, sentAt: r.sent_at, messageId: r.message_id };
}

/** What a receipt quotes: the order, the pack it granted, the waiver; null for an order not paid. */
export async function paidOrder(db: Queryable, orderId: string): Promise<PaidOrder | null> {
  const order = await getOrder(db, orderId);
  if (order?.packId == null) return null;
  const pack = await packById(db, order.packId);
  const waiver = await orderWaiver(db, orderId);
  return pack === null || waiver === null ? null : { order, pack, waiver };
}
