/**
 * Stripe's webhook on its own: what each event says of an order (paymentEventOf), the signature checked
 * on the raw bytes before anything is parsed, and the route handing what it verified to the checkout,
 * once, with the events as the loopback Stripe (test/helpers/stripe.ts) builds and signs them.
 */
import { describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import type { Checkout } from '../../src/checkout/checkout.js';
import type { PaymentEvent } from '../../src/checkout/payments.js';
import { StripePayments } from '../../src/checkout/stripe.js';
import { paymentEventOf, STRIPE_WEBHOOK_PATH, stripeWebhookRoute } from '../../src/checkout/stripe-webhook.js';
import type { RequestContext } from '../../src/http/router.js';
import { refundedCharge, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, signature, stripeEvent } from '../helpers/stripe.js';

const session = (over: Record<string, unknown> = {}) => ({
  id: 'cs_test_1',
  object: 'checkout.session',
  client_reference_id: 'ord_1',
  metadata: { orderId: 'ord_1' },
  payment_status: 'paid',
  payment_intent: 'pi_1',
  amount_total: 2900,
  currency: 'eur',
  ...over,
});
const asEvent = (e: ReturnType<typeof stripeEvent>) => e as unknown as Stripe.Event;
const stripe = new StripePayments(
  { secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET, api: undefined },
  { returnUrl: 'https://shop.example.com/done' },
);

describe('paymentEventOf', () => {
  it('a paid session is a payment of its order, with its session and payment intent', () => {
    const e = stripeEvent('checkout.session.completed', session(), 'evt_1');
    expect(paymentEventOf(asEvent(e))).toEqual({
      kind: 'paid',
      orderId: 'ord_1',
      event: { id: 'evt_1', type: 'checkout.session.completed' },
      checkoutSessionId: 'cs_test_1',
      paymentIntentId: 'pi_1',
      // What was paid, for the checkout to compare with the order's price.
      paid: { amount: 2900, currency: 'eur' },
    });
    const later = stripeEvent('checkout.session.async_payment_succeeded', session({ client_reference_id: null }));
    expect(paymentEventOf(asEvent(later))).toMatchObject({ kind: 'paid', orderId: 'ord_1' });
  });

  it('a session completed unpaid (a delayed method), or not ours, says nothing', () => {
    const unpaid = stripeEvent('checkout.session.completed', session({ payment_status: 'unpaid' }));
    expect(paymentEventOf(asEvent(unpaid))).toBeUndefined();
    const foreign = session({ client_reference_id: null, metadata: {} });
    expect(paymentEventOf(asEvent(stripeEvent('checkout.session.completed', foreign)))).toBeUndefined();
    expect(paymentEventOf(asEvent(stripeEvent('checkout.session.expired', foreign)))).toBeUndefined();
    expect(paymentEventOf(asEvent(stripeEvent('customer.created', { id: 'cus_1' })))).toBeUndefined();
  });

  it('an expired or failed session closes its order', () => {
    const expired = paymentEventOf(asEvent(stripeEvent('checkout.session.expired', session(), 'evt_x')));
    expect(expired).toEqual({
      kind: 'closed',
      orderId: 'ord_1',
      event: { id: 'evt_x', type: 'checkout.session.expired' },
      checkoutSessionId: 'cs_test_1',
      state: 'expired',
    });
    const failed = paymentEventOf(asEvent(stripeEvent('checkout.session.async_payment_failed', session())));
    expect(failed).toMatchObject({ kind: 'closed', state: 'failed' });
  });

  it('only a full refund of a charge is a refund', () => {
    const full = stripeEvent('charge.refunded', refundedCharge('pi_1', 2900, 2900), 'evt_r');
    expect(paymentEventOf(asEvent(full))).toEqual({
      kind: 'refunded',
      paymentIntentId: 'pi_1',
      event: { id: 'evt_r', type: 'charge.refunded' },
    });
    const partial = stripeEvent('charge.refunded', refundedCharge('pi_1', 2900, 1000));
    expect(paymentEventOf(asEvent(partial))).toBeUndefined();
  });
});

describe('the Stripe webhook route', () => {
  /** Delivers `payload` with `sig` to the route; the events the checkout was given, and the answer. */
  async function deliver(payload: string, sig: string | undefined) {
    const recorded: PaymentEvent[] = [];
    const checkout = { record: async (e: PaymentEvent) => recorded.push(e) } as unknown as Checkout;
    const route = stripeWebhookRoute(stripe, checkout);
    let answer: { status: number; body: unknown } | undefined;
    const ctx = {
      headers: sig === undefined ? {} : { 'stripe-signature': sig },
      body: async () => new TextEncoder().encode(payload),
      reply: { json: (status: number, body: unknown) => (answer = { status, body }) },
    } as unknown as RequestContext;
    const error = await Promise.resolve(route.handler(ctx)).then(
      () => undefined,
      (e: { code?: string }) => e.code,
    );
    return { recorded, answer, error };
  }

  it('hands a verified event to the checkout and acknowledges it', async () => {
    expect(stripeWebhookRoute(stripe, {} as Checkout)).toMatchObject({ method: 'POST', path: STRIPE_WEBHOOK_PATH });
    const payload = JSON.stringify(stripeEvent('checkout.session.completed', session(), 'evt_ok'));
    const r = await deliver(payload, signature(payload));
    expect(r.error).toBeUndefined();
    expect(r.answer).toEqual({ status: 200, body: { received: true } });
    expect(r.recorded).toEqual([expect.objectContaining({ kind: 'paid', orderId: 'ord_1' })]);
  });

  it('acknowledges events of no interest without telling the checkout', async () => {
    const payload = JSON.stringify(stripeEvent('customer.created', { id: 'cus_1' }));
    const r = await deliver(payload, signature(payload));
    expect(r.answer).toEqual({ status: 200, body: { received: true } });
    expect(r.recorded).toEqual([]);
  });

  it('refuses a delivery without a valid signature, and acts on nothing', async () => {
    const payload = JSON.stringify(stripeEvent('checkout.session.completed', session()));
    const refused = [
      await deliver(payload, undefined),
      await deliver(payload, signature(payload, 'whsec_SomeoneElsesSecret0123456789abcdef')),
      await deliver(payload.replace('ord_1', 'ord_2'), signature(payload)),
      await deliver(payload, signature(payload, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600)),
    ];
    for (const r of refused) expect(r).toEqual({ recorded: [], answer: undefined, error: 'invalid_webhook_signature' });
  });
});
