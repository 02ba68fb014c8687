/**
 * Buying a pack through Stripe, end to end over real HTTP: the built engine and site with STRIPE_SECRET_KEY
 * set and the stripe client pointed at a loopback server speaking Stripe's API (test/helpers/stripe.ts),
 * the accounts on PGlite and on the real PostgreSQL. A Checkout Session per order; the pack granted from the
 * signed webhook only, exactly once whether events are repeated, reordered or delivered at once; a webhook
 * that does not verify changes nothing; a full refund ends access at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import catalogue from '../../src/checkout/catalogue.json' with { type: 'json' };
import {
  type Consumer,
  type ConsumerStore,
  call,
  consumerConfig,
  consumerStore,
  refusal,
  startConsumer,
} from '../helpers/consumer.js';
import { DRIVERS, type DriverName } from '../helpers/databases.js';
import {
  deliver,
  type FakeStripe,
  type FakeSession,
  paidSession,
  refundedCharge,
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  signature,
  startFakeStripe,
  stripeEvent,
} from '../helpers/stripe.js';
import { SiteBrowser } from '../helpers/site-browser.js';
import { GIVEN_WAIVER } from '../helpers/waiver.js';

const STUDIO = catalogue.offers.find((o) => o.id === 'studio')!;

function stripeSuite(driver: DriverName): void {
  describe(`checkout through Stripe, accounts on ${driver}`, () => {
    let stripe: FakeStripe;
    let store: ConsumerStore;
    let c: Consumer;
    let buyers = 0;
    const logs: string[] = [];
    const outbox = mkdtempSync(join(tmpdir(), `qrfarm-stripe-${driver}-`));
    /** A new buyer, signed in, their address verified. */
    const signedIn = async () => {
      const b = new SiteBrowser(c.siteUrl);
      await b.verifiedAccount(outbox, `stripe-${driver}-${process.pid}-${buyers++}@example.com`);
      return b;
    };

    /** A checkout of the Studio pack by a new buyer: the answer and the session Stripe was asked for. */
    async function checkout(): Promise<{ orderId: string; customerId: string; session: FakeSession; key: string }> {
      const b = await signedIn();
      const a = await b.send('/api/checkout', { packId: 'studio', withdrawalWaiver: GIVEN_WAIVER });
      expect(a.status).toBe(200);
      expect(a.body.customerId).toBe(b.customerId);
      const session = stripe.sessions.at(-1)!;
      expect(a.body).toEqual({
        success: true,
        orderId: expect.stringMatching(/^ord_/),
        customerId: expect.stringMatching(/^cus_/),
        status: 'open',
        checkoutUrl: session.url,
      });
      const { key } = await c.accounts.issueKey(a.body.customerId);
      return { orderId: a.body.orderId, customerId: a.body.customerId, session, key };
    }
    const ping = (key: string) => call(c.siteUrl, '/api/v1/ping', { key });
    const packsOf = async (customerId: string) => (await c.accounts.listPacks(customerId)).length;
    const completed = (session: FakeSession, pi: string, eventId?: string) =>
      stripeEvent('checkout.session.completed', paidSession(session, pi), eventId);

    beforeAll(async () => {
      stripe = await startFakeStripe();
      store = await consumerStore(driver);
      c = await startConsumer(
        await consumerConfig({
          ...store.env,
          STRIPE_SECRET_KEY,
          STRIPE_WEBHOOK_SECRET,
          QR_STRIPE_API_URL: stripe.origin,
          QR_CHECKOUT_RETURN_URL: 'https://shop.example.com/done',
          QR_OUTBOX_DIR: outbox,
        }),
        undefined,
        (m) => logs.push(m),
      );
    });
    afterAll(async () => {
      await c?.close();
      await store?.close();
      await stripe?.close();
      rmSync(outbox, { recursive: true, force: true });
    });

    it('says at start that checkout goes through Stripe, not test mode', () => {
      expect(logs).toContainEqual(expect.stringMatching(/Checkout through Stripe at http:\/\/127\.0\.0\.1:\d+/));
      expect(logs.some((m) => /TEST MODE/.test(m))).toBe(false);
    });

    it('makes one Checkout Session per order, and grants nothing until Stripe says it is paid', async () => {
      const { orderId, customerId, session, key } = await checkout();
      expect(session.form).toMatchObject({
        mode: 'payment',
        client_reference_id: orderId,
        customer_email: expect.stringMatching(/@example\.com$/),
        'metadata[orderId]': orderId,
        'payment_intent_data[metadata][orderId]': orderId,
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': catalogue.currency,
        'line_items[0][price_data][unit_amount]': String(STUDIO.price),
        'line_items[0][price_data][product_data][name]': STUDIO.name,
        success_url: 'https://shop.example.com/done?checkout=success&session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'https://shop.example.com/done?checkout=cancelled',
      });
      expect(session.idempotencyKey).toBe(`checkout-${orderId}`);
      expect(await c.accounts.order(orderId)).toMatchObject({ state: 'open', checkoutSessionId: session.id });
      expect(refusal(await ping(key))).toEqual({ status: 402, success: false, code: 'studio_required' });

      // The buyer paying with a delayed method: the session completes unpaid, still nothing.
      const unpaid = stripeEvent('checkout.session.completed', { ...session.object, status: 'complete' });
      expect((await deliver(c.siteUrl, unpaid)).status).toBe(200);
      expect(await packsOf(customerId)).toBe(0);
      expect(stripe.problems).toEqual([]);
    });

    it('a paid session grants the pack once: the event repeated, delivered at once, and another event after it', async () => {
      const { orderId, customerId, session, key } = await checkout();
      const event = completed(session, `pi_${orderId}`);
      const first = await deliver(c.siteUrl, event);
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ received: true });
      expect((await ping(key)).status).toBe(200);
      // Stripe retries: the same event again, and five more at once.
      expect((await deliver(c.siteUrl, event)).status).toBe(200);
      const burst = await Promise.all(Array.from({ length: 5 }, () => deliver(c.siteUrl, event)));
      expect(burst.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const succeeded = stripeEvent('checkout.session.async_payment_succeeded', paidSession(session, `pi_${orderId}`));
      expect((await deliver(c.siteUrl, succeeded)).status).toBe(200);
      expect(await packsOf(customerId)).toBe(1);
      expect(await c.accounts.balance(customerId)).toEqual({ available: STUDIO.credits, reserved: 0 });
      expect(await c.accounts.order(orderId)).toMatchObject({ state: 'paid', paymentIntentId: `pi_${orderId}` });
    });

    it('reordered events grant once: the async success before the completion, a stale expiry after both', async () => {
      const { orderId, customerId, session, key } = await checkout();
      const pi = `pi_${orderId}`;
      const success = stripeEvent('checkout.session.async_payment_succeeded', paidSession(session, pi));
      const completion = completed(session, pi);
      const expiry = stripeEvent('checkout.session.expired', { ...session.object, status: 'expired' });
      for (const e of [success, completion, expiry, success]) expect((await deliver(c.siteUrl, e)).status).toBe(200);
      expect(await packsOf(customerId)).toBe(1);
      expect((await c.accounts.order(orderId))!.state).toBe('paid');
      expect((await ping(key)).status).toBe(200);
    });

    it('a signed event paying another amount or currency grants nothing: the order is closed as failed', async () => {
      const errors: string[] = [];
      const error = console.error;
      console.error = (...a: unknown[]) => errors.push(a.join(' '));
      try {
        for (const wrong of [{ amount_total: 1 }, { currency: catalogue.currency === 'usd' ? 'eur' : 'usd' }]) {
          const { orderId, customerId, session, key } = await checkout();
          const pi = `pi_${orderId}`;
          const event = stripeEvent('checkout.session.completed', { ...paidSession(session, pi), ...wrong });
          expect((await deliver(c.siteUrl, event)).status).toBe(200);
          expect(await packsOf(customerId)).toBe(0);
          expect(await c.accounts.order(orderId)).toMatchObject({ state: 'failed', packId: null, paymentIntentId: pi });
          expect(refusal(await ping(key))).toMatchObject({ status: 402, code: 'studio_required' });
          // Stripe repeating the session's event (another event id, the same amount paid) grants nothing either.
          const again = stripeEvent('checkout.session.async_payment_succeeded', {
            ...paidSession(session, pi),
            ...wrong,
          });
          expect((await deliver(c.siteUrl, again)).status).toBe(200);
          expect(await packsOf(customerId)).toBe(0);
          expect(errors.at(-1)).toMatch(new RegExp(`Order ${orderId} NOT fulfilled: paid`));
        }
      } finally {
        console.error = error;
      }
    });

    it('a webhook that does not verify is refused and changes nothing', async () => {
      const { customerId, session, orderId } = await checkout();
      const event = completed(session, `pi_${orderId}`);
      const payload = JSON.stringify(event);
      const tries: [string, (p: string) => string][] = [
        ['another secret', (p) => signature(p, 'whsec_SomeoneElsesSecret0123456789abcdef')],
        ['another body', () => signature(payload.replace('"paid"', '"unpaid"'))],
        ['ten minutes old', (p) => signature(p, STRIPE_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600)],
        ['no signature at all', () => ''],
      ];
      for (const [why, sign] of tries) {
        const r = await deliver(c.siteUrl, event, sign);
        expect(r.status, why).toBe(400);
        expect(await r.json()).toMatchObject({ success: false, code: 'invalid_webhook_signature' });
      }
      const unsigned = await fetch(`${c.siteUrl}/api/stripe/webhook`, { method: 'POST', body: payload });
      expect(unsigned.status).toBe(400);
      expect(await packsOf(customerId)).toBe(0);
      // The genuine delivery of that very event still works: a refusal recorded nothing.
      expect((await deliver(c.siteUrl, event)).status).toBe(200);
      expect(await packsOf(customerId)).toBe(1);
    });

    it('a full refund ends access at once (studio_required); a partial one does not', async () => {
      const { orderId, customerId, session, key } = await checkout();
      const pi = `pi_${orderId}`;
      await deliver(c.siteUrl, completed(session, pi));
      expect((await ping(key)).status).toBe(200);
      const partial = stripeEvent('charge.refunded', refundedCharge(pi, STUDIO.price, 500));
      expect((await deliver(c.siteUrl, partial)).status).toBe(200);
      expect((await ping(key)).status).toBe(200);

      const full = stripeEvent('charge.refunded', refundedCharge(pi, STUDIO.price, STUDIO.price));
      expect((await deliver(c.siteUrl, full)).status).toBe(200);
      const refused = await ping(key);
      expect(refusal(refused)).toEqual({ status: 402, success: false, code: 'studio_required' });
      expect(await c.accounts.order(orderId)).toMatchObject({ state: 'refunded' });
      expect(await c.accounts.balance(customerId)).toEqual({ available: 0, reserved: 0 });
      // The completion delivered again after the refund grants nothing.
      await deliver(c.siteUrl, completed(session, pi));
      expect(refusal(await ping(key)).code).toBe('studio_required');
    });

    it('a refund delivered before the payment it refunds: the order never opens the gateway', async () => {
      const { orderId, customerId, session, key } = await checkout();
      const pi = `pi_${orderId}`;
      await deliver(c.siteUrl, stripeEvent('charge.refunded', refundedCharge(pi, STUDIO.price, STUDIO.price)));
      await deliver(c.siteUrl, completed(session, pi));
      expect(await packsOf(customerId)).toBe(0);
      expect((await c.accounts.order(orderId))!.state).toBe('refunded');
      expect(refusal(await ping(key)).code).toBe('studio_required');
    });

    it('Stripe failing: 503 checkout_unavailable with Retry-After, and the order stays unpaid', async () => {
      const b = await signedIn();
      const before = stripe.sessions.length;
      stripe.failNext(3);
      const a = await b.send('/api/checkout', { packId: 'studio', withdrawalWaiver: GIVEN_WAIVER });
      expect(refusal(a)).toEqual({ status: 503, success: false, code: 'checkout_unavailable' });
      expect(a.headers.get('retry-after')).toBe('5');
      expect(stripe.sessions.length).toBe(before);
      // The waiver still comes first: no order is made without it, whatever Stripe does.
      const noWaiver = await b.send('/api/checkout', {
        packId: 'studio',
        withdrawalWaiver: { ...GIVEN_WAIVER, consent: false },
      });
      expect(refusal(noWaiver).code).toBe('withdrawal_waiver_required');
    });
  });
}

for (const driver of DRIVERS) stripeSuite(driver);
