/**
 * The site's safe defaults over real HTTP (issue 27): the built engine and site (QR_ROLE=all on loopback,
 * accounts on PGlite) with an https public URL and no payment provider, test mode not asked for. Every
 * answer of the site carries Strict-Transport-Security and X-Content-Type-Options (once, relayed renders
 * too); checkout sells nothing, loopback or not, without QR_CHECKOUT_TEST_MODE=1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Consumer, call, consumerConfig, consumerStore, refusal, startConsumer } from '../helpers/consumer.js';
import { SiteBrowser } from '../helpers/site-browser.js';
import { GIVEN_WAIVER } from '../helpers/waiver.js';

const HSTS = 'max-age=31536000; includeSubDomains';

describe('a site with an https public URL and no payment provider', () => {
  let c: Consumer;
  const logs: string[] = [];
  const outbox = mkdtempSync(join(tmpdir(), 'qrfarm-defaults-'));

  beforeAll(async () => {
    const store = await consumerStore('pglite');
    c = await startConsumer(
      await consumerConfig({
        ...store.env,
        QR_SITE_PUBLIC_URL: 'https://qr.example.com',
        QR_CHECKOUT_TEST_MODE: '0',
        QR_OUTBOX_DIR: outbox,
      }),
      undefined,
      (m) => logs.push(m),
    );
  });
  afterAll(async () => {
    await c?.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  it('every answer of the site: Strict-Transport-Security and nosniff, each once', async () => {
    const { key } = await c.customer();
    const answers = {
      page: await call(c.siteUrl, '/pricing'),
      api: await call(c.siteUrl, '/api/packs'),
      notFound: await call(c.siteUrl, '/api/no-such-route'),
      refused: await call(c.siteUrl, '/api/v1/ping'),
      relayed: await call(c.siteUrl, '/api/v1/qr/generate', { key, body: { content: 'hsts', responseType: 'binary' } }),
    };
    for (const [what, a] of Object.entries(answers)) {
      expect(a.headers.get('strict-transport-security'), what).toBe(HSTS);
      expect(a.headers.get('x-content-type-options'), what).toBe('nosniff');
    }
    expect(answers.relayed.status).toBe(200);
    // The engine's own answers: nosniff, and no HSTS (it is not the https site).
    const engine = await call(c.engineUrl!, '/api/ping');
    expect(engine.headers.get('x-content-type-options')).toBe('nosniff');
    expect(engine.headers.get('strict-transport-security')).toBeNull();
  });

  it('checkout on loopback without QR_CHECKOUT_TEST_MODE=1: 503 checkout_unavailable, no order, said at start', async () => {
    // A buyer checkout would otherwise serve: signed in, the address verified.
    const buyer = new SiteBrowser(c.siteUrl);
    const { customerId } = await buyer.verifiedAccount(outbox);
    const a = await buyer.send('/api/checkout', { packId: 'studio', withdrawalWaiver: GIVEN_WAIVER });
    expect(refusal(a)).toEqual({ status: 503, success: false, code: 'checkout_unavailable' });
    expect(a.body.error).toMatch(/QR_CHECKOUT_TEST_MODE=1/);
    expect(await c.accounts.listPacks(customerId)).toEqual([]);
    expect(logs).toContainEqual(expect.stringMatching(/QR_CHECKOUT_TEST_MODE is not 1: checkout is off/));
    expect(logs.some((m) => /TEST MODE/.test(m))).toBe(false);
  });
});
