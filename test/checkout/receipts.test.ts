/**
 * The receipt sender on its own, over the store on PGlite and PostgreSQL: a paid order's receipt sent to
 * a loopback mail server (test/helpers/smtp.ts) once and marked sent, a refused send kept and tried again
 * later, and the outbox folder as the other destination.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../src/checkout/catalogue.js';
import { ReceiptSender } from '../../src/checkout/receipts.js';
import { accountsFixture, DRIVERS, type DriverName } from '../helpers/databases.js';
import { type FakeSmtp, startFakeSmtp } from '../helpers/smtp.js';
import { WAIVER_SHA256, WAIVER_VERSION } from '../helpers/waiver.js';

const FROM = 'receipts@qrfarm.test';

function receiptsSuite(driver: DriverName): void {
  describe(`ReceiptSender on ${driver}`, () => {
    const f = accountsFixture(driver);
    let smtp: FakeSmtp;
    let outbox: string;
    let buyers = 0;

    beforeAll(async () => {
      smtp = await startFakeSmtp();
      outbox = mkdtempSync(join(tmpdir(), 'qrfarm-receipts-'));
    });
    afterAll(async () => {
      await smtp?.close();
      rmSync(outbox, { recursive: true, force: true });
    });

    /** A Studio pack order, paid: its receipt waits in the store. */
    async function paidOrder(): Promise<string> {
      const studio = CATALOGUE.offer('studio')!;
      const order = await f.accounts.createOrder({
        customerId: (await f.accounts.createCustomer(`receipt-${driver}-${buyers++}@example.com`)).id,
        offer: { id: studio.id, kind: 'studio', credits: studio.credits, price: studio.price, currency: 'eur' },
        provider: 'test',
        waiver: { textVersion: WAIVER_VERSION, textSha256: WAIVER_SHA256 },
      });
      expect((await f.accounts.paymentSucceeded({ orderId: order.id })).outcome).toBe('granted');
      return order.id;
    }

    it('sends a paid order its receipt once, quoting its pack, and marks it sent', async () => {
      const orderId = await paidOrder();
      const sender = new ReceiptSender(f.accounts, CATALOGUE, { smtp: smtp.url }, FROM, () => {});
      try {
        const before = smtp.messages.length;
        await sender.deliverPending();
        await sender.deliverPending();
        const sent = smtp.messages.slice(before);
        expect(sent).toHaveLength(1);
        expect(sent[0]!.to).toEqual([(await f.accounts.order(orderId))!.email]);
        const pack = (await f.accounts.paidOrder(orderId))!.pack;
        expect(sent[0]!.data).toContain(pack.expiresAt.toISOString().slice(0, 10));
        expect(await f.accounts.receipt(orderId)).toMatchObject({ state: 'sent', attempts: 1 });
      } finally {
        await sender.close();
      }
      expect(smtp.problems).toEqual([]);
    });

    it('a refused send is kept for later, logged, and not claimed again before its retry', async () => {
      const orderId = await paidOrder();
      const logs: string[] = [];
      const sender = new ReceiptSender(f.accounts, CATALOGUE, { smtp: smtp.url }, FROM, (m) => logs.push(m));
      try {
        smtp.refuse(1);
        await sender.deliverPending();
        await sender.deliverPending();
        expect(await f.accounts.receipt(orderId)).toMatchObject({ state: 'pending', attempts: 1 });
        expect(logs).toEqual([
          expect.stringMatching(new RegExp(`receipt of ${orderId} not sent \\(attempt 1, again in 30 s\\)`)),
        ]);
        f.clock.advance(30_000);
        await sender.deliverPending();
        expect(await f.accounts.receipt(orderId)).toMatchObject({ state: 'sent', attempts: 2 });
      } finally {
        await sender.close();
      }
    });

    it('writes the receipt to the outbox folder when there is no mail server', async () => {
      const orderId = await paidOrder();
      const sender = new ReceiptSender(f.accounts, CATALOGUE, { outbox }, FROM, () => {});
      try {
        await sender.deliverPending();
      } finally {
        await sender.close();
      }
      const file = join(outbox, `${orderId}.eml`);
      expect(existsSync(file)).toBe(true);
      expect(readFileSync(file, 'utf8')).toContain(`<${orderId}.receipt@qrfarm>`);
      expect(await f.accounts.receipt(orderId)).toMatchObject({ state: 'sent' });
    });
  });
}

for (const driver of DRIVERS) receiptsSuite(driver);
