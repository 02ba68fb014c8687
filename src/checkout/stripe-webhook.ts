import type Stripe from 'stripe';
import type { Accounts } from '../accounts/index.js';
import type { Route } from '../http/router.js';
import type { Checkout } from './checkout.js';
import type { StripePayments } from './stripe.js';

/** Where Stripe delivers events (register it in the Stripe dashboard, with the events below). */
export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';

const idOf = (v: string | { id: string } | null): string | undefined => (typeof v === 'string' ? v : v?.id);

/**
 * Acts on one verified event. Every change records the event's id in the same transaction, so a repeated
 * delivery is a no-op; events may come in any order (src/accounts/orders.ts). Events of no interest, and
 * sessions that are not ours, are acknowledged and left alone.
 */
export async function onStripeEvent(event: Stripe.Event, checkout: Checkout, accounts: Accounts): Promise<void> {
  const seen = { id: event.id, type: event.type };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      const orderId = session.client_reference_id ?? session.metadata?.orderId;
      // A delayed method (a bank debit) completes the session unpaid; its success is a later event.
      if (
        orderId === undefined ||
        (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required')
      )
        return;
      await checkout.fulfil({
        orderId,
        event: seen,
        checkoutSessionId: session.id,
        paymentIntentId: idOf(session.payment_intent),
      });
      return;
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = event.data.object;
      const orderId = session.client_reference_id ?? session.metadata?.orderId;
      if (orderId === undefined) return;
      const state = event.type === 'checkout.session.expired' ? 'expired' : 'failed';
      await accounts.checkoutClosed({ orderId, event: seen, checkoutSessionId: session.id, state });
      return;
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      // Sent for partial refunds too; only a full one (`refunded`, the whole amount back) ends a pack.
      if (!charge.refunded || paymentIntentId === undefined) return;
      await accounts.paymentRefunded({ event: seen, paymentIntentId });
      return;
    }
    default:
      return;
  }
}

/**
 * POST /api/stripe/webhook: the raw body verified against the Stripe-Signature header before anything is
 * parsed, then acted on. 200 once done; a store that is down answers 503, and Stripe retries (for up to
 * three days).
 */
export function stripeWebhookRoute(stripe: StripePayments, checkout: Checkout, accounts: Accounts): Route {
  return {
    method: 'POST',
    path: STRIPE_WEBHOOK_PATH,
    auth: 'public',
    doc: {
      summary: "Stripe's events (checkout sessions completed, expired, failed; charges refunded), signed.",
      response: '{ received: true }',
    },
    handler: async (ctx) => {
      const event = stripe.event(await ctx.body(), ctx.headers['stripe-signature']);
      await onStripeEvent(event, checkout, accounts);
      ctx.reply.json(200, { received: true });
    },
  };
}
