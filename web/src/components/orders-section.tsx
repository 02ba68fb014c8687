import type { OrderState, OrderSummaryJson } from '../../../src/wire/site.js';
import { getJson } from '../lib/api.js';
import { formatDateTime } from '../lib/format.js';
import { useLoad } from '../lib/load.js';
import { DataTable } from './data-table.js';
import { Notice } from './field.js';

const STATES: Record<OrderState, string> = {
  open: 'Waiting for payment',
  paid: 'Paid',
  refunded: 'Refunded',
  expired: 'Not paid (checkout expired)',
  failed: 'Not fulfilled (payment did not match)',
};

const money = (minor: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);

/** The account's orders with their state, and the invoice of each paid one as a PDF. */
export function OrdersSection({ version }: { version: number }) {
  const { data, error } = useLoad(
    (signal) => getJson<{ orders: OrderSummaryJson[] }>('/api/account/orders', signal),
    [version],
  );
  const orders = data?.orders;
  return (
    <section class="card" aria-labelledby="orders-title">
      <h2 id="orders-title">Orders and invoices</h2>
      {error && <Notice kind="error">{error.message}</Notice>}
      <DataTable
        caption="Orders, newest first"
        rows={orders}
        rowKey={(o) => o.id}
        empty={
          <>
            No orders yet. <a href="/pricing">See the packs</a>.
          </>
        }
        columns={[
          { key: 'ordered', header: 'Ordered', cell: (o) => formatDateTime(o.createdAt) },
          {
            key: 'what',
            header: 'What',
            cell: (o) => (o.kind === 'studio' ? `Studio pack, ${o.credits} AI credits` : `${o.credits} AI credits`),
          },
          { key: 'price', header: 'Price', cell: (o) => money(o.price, o.currency) },
          { key: 'state', header: 'State', cell: (o) => STATES[o.state] },
          {
            key: 'invoice',
            header: 'Invoice',
            cell: (o) =>
              o.invoiceNumber === null ? (
                '—'
              ) : (
                <a href={`/api/account/orders/${encodeURIComponent(o.id)}/invoice.pdf`} download>
                  Invoice {o.invoiceNumber} (PDF)
                </a>
              ),
          },
        ]}
      />
    </section>
  );
}
