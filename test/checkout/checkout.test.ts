/**
 * The checkout service on its own: bodies refused with the envelope the site answers, an order made and
 * paid at once in test mode, an order opened on a loopback Stripe (test/helpers/stripe.ts) with its
 * session recorded by the checkout, and every payment event through `record`, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/errors.js';
import { CATALOGUE } from '../../src/checkout/catalogue.js';
import { TEST_MODE } from '../../src/checkout/payments.js';
import { StripePayments } from '../../src/checkout/stripe.js';
import { accountsFixture, DRIVERS, type DriverName } from '../helpers/databases.js';
import { type FakeStripe, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, startFakeStripe } from '../helpers/stripe.js';
import { GIVEN_WAIVER } from '../helpers/waiver.js';

// The build's: its bodies are checked by the schemas compiled at build (dist/src/schema/compiled.js).
const { Checkout } = (await import(
  new URL('../../dist/src/checkout/checkout.js', import.meta.url).href
)) as typeof import('../../src/checkout/checkout.js');

const refusal = async (p: Promise<unknown>) => {
  const e = (await p.then(
    () => undefined,
    (x: unknown) => x,
  )) as ApiError;
  expect(e, 'refused').toBeDefined();
  return { code: e.code, status: e.status, field: e.field };
};

function checkoutSuite(driver: DriverName): void {
  describe(`Checkout on ${driver}`, () => {
    const f = accountsFixture(driver);
    let stripe: FakeStripe;
    let buyers = 0;
    const body = (over: Record<string, unknown> = {}) => ({
      packId: 'studio',
      withdrawalWaiver: GIVEN_WAIVER,
      ...over,
    });
    /** The signed-in buyer the site passes: an existing customer. */
    const buyer = async () => ({
      customerId: (await f.accounts.createCustomer(`checkout-${driver}-${buyers++}@example.com`)).id,
    });

    beforeAll(async () => {
      stripe = await startFakeStripe();
    });
    afterAll(() => stripe?.close());

    const stripeCheckout = (onPaid = () => {}) => {
      const url = new URL(stripe.origin);
      const settings = {
        secretKey: STRIPE_SECRET_KEY,
        webhookSecret: STRIPE_WEBHOOK_SECRET,
        api: { protocol: 'http' as const, host: url.hostname, port: Number(url.port) },
      };
      const payments = new StripePayments(settings, { returnUrl: 'https://shop.example.com/done' });
      return new Checkout(f.accounts, CATALOGUE, payments, onPaid);
    };

    it('sells nothing without a provider', async () => {
      const checkout = new Checkout(f.accounts, CATALOGUE, undefined);
      expect(await refusal(checkout.start(body(), await buyer()))).toMatchObject({
        code: 'checkout_unavailable',
        status: 503,
      });
    });

    it('refuses bodies with the code, status and field the site answers', async () => {
      const checkout = new Checkout(f.accounts, CATALOGUE, TEST_MODE);
      const invalid = (field?: string) => ({ code: 'invalid_body', status: 400, field });
      expect(await refusal(checkout.start([], await buyer()))).toEqual(invalid());
      expect(await refusal(checkout.start(body({ coupon: 'x' }), await buyer()))).toEqual(invalid('coupon'));
      expect(await refusal(checkout.start(body({ packId: 'gold' }), await buyer()))).toEqual(invalid('packId'));
      // The buyer is the session's account: an address in the body is refused, never looked up.
      expect(await refusal(checkout.start(body({ email: 'someone@example.com' }), await buyer()))).toEqual(
        invalid('email'),
      );
      const waiver = async (w: unknown, field: string) =>
        expect(refusal(checkout.start(body({ withdrawalWaiver: w }), await buyer()))).resolves.toEqual({
          code: 'withdrawal_waiver_required',
          status: 400,
          field,
        });
      for (const none of [undefined, null, [], 'yes', {}]) await waiver(none, 'withdrawalWaiver.consent');
      await waiver({ ...GIVEN_WAIVER, consent: false }, 'withdrawalWaiver.consent');
      await waiver({ ...GIVEN_WAIVER, consent: 'true' }, 'withdrawalWaiver.consent');
      await waiver({ ...GIVEN_WAIVER, acknowledgement: 'yes' }, 'withdrawalWaiver.acknowledgement');
      await waiver({ consent: true, textVersion: GIVEN_WAIVER.textVersion }, 'withdrawalWaiver.acknowledgement');
      await waiver({ consent: true, acknowledgement: true }, 'withdrawalWaiver.textVersion');
      await waiver({ ...GIVEN_WAIVER, textVersion: 7 }, 'withdrawalWaiver.textVersion');
      await waiver({ ...GIVEN_WAIVER, textVersion: 'v0' }, 'withdrawalWaiver.textVersion');
      expect(await refusal(checkout.start(body({ packId: undefined }), await buyer()))).toEqual(invalid('packId'));
    });

    it('names the pack field as the pricing page labels it, in a sentence', async () => {
      const checkout = new Checkout(f.accounts, CATALOGUE, TEST_MODE);
      const message = async (b: unknown) =>
        ((await checkout.start(b, await buyer()).catch((e: unknown) => e)) as ApiError).message;
      expect(await message(body({ packId: 'gold' }))).toBe(
        'Choose one of the packs listed under “1. Choose”: the one chosen is not on sale here.',
      );
      expect(await message(body({ packId: 7 }))).toBe('Choose one of the packs listed under “1. Choose”.');
    });

    it('test mode: the order is paid at once, its pack granted, and the receipt told once', async () => {
      let paid = 0;
      const checkout = new Checkout(f.accounts, CATALOGUE, TEST_MODE, () => paid++);
      const answer = await checkout.start(body(), await buyer());
      const studio = CATALOGUE.offer('studio')!;
      expect(answer).toMatchObject({ success: true, status: 'paid', testMode: true, credits: studio.credits });
      expect(paid).toBe(1);
      const order = (await f.accounts.order(answer.orderId))!;
      expect(order).toMatchObject({ state: 'paid', provider: 'test', packId: answer.packId });
      expect((await f.accounts.activePack(answer.customerId))?.id).toBe(answer.packId);
      expect(await checkout.record({ kind: 'paid', orderId: order.id })).toMatchObject({ outcome: 'already_done' });
      expect(paid).toBe(1);
    });

    it('Stripe: the order opens on a session the checkout records; events come through record', async () => {
      let paid = 0;
      const checkout = stripeCheckout(() => paid++);
      const answer = await checkout.start(body(), await buyer());
      const session = stripe.sessions.at(-1)!;
      expect(answer).toEqual({
        success: true,
        orderId: answer.orderId,
        customerId: answer.customerId,
        status: 'open',
        checkoutUrl: session.url,
      });
      expect(session.form.client_reference_id).toBe(answer.orderId);
      expect(await f.accounts.order(answer.orderId)).toMatchObject({ state: 'open', checkoutSessionId: session.id });
      expect(paid).toBe(0);

      const pi = `pi_${answer.orderId}`;
      const event = (id: string, type: string) => ({ id, type });
      const succeeded = {
        kind: 'paid' as const,
        orderId: answer.orderId,
        checkoutSessionId: session.id,
        paymentIntentId: pi,
        event: event(`evt_${answer.orderId}_1`, 'checkout.session.completed'),
      };
      expect((await checkout.record(succeeded)).outcome).toBe('granted');
      expect((await checkout.record(succeeded)).outcome).toBe('duplicate_event');
      expect(paid).toBe(1);
      expect(await f.accounts.activePack(answer.customerId)).not.toBeNull();

      const refund = { kind: 'refunded' as const, paymentIntentId: pi, event: event(`evt_${pi}_r`, 'charge.refunded') };
      expect((await checkout.record(refund)).outcome).toBe('refunded');
      // The refund went through this instance: its gateway refuses the pack at once.
      expect(await f.accounts.activePack(answer.customerId)).toBeNull();
    });

    it('Stripe: a session that expires closes its open order, and a paid one stays paid', async () => {
      const checkout = stripeCheckout();
      const open = await checkout.start(body(), await buyer());
      const session = stripe.sessions.at(-1)!;
      const closed = {
        kind: 'closed' as const,
        orderId: open.orderId,
        checkoutSessionId: session.id,
        state: 'expired' as const,
        event: { id: `evt_${open.orderId}_x`, type: 'checkout.session.expired' },
      };
      expect(await checkout.record(closed)).toEqual({ outcome: 'closed' });
      expect((await f.accounts.order(open.orderId))?.state).toBe('expired');
      const late = { kind: 'paid' as const, orderId: open.orderId, checkoutSessionId: session.id };
      expect((await checkout.record(late)).outcome).toBe('granted');
      const again = { ...closed, event: { id: `evt_${open.orderId}_y`, type: 'checkout.session.expired' } };
      await checkout.record(again);
      expect((await f.accounts.order(open.orderId))?.state).toBe('paid');
    });

    it('Stripe failing: checkout_unavailable with Retry-After, and the order stays open without a session', async () => {
      const checkout = stripeCheckout();
      stripe.failNext(10);
      const before = stripe.sessions.length;
      expect(await refusal(checkout.start(body(), await buyer()))).toMatchObject({
        code: 'checkout_unavailable',
        status: 503,
      });
      stripe.failNext(0);
      expect(stripe.sessions.length).toBe(before);
    });
  });
}

for (const driver of DRIVERS) checkoutSuite(driver);
