/**
 * Orders and payments in the store, on PGlite and on the real PostgreSQL (where concurrent deliveries
 * really race): a paid order grants its pack exactly once whatever the provider repeats, reorders or
 * delivers at once; a full refund ends the pack, even one that arrives before the payment's own event.
 */
import { describe, expect, it } from 'vitest';
import type { NewOrder, Order } from '../../src/accounts/types.js';
import { accountsFixture, DRIVERS, type DriverName } from '../helpers/databases.js';

const WAIVER = { textVersion: 'test-1', textSha256: new Uint8Array(32).fill(7) };
const STUDIO = { id: 'studio', kind: 'studio' as const, credits: 40, price: 2900, currency: 'eur' };

function ordersSuite(driver: DriverName): void {
  describe(`orders on ${driver}`, () => {
    const f = accountsFixture(driver);
    let n = 0;
    const newOrder = async (over: Partial<NewOrder> = {}): Promise<Order> =>
      f.accounts.createOrder({
        customerId: over.customerId ?? (await f.accounts.createCustomer(`order-${driver}-${n++}@example.com`)).id,
        offer: STUDIO,
        provider: 'stripe',
        waiver: WAIVER,
        ...over,
      });
    const event = (id: string, type = 'checkout.session.completed') => ({ id: `evt_${driver}_${id}`, type });
    const packsOf = async (customerId: string) => (await f.accounts.listPacks(customerId)).length;

    it('is an order of an existing customer, with its address and waiver; no customer is ever made', async () => {
      const buyer = await f.accounts.createCustomer(`Same-${driver}@Example.com`);
      const first = await newOrder({ customerId: buyer.id });
      expect(first).toMatchObject({ state: 'open', provider: 'stripe', credits: 40, price: 2900, packId: null });
      expect(first).toMatchObject({ customerId: buyer.id, email: buyer.email });
      expect(await f.accounts.waiver(first.id)).toEqual({ ...WAIVER, givenAt: f.clock.now() });
      await expect(newOrder({ customerId: 'cus_nobody' })).rejects.toMatchObject({ code: 'customer_not_found' });
    });

    it('grants once: the same event repeated, another event of the same payment, both at once', async () => {
      const order = await newOrder();
      await f.accounts.attachCheckoutSession(order.id, `cs_${order.id}`);
      const payment = { orderId: order.id, checkoutSessionId: `cs_${order.id}`, paymentIntentId: `pi_${order.id}` };
      const deliveries = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          f.accounts.paymentSucceeded({
            ...payment,
            event: event(`${order.id}_${i % 2}`, i % 2 ? 'checkout.session.async_payment_succeeded' : undefined),
          }),
        ),
      );
      const outcomes = deliveries.map((d) => d.outcome).sort();
      expect(outcomes.filter((o) => o === 'granted')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'already_done')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'duplicate_event')).toHaveLength(6);
      expect(await packsOf(order.customerId)).toBe(1);
      const paid = await f.accounts.order(order.id);
      expect(paid).toMatchObject({ state: 'paid', paymentIntentId: payment.paymentIntentId, paidAt: f.clock.now() });
      expect(await f.accounts.balance(order.customerId)).toEqual({ available: 40, reserved: 0 });
    });

    it('ignores an event naming another session of the order, or an order that is not ours', async () => {
      const order = await newOrder();
      await f.accounts.attachCheckoutSession(order.id, `cs_${order.id}`);
      expect(
        (await f.accounts.paymentSucceeded({ orderId: order.id, checkoutSessionId: 'cs_other', event: event('x1') }))
          .outcome,
      ).toBe('unknown_order');
      expect((await f.accounts.paymentSucceeded({ orderId: 'ord_unknown', event: event('x2') })).outcome).toBe(
        'unknown_order',
      );
      expect(await packsOf(order.customerId)).toBe(0);
    });

    it('a full refund ends the pack at once and the gateway check sees it; refunding again changes nothing', async () => {
      const order = await newOrder();
      const pi = `pi_${order.id}`;
      await f.accounts.paymentSucceeded({ orderId: order.id, paymentIntentId: pi, event: event(`${order.id}_paid`) });
      expect(await f.accounts.activePack(order.customerId)).not.toBeNull();
      const refunded = await f.accounts.paymentRefunded({ paymentIntentId: pi, event: event(`${order.id}_r`) });
      expect(refunded).toMatchObject({ outcome: 'refunded', order: { state: 'refunded' }, pack: { remaining: 0 } });
      expect(await f.accounts.activePack(order.customerId)).toBeNull();
      expect((await f.accounts.paymentRefunded({ paymentIntentId: pi, event: event(`${order.id}_r`) })).outcome).toBe(
        'duplicate_event',
      );
      expect((await f.accounts.paymentRefunded({ paymentIntentId: pi, event: event(`${order.id}_r2`) })).outcome).toBe(
        'recorded',
      );
      // The payment's event delivered again after the refund grants nothing.
      expect(
        (await f.accounts.paymentSucceeded({ orderId: order.id, paymentIntentId: pi, event: event(`${order.id}_p2`) }))
          .outcome,
      ).toBe('already_done');
      expect(await f.accounts.balance(order.customerId)).toEqual({ available: 0, reserved: 0 });
    });

    it('a refund that arrives before the payment: the order is refunded and never grants', async () => {
      const order = await newOrder();
      const pi = `pi_${order.id}`;
      expect((await f.accounts.paymentRefunded({ paymentIntentId: pi, event: event(`${order.id}_r`) })).outcome).toBe(
        'recorded',
      );
      const late = await f.accounts.paymentSucceeded({
        orderId: order.id,
        paymentIntentId: pi,
        event: event(order.id),
      });
      expect(late).toMatchObject({ outcome: 'refunded_first', order: { state: 'refunded' } });
      expect(await packsOf(order.customerId)).toBe(0);
    });

    it('a payment and its refund delivered at once end refunded either way', async () => {
      for (let round = 0; round < 5; round++) {
        const order = await newOrder();
        const pi = `pi_${order.id}`;
        await Promise.all([
          f.accounts.paymentSucceeded({ orderId: order.id, paymentIntentId: pi, event: event(`${order.id}_p`) }),
          f.accounts.paymentRefunded({ paymentIntentId: pi, event: event(`${order.id}_r`) }),
        ]);
        expect((await f.accounts.order(order.id))!.state).toBe('refunded');
        expect(await f.accounts.activePack(order.customerId)).toBeNull();
      }
    });

    it('an expired checkout closes an open order, never a paid one', async () => {
      const open = await newOrder();
      await f.accounts.checkoutClosed({ orderId: open.id, state: 'expired', event: event(`${open.id}_x`) });
      expect((await f.accounts.order(open.id))!.state).toBe('expired');
      const paid = await newOrder();
      await f.accounts.paymentSucceeded({ orderId: paid.id });
      await f.accounts.checkoutClosed({ orderId: paid.id, state: 'failed', event: event(`${paid.id}_f`) });
      expect((await f.accounts.order(paid.id))!.state).toBe('paid');
    });

    it('a top-up order grants a top-up: credits, no Studio access', async () => {
      const order = await newOrder({ offer: { ...STUDIO, id: 'topup-100', kind: 'topup', credits: 100 } });
      const done = await f.accounts.paymentSucceeded({ orderId: order.id });
      expect(done).toMatchObject({ outcome: 'granted', pack: { kind: 'topup', credits: 100 } });
      expect(await f.accounts.activePack(order.customerId)).toBeNull();
      expect(await f.accounts.balance(order.customerId)).toEqual({ available: 100, reserved: 0 });
    });

    it('a receipt quotes the paid order, the one pack it granted and its waiver; an open order has none', async () => {
      const order = await newOrder();
      await f.accounts.grantPack({ customerId: order.customerId, credits: 3 });
      expect(await f.accounts.paidOrder(order.id)).toBeNull();
      expect(await f.accounts.paidOrder('ord_missing')).toBeNull();
      const done = await f.accounts.paymentSucceeded({ orderId: order.id });
      if (done.outcome !== 'granted') throw new Error(done.outcome);
      expect(await f.accounts.paidOrder(order.id)).toEqual({
        order: done.order,
        pack: done.pack,
        waiver: { ...WAIVER, givenAt: f.clock.now() },
      });
    });
  });
}

for (const driver of DRIVERS) ordersSuite(driver);
