import type { Db, Queryable } from '../store/index.js';
import { requireCustomer } from './customers.js';
import { newId } from './ids.js';
import { issueInvoiceIn } from './invoices.js';
import { grantPackIn, refundPackIn } from './packs.js';
import type {
  CheckoutClosed,
  Fulfilment,
  NewOrder,
  Order,
  OrderState,
  Pack,
  PaymentRefunded,
  PaymentSucceeded,
  RefundOutcome,
  Seller,
  Waiver,
} from './types.js';

/**
 * Orders and what the payment provider says of them. Each change is one transaction that also records the
 * provider's event id, so a repeated delivery changes nothing; a paid order grants its pack in the same
 * transaction (once: the order's row lock, and the grant's idempotency key `order:<id>`), and a full
 * refund refunds it in the same transaction as it marks the order.
 */

export const orderColumns = `o.id, o.customer_id, c.email, o.offer_id, o.kind, o.credits, o.price, o.currency, o.provider,
  o.state, o.checkout_session_id, o.payment_intent_id, o.pack_id, o.created_at, o.paid_at, o.closed_at`;

export interface OrderRow {
  id: string;
  customer_id: string;
  email: string;
  offer_id: string;
  kind: Order['kind'];
  credits: number;
  price: number;
  currency: string;
  provider: Order['provider'];
  state: OrderState;
  checkout_session_id: string | null;
  payment_intent_id: string | null;
  pack_id: string | null;
  created_at: Date;
  paid_at: Date | null;
  closed_at: Date | null;
}

export const toOrder = (r: OrderRow): Order => ({
  id: r.id,
  customerId: r.customer_id,
  email: r.email,
  offerId: r.offer_id,
  kind: r.kind,
  credits: r.credits,
  price: r.price,
  currency: r.currency,
  provider: r.provider,
  state: r.state,
  checkoutSessionId: r.checkout_session_id,
  paymentIntentId: r.payment_intent_id,
  packId: r.pack_id,
  createdAt: r.created_at,
  paidAt: r.paid_at,
  closedAt: r.closed_at,
});

async function orderWhere(tx: Queryable, condition: string, value: string, lock = false): Promise<Order | null> {
  const { rows } = await tx.query<OrderRow>(
    `SELECT ${orderColumns} FROM orders o JOIN customers c ON c.id = o.customer_id WHERE ${condition}
     ${lock ? 'FOR UPDATE OF o' : ''}`,
    [value],
  );
  return rows.length === 0 ? null : toOrder(rows[0]!);
}

export const getOrder = (db: Queryable, orderId: string): Promise<Order | null> => orderWhere(db, 'o.id = $1', orderId);

/** An order of the signed-in buyer's customer and its waiver, in one transaction; no customer is made. */
export async function createOrder(db: Db, input: NewOrder, now: Date): Promise<Order> {
  return db.transaction(async (tx) => {
    const { customerId } = input;
    await requireCustomer(tx, customerId);
    const id = newId('ord');
    const { offer } = input;
    await tx.query(
      `INSERT INTO orders (id, customer_id, offer_id, kind, credits, price, currency, provider, state, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9)`,
      [id, customerId, offer.id, offer.kind, offer.credits, offer.price, offer.currency, input.provider, now],
    );
    await tx.query(
      `INSERT INTO withdrawal_waivers (order_id, consent, acknowledgement, text_version, text_sha256, given_at)
       VALUES ($1, true, true, $2, $3, $4)`,
      [id, input.waiver.textVersion, Buffer.from(input.waiver.textSha256), now],
    );
    return (await getOrder(tx, id))!;
  });
}

export async function orderWaiver(db: Queryable, orderId: string): Promise<Waiver | null> {
  const { rows } = await db.query<{ text_version: string; text_sha256: Uint8Array; given_at: Date }>(
    'SELECT text_version, text_sha256, given_at FROM withdrawal_waivers WHERE order_id = $1',
    [orderId],
  );
  const r = rows[0];
  return r === undefined
    ? null
    : { textVersion: r.text_version, textSha256: new Uint8Array(r.text_sha256), givenAt: r.given_at };
}

/** The provider's checkout session for the order, once it has made one. */
export async function attachCheckoutSession(db: Queryable, orderId: string, sessionId: string): Promise<void> {
  await db.query('UPDATE orders SET checkout_session_id = $2 WHERE id = $1', [orderId, sessionId]);
}

/** Advisory-lock class of payment intents: a payment and its refund are acted on one at a time. */
const PAYMENT_LOCK = 0x7061;

/**
 * Serialises the transactions about one payment. Its success and its refund reach us as different events,
 * possibly at once and in either order; each must see what the other wrote.
 */
async function lockPayment(tx: Queryable, paymentIntentId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PAYMENT_LOCK, paymentIntentId]);
}

/** Records the provider's event; false when it was recorded before (a retry or a repeat). */
async function firstDelivery(
  tx: Queryable,
  event: { id: string; type: string } | undefined,
  orderId: string | null,
  now: Date,
): Promise<boolean> {
  if (event === undefined) return true;
  const { rowCount } = await tx.query(
    `INSERT INTO payment_events (event_id, type, order_id, received_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (event_id) DO NOTHING`,
    [event.id, event.type, orderId, now],
  );
  return rowCount === 1;
}

/** The provider was paid exactly the order's price, in its currency. */
const paidInFull = (order: Order, paid: NonNullable<PaymentSucceeded['paid']>): boolean =>
  paid.amount === order.price && paid.currency?.toLowerCase() === order.currency;

/**
 * A payment of the order went through: its pack is granted, once, when the amount and currency paid are
 * the order's (a session paid otherwise closes the order as failed and grants nothing). A repeated event, another event for
 * the same payment, or one arriving after the refund changes nothing; a refund that arrived first means
 * the order is refunded, never fulfilled.
 */
export async function paymentSucceeded(db: Db, p: PaymentSucceeded, now: Date, seller: Seller): Promise<Fulfilment> {
  return db.transaction(async (tx) => {
    if (p.paymentIntentId !== undefined) await lockPayment(tx, p.paymentIntentId);
    const order = await orderWhere(tx, 'o.id = $1', p.orderId, true);
    if (!(await firstDelivery(tx, p.event, order?.id ?? null, now))) return { outcome: 'duplicate_event' };
    const otherSession =
      order !== null &&
      p.checkoutSessionId !== undefined &&
      order.checkoutSessionId !== null &&
      order.checkoutSessionId !== p.checkoutSessionId;
    if (order === null || otherSession) return { outcome: 'unknown_order' };
    if (order.state === 'paid' || order.state === 'refunded') return { outcome: 'already_done', order };
    if (p.paid !== undefined && !paidInFull(order, p.paid)) {
      // Recorded (the event above, the order closed as failed, payment id kept) and never granted.
      await tx.query(
        `UPDATE orders SET state = 'failed', closed_at = $2, payment_intent_id = COALESCE($3, payment_intent_id),
           checkout_session_id = COALESCE(checkout_session_id, $4)
         WHERE id = $1`,
        [order.id, now, p.paymentIntentId ?? null, p.checkoutSessionId ?? null],
      );
      return { outcome: 'amount_mismatch', order: (await getOrder(tx, order.id))!, paid: p.paid };
    }
    const refundedFirst =
      p.paymentIntentId !== undefined &&
      (await tx.query('SELECT 1 FROM payment_refunds WHERE payment_intent_id = $1', [p.paymentIntentId])).rowCount > 0;
    let pack: Pack | undefined;
    if (!refundedFirst)
      pack = await grantPackIn(
        tx,
        { customerId: order.customerId, credits: order.credits, kind: order.kind, idempotencyKey: `order:${order.id}` },
        now,
      );
    await tx.query(
      `UPDATE orders SET state = $2, pack_id = $3, paid_at = $4, closed_at = $5,
         payment_intent_id = COALESCE($6, payment_intent_id), checkout_session_id = COALESCE(checkout_session_id, $7)
       WHERE id = $1`,
      [
        order.id,
        refundedFirst ? 'refunded' : 'paid',
        pack?.id ?? null,
        now,
        refundedFirst ? now : null,
        p.paymentIntentId ?? null,
        p.checkoutSessionId ?? null,
      ],
    );
    // The receipt and the invoice, in the same transaction: a paid order always has both (receipts.ts,
    // invoices.ts).
    if (pack !== undefined) {
      await tx.query(
        `INSERT INTO receipts (order_id, state, next_attempt_at, created_at) VALUES ($1, 'pending', $2, $2)`,
        [order.id, now],
      );
      await issueInvoiceIn(tx, order, seller, now);
    }
    const updated = (await getOrder(tx, order.id))!;
    return pack === undefined
      ? { outcome: 'refunded_first', order: updated }
      : { outcome: 'granted', order: updated, pack };
  });
}

/**
 * A payment was refunded in full: its order's pack ends (refunded, its remaining credits gone). Kept even
 * when the payment's order is not known yet, for `paymentSucceeded` to find.
 */
export async function paymentRefunded(db: Db, p: PaymentRefunded, now: Date): Promise<RefundOutcome> {
  return db.transaction(async (tx) => {
    await lockPayment(tx, p.paymentIntentId);
    const order = await orderWhere(tx, 'o.payment_intent_id = $1', p.paymentIntentId, true);
    if (!(await firstDelivery(tx, p.event, order?.id ?? null, now))) return { outcome: 'duplicate_event' };
    await tx.query(
      'INSERT INTO payment_refunds (payment_intent_id, refunded_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [p.paymentIntentId, now],
    );
    if (order === null || order.state !== 'paid') return { outcome: 'recorded' };
    const pack = await refundPackIn(tx, order.packId!, now);
    await tx.query(`UPDATE orders SET state = 'refunded', closed_at = $2 WHERE id = $1`, [order.id, now]);
    return { outcome: 'refunded', order: (await getOrder(tx, order.id))!, pack };
  });
}

/** A checkout that ended without a payment (expired, or a delayed payment that failed); a paid order stays paid. */
export async function checkoutClosed(db: Db, p: CheckoutClosed, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await orderWhere(tx, 'o.id = $1', p.orderId, true);
    if (!(await firstDelivery(tx, p.event, order?.id ?? null, now))) return;
    if (order === null || order.state !== 'open') return;
    if (p.checkoutSessionId !== undefined && order.checkoutSessionId !== p.checkoutSessionId) return;
    await tx.query('UPDATE orders SET state = $2, closed_at = $3 WHERE id = $1', [order.id, p.state, now]);
  });
}
