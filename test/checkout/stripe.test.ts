/**
 * The Stripe payment provider (src/checkout/stripe.ts) against the loopback Stripe (test/helpers/stripe.ts),
 * which speaks Stripe's wire protocol: the Checkout Session made for an order with every field Stripe is
 * sent, one session per order however often it is asked, Stripe's failures (retried, then answered 503
 * checkout_unavailable without Stripe's words), and webhook deliveries verified on their raw bytes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '../../src/accounts/index.js';
import { CATALOGUE } from '../../src/checkout/catalogue.js';
import { StripePayments } from '../../src/checkout/stripe.js';
import { isApiError } from '../../src/errors.js';
import {
  type FakeStripe,
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  signature,
  startFakeStripe,
  stripeEvent,
} from '../helpers/stripe.js';

let stripe: FakeStripe;
let orders = 0;

beforeAll(async () => {
  stripe = await startFakeStripe();
});
afterAll(() => stripe?.close());
beforeEach(() => {
  expect(stripe.problems).toEqual([]);
});

const offer = CATALOGUE.offers[0]!;
const order = (): Order => ({
  id: `ord_stripe${orders++}`,
  customerId: 'cus_stripe',
  email: 'buyer@example.com',
  offerId: offer.id,
  kind: offer.kind,
  credits: offer.credits,
  price: offer.price,
  currency: offer.currency,
  provider: 'stripe',
  state: 'open',
  checkoutSessionId: null,
  paymentIntentId: null,
  packId: null,
  createdAt: new Date(),
  paidAt: null,
  closedAt: null,
});

function provider(returnUrl = 'https://shop.example.com/pricing', secretKey = STRIPE_SECRET_KEY) {
  const url = new URL(stripe.origin);
  return new StripePayments(
    {
      secretKey,
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      api: { protocol: 'http', host: url.hostname, port: Number(url.port) },
    },
    { returnUrl },
  );
}

/** The status, code, field, headers and message of what `p` was refused with. */
async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!isApiError(e)) throw new Error(`not refused with an ApiError: ${String(e)}`);
  return { status: e.status, code: e.code, field: e.field, headers: e.headers, message: e.message };
}

describe('begin', () => {
  it('makes one Checkout Session for the order, with the price, the buyer and the order id Stripe is given', async () => {
    const o = order();
    const start = await provider().begin(o, offer);
    const session = stripe.sessions.at(-1)!;
    expect(start).toEqual({ checkoutUrl: session.url, checkoutSessionId: session.id });
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(session.idempotencyKey).toBe(`checkout-${o.id}`);
    expect(session.form).toEqual({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': offer.currency,
      'line_items[0][price_data][unit_amount]': String(offer.price),
      'line_items[0][price_data][product_data][name]': offer.name,
      customer_email: 'buyer@example.com',
      client_reference_id: o.id,
      'metadata[orderId]': o.id,
      'payment_intent_data[metadata][orderId]': o.id,
      success_url: 'https://shop.example.com/pricing?checkout=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example.com/pricing?checkout=cancelled',
    });
  });

  it('adds its query to a return URL that has one already', async () => {
    await provider('https://shop.example.com/pricing?lang=de').begin(order(), offer);
    const { form } = stripe.sessions.at(-1)!;
    expect(form.success_url).toBe(
      'https://shop.example.com/pricing?lang=de&checkout=success&session_id={CHECKOUT_SESSION_ID}',
    );
    expect(form.cancel_url).toBe('https://shop.example.com/pricing?lang=de&checkout=cancelled');
  });

  it('asked again for the same order, gets the same session: Stripe makes no second one', async () => {
    const o = order();
    const before = stripe.sessions.length;
    const first = await provider().begin(o, offer);
    const again = await provider().begin(o, offer);
    expect(again).toEqual(first);
    expect(stripe.sessions.length).toBe(before + 1);
  });

  it('retries Stripe’s server errors: one session made in the end', async () => {
    const before = stripe.sessions.length;
    stripe.failNext(2);
    const start = await provider().begin(order(), offer);
    expect(stripe.sessions.length).toBe(before + 1);
    expect(start).toEqual({ checkoutUrl: stripe.sessions.at(-1)!.url, checkoutSessionId: stripe.sessions.at(-1)!.id });
  });

  it('when Stripe keeps failing: 503 checkout_unavailable, Retry-After, and nothing of Stripe’s message', async () => {
    const before = stripe.sessions.length;
    stripe.failNext(3);
    const r = await refusal(provider().begin(order(), offer));
    expect(r).toEqual({
      status: 503,
      code: 'checkout_unavailable',
      field: undefined,
      headers: { 'Retry-After': '5' },
      message: 'The payment provider could not start the checkout; retry shortly.',
    });
    expect(stripe.sessions.length).toBe(before);
  });

  it('a key Stripe refuses is the same 503, the key named nowhere in it', async () => {
    const r = await refusal(provider(undefined, 'sk_test_NotTheKeyStripeKnows000000000000000').begin(order(), offer));
    expect(r.code).toBe('checkout_unavailable');
    expect(JSON.stringify(r)).not.toContain('sk_test');
  });
});

describe('event', () => {
  const payload = (type = 'checkout.session.completed') =>
    JSON.stringify(stripeEvent(type, { id: 'cs_test_x', object: 'checkout.session' }));
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('gives the event of a delivery signed with the endpoint’s secret', () => {
    const body = payload();
    const event = provider().event(bytes(body), signature(body));
    expect(event).toEqual(JSON.parse(body));
    expect(event.type).toBe('checkout.session.completed');
  });

  it('refuses a delivery without Stripe-Signature: 400 invalid_webhook_signature saying so', async () => {
    expect(await refusal(Promise.resolve().then(() => provider().event(bytes(payload()), undefined)))).toEqual({
      status: 400,
      code: 'invalid_webhook_signature',
      field: undefined,
      headers: {},
      message: 'The Stripe-Signature header is missing.',
    });
  });

  it('refuses one signed with another secret, altered after signing, too old, or with a garbled header', async () => {
    const body = payload();
    const cases: [string, Uint8Array, string][] = [
      ['another secret', bytes(body), signature(body, 'whsec_SomeoneElsesSecret0123456789abcdefgh')],
      ['altered', bytes(body.replace('cs_test_x', 'cs_test_y')), signature(body)],
      ['re-encoded', bytes(JSON.stringify(JSON.parse(body), null, 1)), signature(body)],
      ['six minutes old', bytes(body), signature(body, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 360)],
      ['garbled', bytes(body), 'not a signature'],
      ['empty', bytes(body), ''],
    ];
    for (const [why, b, sig] of cases) {
      const r = await refusal(Promise.resolve().then(() => provider().event(b, sig)));
      expect({ status: r.status, code: r.code, message: r.message }, why).toEqual({
        status: 400,
        code: 'invalid_webhook_signature',
        message: 'The webhook signature does not verify: not from the payment provider, altered, or too old.',
      });
    }
  });

  it('takes a delivery four minutes old', () => {
    const body = payload('charge.refunded');
    const sig = signature(body, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 240);
    expect(provider().event(bytes(body), sig).type).toBe('charge.refunded');
  });
});
