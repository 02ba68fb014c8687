import type { Queryable } from '../store/index.js';
import { orderColumns, type OrderRow, toOrder } from './orders.js';
import { packById } from './packs.js';
import type { Invoice, Order, OrderSummary, Seller } from './types.js';

/**
 * Invoices of paid orders. The number comes from a sequence (nextval is never rolled back, so no number is
 * ever given twice, whatever fails) and is taken in the transaction that marks the order paid; the seller,
 * the buyer's address and the tax are copied in then, so an invoice reads the same after any change of
 * configuration or address.
 */
export async function issueInvoiceIn(tx: Queryable, order: Order, seller: Seller, now: Date): Promise<number> {
  const { rows } = await tx.query<{ number: string }>(
    `INSERT INTO invoices (number, order_id, issued_at, buyer_email, seller_name, seller_address, seller_tax_id,
       tax_percent)
     VALUES (nextval('invoice_numbers'), $1, $2, $3, $4, $5, $6, $7) RETURNING number`,
    [order.id, now, order.email, seller.name, seller.address, seller.taxId, seller.taxPercent],
  );
  return Number(rows[0]!.number);
}

interface InvoiceRow {
  number: string;
  issued_at: Date;
  buyer_email: string;
  seller_name: string;
  seller_address: string;
  seller_tax_id: string;
  tax_percent: string;
}

/** The invoice of the customer's order; null for another's order, an unknown one, or one never paid. */
export async function invoiceOf(db: Queryable, customerId: string, orderId: string): Promise<Invoice | null> {
  const { rows } = await db.query<OrderRow & InvoiceRow>(
    `SELECT ${orderColumns}, i.number, i.issued_at, i.buyer_email, i.seller_name, i.seller_address, i.seller_tax_id,
       i.tax_percent
     FROM orders o JOIN customers c ON c.id = o.customer_id JOIN invoices i ON i.order_id = o.id
     WHERE o.id = $1 AND o.customer_id = $2`,
    [orderId, customerId],
  );
  const r = rows[0];
  if (r === undefined) return null;
  const order = toOrder(r);
  return {
    number: Number(r.number),
    order,
    pack: order.packId === null ? null : await packById(db, order.packId),
    issuedAt: r.issued_at,
    buyerEmail: r.buyer_email,
    seller: {
      name: r.seller_name,
      address: r.seller_address,
      taxId: r.seller_tax_id,
      taxPercent: Number(r.tax_percent),
    },
  };
}

/** The customer's orders, newest first, with their invoice numbers. */
export async function ordersOf(db: Queryable, customerId: string, limit: number): Promise<OrderSummary[]> {
  const { rows } = await db.query<OrderRow & { number: string | null }>(
    `SELECT ${orderColumns}, i.number
     FROM orders o JOIN customers c ON c.id = o.customer_id LEFT JOIN invoices i ON i.order_id = o.id
     WHERE o.customer_id = $1 ORDER BY o.created_at DESC, o.id LIMIT $2`,
    [customerId, limit],
  );
  return rows.map((r) => ({ order: toOrder(r), invoiceNumber: r.number === null ? null : Number(r.number) }));
}
