/**
 * Orders and invoices on the consumer site, bought through the loopback Stripe (test/helpers/stripe.ts):
 * the dashboard's list of orders with their state, and the invoice of a paid order as a PDF whose text
 * (pdftotext, from poppler) names the seller as configured, the buyer, the item, the amounts and the tax,
 * under a number no other order has. Accounts on PGlite and on the real PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import catalogue from '../../src/checkout/catalogue.json' with { type: 'json' };
import {
  type Consumer,
  type ConsumerStore,
  consumerConfig,
  consumerStore,
  GROQ_KEY,
  refusal,
  startConsumer,
} from '../helpers/consumer.js';
import { DRIVERS, type DriverName } from '../helpers/databases.js';
import { SiteBrowser } from '../helpers/site-browser.js';
import {
  deliver,
  type FakeStripe,
  paidSession,
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  startFakeStripe,
  stripeEvent,
} from '../helpers/stripe.js';
import { GIVEN_WAIVER } from '../helpers/waiver.js';

const STUDIO = catalogue.offers.find((o) => o.id === 'studio')!;
const TOPUP = catalogue.offers.find((o) => o.id === 'topup-500')!;
const SELLER = {
  QR_SELLER_NAME: 'Códigos Claros S.L.',
  QR_SELLER_ADDRESS: 'Calle Mayor 12\\n28013 Madrid\\nSpain',
  QR_SELLER_TAX_ID: 'ESB12345678',
  QR_TAX_PERCENT: '21',
};

/** The text of a PDF as pdftotext reads it, its layout kept (a row's label and amount on one line). */
const pdfText = (pdf: Uint8Array): string =>
  execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' });

function ordersSuite(driver: DriverName): void {
  describe(`orders and invoices through Stripe, accounts on ${driver}`, () => {
    let stripe: FakeStripe;
    let store: ConsumerStore;
    let c: Consumer;
    let buyers = 0;
    const outbox = mkdtempSync(join(tmpdir(), `qrfarm-orders-${driver}-`));

    beforeAll(async () => {
      stripe = await startFakeStripe();
      store = await consumerStore(driver);
      c = await startConsumer(
        await consumerConfig({
          ...store.env,
          ...SELLER,
          STRIPE_SECRET_KEY,
          STRIPE_WEBHOOK_SECRET,
          QR_STRIPE_API_URL: stripe.origin,
          QR_OUTBOX_DIR: outbox,
          QR_MANAGED_GROQ_API_KEY: GROQ_KEY,
        }),
      );
    });
    afterAll(async () => {
      await c?.close();
      await store?.close();
      await stripe?.close();
      rmSync(outbox, { recursive: true, force: true });
    });

    /** Checks out `packId` as `b` and has Stripe report it paid; the order's id. */
    async function buyAndPay(b: SiteBrowser, packId: string): Promise<string> {
      const a = await b.send('/api/checkout', { packId, withdrawalWaiver: GIVEN_WAIVER });
      expect(a.body).toMatchObject({ status: 'open' });
      const session = stripe.sessions.at(-1)!;
      const paid = await deliver(
        c.siteUrl,
        stripeEvent('checkout.session.completed', paidSession(session, `pi_${a.body.orderId}`)),
      );
      expect(paid.status).toBe(200);
      return a.body.orderId;
    }

    it('lists orders with their state; each paid one has an invoice PDF naming seller, buyer, item, amounts and tax', async () => {
      const b = new SiteBrowser(c.siteUrl);
      const { email } = await b.verifiedAccount(outbox, `orders-${driver}-${process.pid}-${buyers++}@example.com`);
      const studio = await buyAndPay(b, 'studio');
      const topup = await buyAndPay(b, 'topup-500');
      // Left open: the buyer never paid on Stripe's page.
      const open = await b.send('/api/checkout', { packId: 'topup-100', withdrawalWaiver: GIVEN_WAIVER });

      const list = await b.send('/api/account/orders');
      expect(list.status).toBe(200);
      expect(list.body.orders.map((o: { id: string; state: string }) => [o.id, o.state])).toEqual([
        [open.body.orderId, 'open'],
        [topup, 'paid'],
        [studio, 'paid'],
      ]);
      const [openOrder, topupOrder, studioOrder] = list.body.orders;
      expect(openOrder.invoiceNumber).toBeNull();
      expect(studioOrder).toMatchObject({ price: STUDIO.price, currency: 'eur', kind: 'studio', credits: 100 });
      expect(studioOrder.invoiceNumber).toMatch(/^INV-\d{6,}$/);
      expect(topupOrder.invoiceNumber).toMatch(/^INV-\d{6,}$/);
      expect(topupOrder.invoiceNumber).not.toBe(studioOrder.invoiceNumber);

      const pdf = await b.send(`/api/account/orders/${studio}/invoice.pdf`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="${studioOrder.invoiceNumber}.pdf"`);
      const text = pdfText(pdf.bytes);
      // €29.00 with 21 % included: 503 cents of tax, 2,397 without it.
      for (const expected of [
        `Invoice ${studioOrder.invoiceNumber}`,
        'Códigos Claros S.L.',
        'Calle Mayor 12',
        '28013 Madrid',
        'Tax id: ESB12345678',
        email,
        `Order: ${studio}`,
        'Studio pack: the API, until',
        'with 100 AI credits',
      ])
        expect(text).toContain(expected);
      expect(text).toMatch(/Price without tax\s+€23\.97/);
      expect(text).toMatch(/Tax \(21 %, included in the price\)\s+€5\.03/);
      expect(text).toMatch(/Total paid\s+€29\.00/);
      expect(STUDIO.price).toBe(2900);

      const topupText = pdfText((await b.send(`/api/account/orders/${topup}/invoice.pdf`)).bytes);
      expect(topupText).toContain(`${TOPUP.credits} AI credits (top-up of a Studio pack)`);
      expect(topupText).toMatch(/Total paid\s+€49\.00/);

      // Not paid, or another's: the same 404.
      const unpaid = await b.send(`/api/account/orders/${open.body.orderId}/invoice.pdf`);
      expect(refusal(unpaid)).toEqual({ status: 404, success: false, code: 'invoice_not_found' });
      const other = new SiteBrowser(c.siteUrl);
      await other.verifiedAccount(outbox, `orders-${driver}-${process.pid}-${buyers++}@example.com`);
      expect(refusal(await other.send(`/api/account/orders/${studio}/invoice.pdf`))).toEqual({
        status: 404,
        success: false,
        code: 'invoice_not_found',
      });
      expect((await other.send('/api/account/orders')).body.orders).toEqual([]);
    });

    it('never gives an invoice number twice: orders paid at once each get their own', async () => {
      const b = new SiteBrowser(c.siteUrl);
      await b.verifiedAccount(outbox, `orders-${driver}-${process.pid}-${buyers++}@example.com`);
      await buyAndPay(b, 'studio');
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const a = await b.send('/api/checkout', { packId: 'topup-100', withdrawalWaiver: GIVEN_WAIVER });
        ids.push(a.body.orderId);
      }
      const sessions = stripe.sessions.slice(-6);
      // Delivered together: the numbers are taken in concurrent payment transactions.
      const paid = await Promise.all(
        sessions.map((s, i) =>
          deliver(c.siteUrl, stripeEvent('checkout.session.completed', paidSession(s, `pi_${ids[i]}`))),
        ),
      );
      expect(paid.map((r) => r.status)).toEqual(Array(6).fill(200));
      const numbers = (await b.send('/api/account/orders')).body.orders.map(
        (o: { invoiceNumber: string }) => o.invoiceNumber,
      );
      expect(numbers).toHaveLength(7);
      expect(new Set(numbers).size).toBe(7);
      expect(numbers.every((n: string | null) => n !== null)).toBe(true);
    });
  });
}

for (const driver of DRIVERS) ordersSuite(driver);
