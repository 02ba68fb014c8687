import type { OrderHistory } from '../accounts/index.js';
import { invoiceNumberText, invoicePdf } from '../checkout/invoice.js';
import { ApiError } from '../errors.js';
import { type Guard, guarded, type Route } from '../http/router.js';
import type { OrderSummaryJson } from '../wire/site.js';
import { countParam, ok, route } from './answers.js';
import type { SignedIn } from './session-cookies.js';

/** Orders the dashboard may ask for at most. */
const MAX_ORDERS = 100;

/** The signed-in account's orders, and the invoice of each paid one as a PDF. */
export function orderRoutes({ accounts, guard }: { accounts: OrderHistory; guard: Guard<SignedIn> }): Route[] {
  return [
    guarded(guard, {
      ...route(
        'GET',
        '/api/account/orders',
        `The account’s orders, newest first, with their state (open, paid, refunded, expired, failed) and, once paid, the invoice number; ?limit= up to ${MAX_ORDERS}, default 50.`,
        '{ success, orders: [{ id, offerId, kind, credits, price, currency, state, createdAt, paidAt, invoiceNumber }] }',
      ),
      handler: async (ctx, { user }) => {
        const limit = countParam(ctx, 'limit', 50, MAX_ORDERS);
        const orders = (await accounts.ordersOf(user.customerId, limit)).map(
          ({ order: o, invoiceNumber }): OrderSummaryJson<Date> => ({
            id: o.id,
            offerId: o.offerId,
            kind: o.kind,
            credits: o.credits,
            price: o.price,
            currency: o.currency,
            state: o.state,
            createdAt: o.createdAt,
            paidAt: o.paidAt,
            invoiceNumber: invoiceNumber === null ? null : invoiceNumberText(invoiceNumber),
          }),
        );
        ok(ctx, { orders });
      },
    }),
    guarded(guard, {
      ...route(
        'GET',
        '/api/account/orders/:id/invoice.pdf',
        'The invoice of one of the account’s paid orders, as a PDF: the seller, the buyer, the item, the price without tax, the tax and the total, under a number never given twice. Another account’s order, or one not paid, is 404 invoice_not_found.',
        'The PDF.',
      ),
      doc: {
        summary:
          'The invoice of one of the account’s paid orders, as a PDF: the seller, the buyer, the item, the price without tax, the tax and the total, under a number never given twice. Another account’s order, or one not paid, is 404 invoice_not_found.',
        response: 'The PDF.',
        produces: ['application/pdf'],
      },
      handler: async (ctx, { user }) => {
        const invoice = await accounts.invoiceOf(user.customerId, ctx.params.id!);
        if (invoice === null) throw new ApiError('invoice_not_found', { field: 'id' });
        const pdf = await invoicePdf(invoice);
        ctx.reply.send(
          200,
          {
            'Content-Type': 'application/pdf',
            'Content-Disposition': `attachment; filename="${invoiceNumberText(invoice.number)}.pdf"`,
            'Cache-Control': 'private, no-store',
          },
          pdf,
        );
      },
    }),
  ];
}
