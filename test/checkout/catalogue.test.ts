import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, loadCatalogue } from '../../src/checkout/catalogue.js';
import { CURRENT_WAIVER, shownWaiver, waiverText } from '../../src/checkout/waiver.js';
import { loadConfig } from '../../src/config.js';

const STUDIO = { id: 'studio', kind: 'studio', name: 'Studio', credits: 100, price: 2900, validMonths: 12 };

describe('the catalogue (src/checkout/catalogue.json)', () => {
  it('offers a Studio pack and top-ups, in one currency, for 12 months', () => {
    expect(CATALOGUE.offers.map((o) => [o.id, o.kind, o.currency, o.validMonths])).toEqual([
      ['studio', 'studio', 'eur', 12],
      ['topup-100', 'topup', 'eur', 12],
      ['topup-500', 'topup', 'eur', 12],
    ]);
    expect(CATALOGUE.offer('studio')?.credits).toBe(100);
    expect(CATALOGUE.offer('gold')).toBeUndefined();
  });

  it('refuses a catalogue it could not sell from, naming the offer and the field', () => {
    const load =
      (offers: unknown[], currency = 'eur') =>
      () =>
        loadCatalogue({ currency, offers });
    expect(load([STUDIO])).not.toThrow();
    expect(load([STUDIO], 'EUR')).toThrow(/currency/);
    expect(load([{ ...STUDIO, price: 29.0001 }])).toThrow(/offer studio: price/);
    expect(load([{ ...STUDIO, validMonths: 6 }])).toThrow(/offer studio: validMonths must be 12/);
    expect(load([{ ...STUDIO, credits: 0 }])).toThrow(/offer studio: credits/);
    expect(load([{ ...STUDIO, kind: 'gift' }])).toThrow(/kind/);
    expect(load([{ ...STUDIO, kind: 'topup' }])).toThrow(/no Studio pack/);
    expect(load([STUDIO, STUDIO])).toThrow(/studio is listed twice/);
  });
});

describe('the waiver of the right of withdrawal', () => {
  it('hashes the two sentences of each version, as shown', () => {
    const expected = createHash('sha256')
      .update(`${CURRENT_WAIVER.consent}\n${CURRENT_WAIVER.acknowledgement}`, 'utf8')
      .digest();
    expect(Buffer.from(CURRENT_WAIVER.sha256)).toEqual(expected);
    expect(waiverText(CURRENT_WAIVER.version)).toBe(CURRENT_WAIVER);
  });

  it('is given only with a text this site shows or has shown (the boxes: test/checkout/checkout.test.ts)', () => {
    expect(shownWaiver(CURRENT_WAIVER.version)).toBe(CURRENT_WAIVER);
    for (const bad of ['v0', '', 'constructor'])
      expect(() => shownWaiver(bad)).toThrow(
        expect.objectContaining({
          code: 'withdrawal_waiver_required',
          message: 'withdrawal_waiver_required',
          field: 'withdrawalWaiver.textVersion',
        }),
      );
  });
});

describe('Config.site.payments', () => {
  const keys = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_def456' };

  it('has no provider and no test mode by default, and returns buyers to the pricing page', () => {
    expect(loadConfig({}).site.payments).toEqual({
      stripe: undefined,
      returnUrl: 'http://127.0.0.1:3001/pricing',
      testMode: false,
    });
    expect(loadConfig({ QR_CHECKOUT_TEST_MODE: '1' }).site.payments.testMode).toBe(true);
    expect(loadConfig({ QR_CHECKOUT_TEST_MODE: 'yes' }).site.payments.testMode).toBe(false);
  });

  it('reads Stripe’s keys, both or neither, and a local API for tests', () => {
    expect(loadConfig({ ...keys, QR_STRIPE_API_URL: 'http://127.0.0.1:12111' }).site.payments.stripe).toEqual({
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_def456',
      api: { protocol: 'http', host: '127.0.0.1', port: 12111 },
    });
    expect(loadConfig(keys).site.payments.stripe?.api).toBeUndefined();
    expect(() => loadConfig({ STRIPE_SECRET_KEY: keys.STRIPE_SECRET_KEY })).toThrow(/needs STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: keys.STRIPE_WEBHOOK_SECRET })).toThrow(
      /without STRIPE_SECRET_KEY/,
    );
  });

  it('refuses what is not a Stripe key, never echoing it', () => {
    const wrong = 'pk_live_publishableNotSecret';
    const error = (() => {
      try {
        loadConfig({ ...keys, STRIPE_SECRET_KEY: wrong });
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(error).toMatch(/STRIPE_SECRET_KEY must be a Stripe secret/);
    expect(error).not.toContain(wrong);
    expect(() => loadConfig({ ...keys, STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(/STRIPE_WEBHOOK_SECRET must be/);
    expect(() => loadConfig({ ...keys, QR_STRIPE_API_URL: 'ftp://x' })).toThrow(/QR_STRIPE_API_URL/);
  });
});
