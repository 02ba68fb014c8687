/**
 * Buying packs on the consumer site without a payment provider (the embedded default): the built engine
 * and site (QR_ROLE=all on loopback, so checkout runs in test mode), the accounts on PGlite and on the real
 * PostgreSQL. The pack list, the waiver of the right of withdrawal (refused unless both boxes are true,
 * stored with its text version, hash, time and order), a Studio pack that opens the gateway at once, a
 * top-up that adds credits but no access and needs a Studio pack, a second Studio pack that extends the
 * first; and a site without server AI, which sells no credits.
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
  GROQ_KEY,
  refusal,
  startConsumer,
} from '../helpers/consumer.js';
import { DRIVERS, type DriverName } from '../helpers/databases.js';
import { SiteBrowser } from '../helpers/site-browser.js';
import { GIVEN_WAIVER, WAIVER_SHA256, WAIVER_TEXT, WAIVER_VERSION } from '../helpers/waiver.js';

function checkoutSuite(driver: DriverName): void {
  describe(`checkout in test mode, accounts on ${driver}`, () => {
    let store: ConsumerStore;
    let c: Consumer;
    let buyers = 0;
    const logs: string[] = [];
    const email = () => `buyer-${driver}-${process.pid}-${buyers++}@example.com`;
    const outbox = mkdtempSync(join(tmpdir(), `qrfarm-checkout-${driver}-`));
    /** A signed-in buyer whose address is verified, as checkout requires. */
    const signedIn = async (address = email()) => {
      const b = new SiteBrowser(c.siteUrl);
      await b.verifiedAccount(outbox, address);
      return b;
    };
    let buyer: SiteBrowser;
    const buy = (body: unknown, as = buyer) => as.send('/api/checkout', body);

    beforeAll(async () => {
      store = await consumerStore(driver);
      // A server AI key: credits are sold only where they can be spent (no AI call is made here).
      c = await startConsumer(
        await consumerConfig({ ...store.env, QR_OUTBOX_DIR: outbox, QR_MANAGED_GROQ_API_KEY: GROQ_KEY }),
        undefined,
        (m) => logs.push(m),
      );
      buyer = await signedIn();
    });
    afterAll(async () => {
      await c?.close();
      await store?.close();
      rmSync(outbox, { recursive: true, force: true });
    });

    it('says at start that checkout runs in test mode, on loopback only', () => {
      expect(logs).toContainEqual(
        expect.stringMatching(/Checkout runs in TEST MODE: .*no money moves \(loopback only/),
      );
    });

    it('GET /api/packs lists the catalogue and the waiver text to show', async () => {
      const a = await call(c.siteUrl, '/api/packs');
      expect(a.status).toBe(200);
      expect(a.body).toEqual({
        success: true,
        packs: catalogue.offers.map(({ id, name, kind, credits, price, validMonths }) => ({
          id,
          name,
          kind,
          credits,
          price,
          currency: catalogue.currency,
          validMonths,
        })),
        serverAi: { available: true },
        withdrawalWaiver: {
          textVersion: WAIVER_VERSION,
          consent: WAIVER_TEXT.consent,
          acknowledgement: WAIVER_TEXT.acknowledgement,
        },
      });
      expect(a.body.packs[0]).toMatchObject({ id: 'studio', kind: 'studio', validMonths: 12 });
    });

    it('refuses a checkout without either box ticked, with the seed’s answer, and stores nothing', async () => {
      const refusals = [
        { waiver: { ...GIVEN_WAIVER, consent: false }, field: 'withdrawalWaiver.consent' },
        { waiver: { ...GIVEN_WAIVER, acknowledgement: false }, field: 'withdrawalWaiver.acknowledgement' },
        { waiver: { textVersion: WAIVER_VERSION }, field: 'withdrawalWaiver.consent' },
        { waiver: { ...GIVEN_WAIVER, consent: 'true' }, field: 'withdrawalWaiver.consent' },
        { waiver: { ...GIVEN_WAIVER, acknowledgement: 1 }, field: 'withdrawalWaiver.acknowledgement' },
        { waiver: { ...GIVEN_WAIVER, textVersion: 'some-other-text' }, field: 'withdrawalWaiver.textVersion' },
        { waiver: undefined, field: 'withdrawalWaiver.consent' },
      ];
      for (const { waiver, field } of refusals) {
        const a = await buy({ packId: 'studio', withdrawalWaiver: waiver });
        expect(a.status).toBe(400);
        expect(a.body).toEqual({
          success: false,
          error: 'withdrawal_waiver_required',
          code: 'withdrawal_waiver_required',
          field,
          message: expect.stringMatching(/\w+ .*\./),
        });
      }
      expect(await c.accounts.listPacks(buyer.customerId)).toEqual([]);
    });

    it('sells only to a signed-in account with a verified address, never to one named in the body', async () => {
      const anonymous = await call(c.siteUrl, '/api/checkout', {
        body: { packId: 'studio', email: email(), withdrawalWaiver: GIVEN_WAIVER },
      });
      expect(refusal(anonymous)).toEqual({ status: 401, success: false, code: 'session_required' });
      const unverified = new SiteBrowser(c.siteUrl);
      await unverified.signUp(email());
      expect(refusal(await buy({ packId: 'studio', withdrawalWaiver: GIVEN_WAIVER }, unverified))).toEqual({
        status: 403,
        success: false,
        code: 'email_unverified',
      });
      expect(refusal(await buy({ packId: 'studio', withdrawalWaiver: GIVEN_WAIVER }, unverified))).toMatchObject({
        code: 'email_unverified',
      });
    });

    it('a Studio pack with both boxes ticked: paid at once, the gateway open, the waiver kept with its hash', async () => {
      const b = await signedIn();
      const before = Date.now();
      const a = await buy({ packId: 'studio', withdrawalWaiver: GIVEN_WAIVER }, b);
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ success: true, status: 'paid', testMode: true, credits: 100 });
      const customer = await c.accounts.customerByEmail(b.email);
      expect(a.body.customerId).toBe(customer!.id);
      expect(customer!.id).toBe(b.customerId);

      const order = await c.accounts.order(a.body.orderId);
      expect(order).toMatchObject({
        customerId: customer!.id,
        email: b.email,
        offerId: 'studio',
        kind: 'studio',
        credits: 100,
        price: catalogue.offers[0]!.price,
        currency: catalogue.currency,
        provider: 'test',
        state: 'paid',
        packId: a.body.packId,
      });
      const waiver = await c.accounts.waiver(a.body.orderId);
      expect(waiver).toEqual({
        textVersion: WAIVER_VERSION,
        textSha256: new Uint8Array(WAIVER_SHA256),
        givenAt: expect.any(Date),
      });
      expect(waiver!.givenAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

      const pack = await c.accounts.activePack(customer!.id);
      expect(pack).toMatchObject({ id: a.body.packId, kind: 'studio', credits: 100 });
      expect(new Date(a.body.expiresAt)).toEqual(pack!.expiresAt);
      const { key } = await c.accounts.issueKey(customer!.id);
      expect((await call(c.siteUrl, '/api/v1/ping', { key })).status).toBe(200);
      expect(await c.accounts.balance(customer!.id)).toEqual({ available: 100, reserved: 0 });
    });

    it('a top-up needs an active Studio pack (409 studio_pack_needed, nothing stored), then adds credits', async () => {
      const b = await signedIn();
      const refused = await buy({ packId: 'topup-100', withdrawalWaiver: GIVEN_WAIVER }, b);
      expect({ ...refusal(refused), field: refused.body.field }).toEqual({
        status: 409,
        success: false,
        code: 'studio_pack_needed',
        field: 'packId',
      });
      expect(refused.body.error).toMatch(/buy the Studio pack first/);
      expect(await c.accounts.listPacks(b.customerId)).toEqual([]);
      const studio = await buy({ packId: 'studio', withdrawalWaiver: GIVEN_WAIVER }, b);
      const customerId = studio.body.customerId as string;
      const topup = await buy({ packId: 'topup-100', withdrawalWaiver: GIVEN_WAIVER }, b);
      expect(topup.body).toMatchObject({ status: 'paid', credits: 100, customerId });
      expect(await c.accounts.balance(customerId)).toEqual({ available: 200, reserved: 0 });
      // The top-up's own 12 months, from its purchase: it extends nothing.
      const packs = await c.accounts.listPacks(customerId);
      expect(packs.map((p) => p.kind)).toEqual(['studio', 'topup']);
    });

    it('a Studio pack bought while one is active runs 12 months from the end of the current one, as the account said', async () => {
      const b = await signedIn();
      const first = await buy({ packId: 'studio', withdrawalWaiver: GIVEN_WAIVER }, b);
      const account = await b.send('/api/account');
      const firstEnd = new Date(first.body.expiresAt);
      expect(new Date(account.body.activePack.expiresAt)).toEqual(firstEnd);
      const promised = new Date(account.body.studioExtendsTo);
      const expected = new Date(firstEnd);
      expected.setUTCFullYear(expected.getUTCFullYear() + 1);
      // Twelve months after the first end (on 29 February a day earlier: PostgreSQL's month arithmetic).
      expect(Math.abs(promised.getTime() - expected.getTime())).toBeLessThanOrEqual(86_400_000);
      const second = await buy({ packId: 'studio', withdrawalWaiver: GIVEN_WAIVER }, b);
      expect(new Date(second.body.expiresAt)).toEqual(promised);
      expect((await c.accounts.activePack(b.customerId))!.id).toBe(second.body.packId);
      expect(await c.accounts.balance(b.customerId)).toEqual({ available: 200, reserved: 0 });
    });

    it('refuses an unknown pack, an address in the body, unknown fields and a body that is not JSON', async () => {
      const expectInvalid = async (body: unknown, field: string | undefined) => {
        const a = await buy(body);
        expect({ status: a.status, code: a.body.code, field: a.body.field }).toEqual({
          status: 400,
          code: 'invalid_body',
          field,
        });
      };
      await expectInvalid({ packId: 'gold', withdrawalWaiver: GIVEN_WAIVER }, 'packId');
      await expectInvalid({ packId: 'studio', email: email(), withdrawalWaiver: GIVEN_WAIVER }, 'email');
      await expectInvalid({ packId: 'studio', withdrawalWaiver: GIVEN_WAIVER, coupon: 'FREE' }, 'coupon');
      await expectInvalid('{"packId":', undefined);
      await expectInvalid('[]', undefined);
    });
  });
}

for (const driver of DRIVERS) checkoutSuite(driver);

describe('a site without server AI sells no AI credits', () => {
  let store: ConsumerStore;
  let c: Consumer;
  const logs: string[] = [];
  const outbox = mkdtempSync(join(tmpdir(), 'qrfarm-checkout-noai-'));
  beforeAll(async () => {
    store = await consumerStore('pglite');
    c = await startConsumer(await consumerConfig({ ...store.env, QR_OUTBOX_DIR: outbox }), undefined, (m) =>
      logs.push(m),
    );
  });
  afterAll(async () => {
    await c?.close();
    await store?.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  it('lists the Studio pack only, says serverAi is not available, and refuses a top-up by name', async () => {
    expect(logs).toContainEqual(expect.stringMatching(/AI credit top-ups are not sold/));
    const packs = await call(c.siteUrl, '/api/packs');
    expect(packs.body.serverAi).toEqual({ available: false });
    expect(packs.body.packs.map((p: { id: string }) => p.id)).toEqual(['studio']);
    const b = new SiteBrowser(c.siteUrl);
    await b.verifiedAccount(outbox, `noai-${process.pid}@example.com`);
    await b.send('/api/checkout', { packId: 'studio', withdrawalWaiver: GIVEN_WAIVER });
    const topup = await b.send('/api/checkout', { packId: 'topup-500', withdrawalWaiver: GIVEN_WAIVER });
    expect({ ...refusal(topup), field: topup.body.field }).toEqual({
      status: 409,
      success: false,
      code: 'server_ai_unavailable',
      field: 'packId',
    });
    expect((await c.accounts.listPacks(b.customerId)).map((p) => p.kind)).toEqual(['studio']);
  });
});
