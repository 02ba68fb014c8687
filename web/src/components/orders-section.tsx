import type { OrderState, OrderSummaryJson } from '../../../src/wire/site.js';
import { getJson } from '../lib/api.js';
import { formatDateTime } from '../lib/format.js';
import { useLoad } from '../lib/load.js';
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
      {orders && orders.length === 0 && (
        <p>
          No orders yet. <a href="/pricing">See the packs</a>.
        </p>
      )}
      {orders && orders.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Orders, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Ordered</th>
                <th scope="col">What</th>
                <th scope="col">Price</th>
                <th scope="col">State</th>
                <th scope="col">Invoice</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id}>
                  <td>{formatDateTime(o.createdAt)}</td>
                  <td>{o.kind === 'studio' ? `Studio pack, ${o.credits} AI credits` : `${o.credits} AI credits`}</td>
                  <td>{money(o.price, o.currency)}</td>
                  <td>{STATES[o.state]}</td>
                  <td>
                    {o.invoiceNumber === null ? (
                      '—'
                    ) : (
                      <a href={`/api/account/orders/${encodeURIComponent(o.id)}/invoice.pdf`} download>
                        Invoice {o.invoiceNumber} (PDF)
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
