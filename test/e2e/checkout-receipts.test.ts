/**
 * Receipts of paid orders end to end: the built engine and site selling in test mode, the receipt sent by
 * SMTP to a loopback mail server (test/helpers/smtp.ts) when SMTP_URL is set, else written to the outbox
 * folder. The message is read back as sent, decoded, and compared word for word: the order, and the waiver
 * of the right of withdrawal quoted with its text version, SHA-256 and time. Accounts on PGlite and on the
 * real PostgreSQL.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/accounts/types.js';
import {
  type Consumer,
  type ConsumerStore,
  consumerConfig,
  consumerStore,
  eventually,
  startConsumer,
  stoppableClock,
} from '../helpers/consumer.js';
import { DRIVERS, type DriverName } from '../helpers/databases.js';
import { decodeHeader, decodeQuotedPrintable, type FakeSmtp, parseMessage, startFakeSmtp } from '../helpers/smtp.js';
import { SiteBrowser } from '../helpers/site-browser.js';
import { GIVEN_WAIVER, WAIVER_SHA256, WAIVER_TEXT, WAIVER_VERSION } from '../helpers/waiver.js';

const utc = (d: Date) =>
  `${d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, '')} UTC`;

/** The receipt of a Studio pack bought in test mode, as the buyer must read it. */
async function expectedReceipt(c: Consumer, order: Order): Promise<string> {
  const waiver = (await c.accounts.waiver(order.id))!;
  const pack = (await c.accounts.listPacks(order.customerId)).find((p) => p.id === order.packId)!;
  return [
    'Thank you for your order.',
    '',
    `Order:      ${order.id}`,
    `Date:       ${utc(order.paidAt!)}`,
    'Item:       Studio pack: the API for 12 months, with 100 AI credits',
    'AI credits: 100',
    `Valid:      until ${pack.expiresAt.toISOString().slice(0, 10)} (API access and credits)`,
    'Price:      €29.00 (test mode: nothing was charged)',
    `Customer:   ${order.customerId} (${order.email})`,
    '',
    'Your waiver of the right of withdrawal',
    '',
    `Before paying you ticked these two boxes (text version ${WAIVER_VERSION}, given ${utc(waiver.givenAt)}):`,
    '',
    `[x] ${WAIVER_TEXT.consent}`,
    `[x] ${WAIVER_TEXT.acknowledgement}`,
    '',
    `SHA-256 of the text: ${WAIVER_SHA256.toString('hex')}`,
    '',
    'The pack was made available to you at once, so the right of withdrawal no longer applies.',
    '',
  ].join('\r\n');
}

function receiptsSuite(driver: DriverName): void {
  describe(`receipts by SMTP, accounts on ${driver}`, () => {
    let smtp: FakeSmtp;
    let store: ConsumerStore;
    let c: Consumer;
    let n = 0;
    const clock = stoppableClock();
    const logs: string[] = [];
    /** A signed-in buyer, their address verified from the link the mail server took. */
    const signedIn = async () => {
      const b = new SiteBrowser(c.siteUrl);
      await b.verifiedAccount(
        () => smtp.messages.map((m) => m.data),
        `receipt-${driver}-${process.pid}-${n++}@example.com`,
      );
      return b;
    };
    /** The receipts (not the verification links) the mail server took for an address. */
    const receiptsTo = (email: string) =>
      smtp.messages.filter((m) => m.to.includes(email) && m.data.includes('.receipt@qrfarm>'));
    const buy = async (buyer?: SiteBrowser): Promise<Order> => {
      const b = buyer ?? (await signedIn());
      const a = await b.send('/api/checkout', { packId: 'studio', withdrawalWaiver: GIVEN_WAIVER });
      expect(a.body).toMatchObject({ status: 'paid' });
      return (await c.accounts.order(a.body.orderId))!;
    };

    beforeAll(async () => {
      smtp = await startFakeSmtp();
      store = await consumerStore(driver);
      c = await startConsumer(
        await consumerConfig({
          ...store.env,
          SMTP_URL: smtp.url,
          QR_MAIL_FROM: 'qrfarm receipts <receipts@qr.example>',
        }),
        clock.now,
        (m) => logs.push(m),
      );
    });
    afterAll(async () => {
      await c?.close();
      await store?.close();
      await smtp?.close();
    });

    it('says where receipts go, without the URL itself', () => {
      const port = new URL(smtp.url).port;
      expect(logs).toContain(`Receipts are sent by SMTP to 127.0.0.1:${port}.`);
    });

    it('mails the buyer a receipt quoting the waiver word for word, once', async () => {
      const order = await buy();
      await eventually(async () => (await c.accounts.receipt(order.id))?.state === 'sent', 10_000);
      const mails = receiptsTo(order.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.from).toBe('receipts@qr.example');
      const { headers, body } = parseMessage(mails[0]!.data);
      expect(headers.to).toBe(order.email);
      expect(headers.from).toBe('qrfarm receipts <receipts@qr.example>');
      expect(decodeHeader(headers.subject!)).toBe(
        `Your receipt for order ${order.id}: Studio pack: the API for 12 months, with 100 AI credits`,
      );
      expect(headers['message-id']).toBe(`<${order.id}.receipt@qrfarm>`);
      expect(headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(headers['content-transfer-encoding']).toBe('quoted-printable');
      expect(decodeQuotedPrintable(body)).toBe(await expectedReceipt(c, order));
      expect(await c.accounts.receipt(order.id)).toMatchObject({ state: 'sent', attempts: 1 });
      expect(smtp.problems).toEqual([]);
    });

    it('a mail server refusing for now: the receipt waits and goes with a later round', async () => {
      const buyer = await signedIn();
      smtp.refuse(1);
      const order = await buy(buyer);
      const failed = new RegExp(`^receipt of ${order.id} not sent \\(attempt 1, again in 30 s\\): .*451`);
      await eventually(async () => logs.some((m) => failed.test(m)), 10_000);
      expect(await c.accounts.receipt(order.id)).toMatchObject({ state: 'pending', attempts: 1 });
      expect(receiptsTo(order.email)).toEqual([]);
      // Half a minute later another payment starts a round, which takes the waiting receipt too.
      clock.stopAt(new Date(Date.now() + 31_000));
      try {
        const next = await buy();
        await eventually(async () => (await c.accounts.receipt(order.id))?.state === 'sent', 10_000);
        await eventually(async () => (await c.accounts.receipt(next.id))?.state === 'sent', 10_000);
      } finally {
        clock.resume();
      }
      expect(receiptsTo(order.email)).toHaveLength(1);
      expect(await c.accounts.receipt(order.id)).toMatchObject({ state: 'sent', attempts: 2 });
    });
  });
}

for (const driver of DRIVERS) receiptsSuite(driver);

describe('receipts without SMTP: the outbox folder', () => {
  let dir: string;
  let store: ConsumerStore;
  let c: Consumer;
  const logs: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qrfarm-outbox-'));
    store = await consumerStore('pglite');
    c = await startConsumer(await consumerConfig({ ...store.env, QR_OUTBOX_DIR: dir }), undefined, (m) => logs.push(m));
  });
  afterAll(async () => {
    await c?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the same message as a .eml file only its owner can read', async () => {
    expect(logs).toContain(`Receipts are written to ${dir} as .eml files (SMTP_URL is not set).`);
    const b = new SiteBrowser(c.siteUrl);
    await b.verifiedAccount(dir, 'outbox@example.com');
    const a = await b.send('/api/checkout', { packId: 'studio', withdrawalWaiver: GIVEN_WAIVER });
    const order = (await c.accounts.order(a.body.orderId))!;
    const file = join(dir, `${order.id}.eml`);
    await eventually(async () => existsSync(file), 10_000);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { headers, body } = parseMessage(readFileSync(file, 'utf8'));
    expect(headers.to).toBe('outbox@example.com');
    expect(decodeQuotedPrintable(body)).toBe(await expectedReceipt(c, order));
    expect(await c.accounts.receipt(order.id)).toMatchObject({
      state: 'sent',
      messageId: `<${order.id}.receipt@qrfarm>`,
    });
  });
});
