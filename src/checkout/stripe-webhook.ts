import type Stripe from 'stripe';
import type { Route } from '../http/router.js';
import type { Checkout } from './checkout.js';
import type { PaymentEvent } from './payments.js';
import type { StripePayments } from './stripe.js';

/** Where Stripe delivers events (register it in the Stripe dashboard, with the events below). */
export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';

const idOf = (v: string | { id: string } | null): string | undefined => (typeof v === 'string' ? v : v?.id);

/**
 * What a verified Stripe event says of an order, or undefined for events of no interest and sessions
 * that are not ours (acknowledged and left alone). Events may come repeated and in any order: the
 * checkout records each event's id with the change it makes (src/accounts/orders.ts).
 */
export function paymentEventOf(event: Stripe.Event): PaymentEvent | undefined {
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
        return undefined;
      return {
        kind: 'paid',
        orderId,
        event: seen,
        checkoutSessionId: session.id,
        paymentIntentId: idOf(session.payment_intent),
        paid: { amount: session.amount_total, currency: session.currency },
      };
    }
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = event.data.object;
      const orderId = session.client_reference_id ?? session.metadata?.orderId;
      if (orderId === undefined) return undefined;
      const state = event.type === 'checkout.session.expired' ? 'expired' : 'failed';
      return { kind: 'closed', orderId, event: seen, checkoutSessionId: session.id, state };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      // Sent for partial refunds too; only a full one (`refunded`, the whole amount back) ends a pack.
      if (!charge.refunded || paymentIntentId === undefined) return undefined;
      return { kind: 'refunded', event: seen, paymentIntentId };
    }
    default:
      return undefined;
  }
}

/**
 * POST /api/stripe/webhook: the raw body verified against the Stripe-Signature header before anything is
 * parsed, then handed to the checkout. 200 once done; a store that is down answers 503, and Stripe
 * retries (for up to three days).
 */
export function stripeWebhookRoute(stripe: StripePayments, checkout: Checkout): Route {
  return {
    method: 'POST',
    path: STRIPE_WEBHOOK_PATH,
    auth: 'public',
    doc: {
      summary: "Stripe's events (checkout sessions completed, expired, failed; charges refunded), signed.",
      response: '{ received: true }',
    },
    handler: async (ctx) => {
      const event = paymentEventOf(stripe.event(await ctx.body(), ctx.headers['stripe-signature']));
      if (event !== undefined) await checkout.record(event);
      ctx.reply.json(200, { received: true });
    },
  };
}
