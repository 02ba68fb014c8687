/**
 * The checkout's routes (src/checkout/routes.ts) over real HTTP, served alone by the built front end with
 * the built Checkout in test mode, real sessions (SessionCookies on People) and the accounts on PGlite in
 * memory: the public pack list, and a purchase for the signed-in, verified account only, with every
 * refusal's status, code and field and the per-address limit it applies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Accounts, People } from '../../src/accounts/index.js';
import { CATALOGUE } from '../../src/checkout/catalogue.js';
import type { Answer } from '../helpers/answers.js';
import { call } from '../helpers/consumer.js';
import { openTestDatabase, TEST_PEPPER, type TestDatabase } from '../helpers/databases.js';
import { type RouteServer, serveRoutes } from '../helpers/route-server.js';
import { newAddress, PASSWORD } from '../helpers/site-browser.js';
import { GIVEN_WAIVER, WAIVER_TEXT, WAIVER_VERSION } from '../helpers/waiver.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
/** Checkouts per client address a minute (the limiter's general class here). */
const LIMIT = 4;

let t: TestDatabase;
let accounts: Accounts;
let people: People;
let server: RouteServer;
let csrfTokenOf: (token: string) => string;
let addresses = 0;
const newClient = () => `127.0.8.${++addresses}`;

beforeAll(async () => {
  const a = (await import(dist('accounts/index.js'))) as typeof import('../../src/accounts/index.js');
  const { Checkout } = (await import(dist('checkout/checkout.js'))) as typeof import('../../src/checkout/checkout.js');
  const { TEST_MODE } = (await import(dist('checkout/payments.js'))) as typeof import('../../src/checkout/payments.js');
  const { checkoutRoutes } = (await import(
    dist('checkout/routes.js')
  )) as typeof import('../../src/checkout/routes.js');
  const { CustomerLimiter } = (await import(dist('gateway/limits.js'))) as typeof import('../../src/gateway/limits.js');
  const { SessionCookies } = (await import(
    dist('site/session-cookies.js')
  )) as typeof import('../../src/site/session-cookies.js');
  t = await openTestDatabase('pglite');
  accounts = a.createAccounts(t.db, { pepper: TEST_PEPPER });
  people = a.createPeople(t.db);
  csrfTokenOf = a.csrfTokenOf;
  const routes = checkoutRoutes({
    checkout: new Checkout(accounts, CATALOGUE, TEST_MODE),
    limiter: new CustomerLimiter({ limits: { general: LIMIT, generation: 1, ai: 1 }, log: () => {} }),
    guard: new SessionCookies(people, false).guard,
  });
  server = await serveRoutes(routes);
});
afterAll(async () => {
  server?.close();
  await accounts?.close();
  await t?.close();
});

/** A signed-in browser's cookie and CSRF token; its address verified unless asked otherwise. */
async function signedIn(verified = true) {
  const { token, user } = await people.signUp(newAddress('checkout-routes'), PASSWORD);
  if (verified) await people.verifyEmail((await people.verificationToken(user.id)).token);
  return {
    customerId: user.customerId,
    headers: { cookie: `qrf_session=${token}`, 'x-csrf-token': csrfTokenOf(token) },
  };
}

const buy = (headers: Record<string, string>, body: unknown = { packId: 'studio', withdrawalWaiver: GIVEN_WAIVER }) =>
  call(server.origin, '/api/checkout', { body, headers, from: newClient() });
const refused = (a: Answer) => ({ status: a.status, success: a.body.success, code: a.body.code, field: a.body.field });
const available = async (customerId: string) => (await accounts.balance(customerId)).available;

describe('GET /api/packs', () => {
  it('lists every offer’s public fields and the waiver text a checkout shows, to anyone', async () => {
    const a = await call(server.origin, '/api/packs');
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      success: true,
      packs: CATALOGUE.offers.map(({ id, name, kind, credits, price, currency, validMonths }) => ({
        id,
        name,
        kind,
        credits,
        price,
        currency,
        validMonths,
      })),
      serverAi: { available: true },
      withdrawalWaiver: { textVersion: WAIVER_VERSION, ...WAIVER_TEXT },
    });
    expect(a.body.packs.length).toBeGreaterThan(0);
  });
});

describe('POST /api/checkout', () => {
  it('sells the pack to the signed-in account, paid at once in test mode: its credits are there', async () => {
    const b = await signedIn();
    const studio = CATALOGUE.offer('studio')!;
    const a = await buy(b.headers);
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      success: true,
      orderId: expect.stringMatching(/^ord_/),
      customerId: b.customerId,
      status: 'paid',
      testMode: true,
      packId: expect.stringMatching(/^pack_/),
      credits: studio.credits,
      expiresAt: expect.any(String),
    });
    expect(await available(b.customerId)).toBe(studio.credits);
  });

  it('refuses a browser without a session (401 session_required) or without its CSRF token (403 csrf_failed)', async () => {
    expect(refused(await buy({}))).toEqual({ status: 401, success: false, code: 'session_required', field: undefined });
    const b = await signedIn();
    const { cookie } = b.headers;
    for (const token of [undefined, '', 'x'.repeat(43)]) {
      const headers: Record<string, string> = token === undefined ? { cookie } : { cookie, 'x-csrf-token': token };
      expect(refused(await buy(headers))).toEqual({
        status: 403,
        success: false,
        code: 'csrf_failed',
        field: undefined,
      });
    }
    expect(await available(b.customerId)).toBe(0);
  });

  it('refuses an account whose address is not verified: 403 email_unverified, nothing sold', async () => {
    const b = await signedIn(false);
    expect(refused(await buy(b.headers))).toEqual({
      status: 403,
      success: false,
      code: 'email_unverified',
      field: undefined,
    });
    expect(await available(b.customerId)).toBe(0);
  });

  it('a body that is not JSON, or JSON no body may be, is 400 invalid_body, on the field at fault', async () => {
    const b = await signedIn();
    const cases: [string, string | undefined][] = [
      ['{"packId":', undefined],
      ['', undefined],
      ['{"packId":"studio","__proto__":{"admin":true}}', '__proto__'],
      ['{"packId":"studio","credits":1e999}', 'credits'],
    ];
    for (const [body, field] of cases)
      expect(refused(await buy(b.headers, body)), body).toEqual({
        status: 400,
        success: false,
        code: 'invalid_body',
        field,
      });
    const latin1 = await fetch(`${server.origin}/api/checkout`, {
      method: 'POST',
      headers: { ...b.headers, 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]),
    });
    expect(latin1.status).toBe(400);
    expect(((await latin1.json()) as { code: string }).code).toBe('invalid_body');
    expect(await available(b.customerId)).toBe(0);
  });

  it('passes the checkout’s own refusals on: an unknown pack, a waiver not given', async () => {
    const b = await signedIn();
    expect(refused(await buy(b.headers, { packId: 'gold', withdrawalWaiver: GIVEN_WAIVER }))).toEqual({
      status: 400,
      success: false,
      code: 'invalid_body',
      field: 'packId',
    });
    const unticked = { ...GIVEN_WAIVER, acknowledgement: false };
    expect(refused(await buy(b.headers, { packId: 'studio', withdrawalWaiver: unticked }))).toEqual({
      status: 400,
      success: false,
      code: 'withdrawal_waiver_required',
      field: 'withdrawalWaiver.acknowledgement',
    });
    expect(await available(b.customerId)).toBe(0);
  });

  it(`takes ${LIMIT} checkouts a minute from one address, refused or not, then 429 rate_limited; another address goes on`, async () => {
    const b = await signedIn(false);
    const from = newClient();
    const attempt = (headers: Record<string, string>) =>
      call(server.origin, '/api/checkout', { body: {}, headers, from });
    for (let i = 0; i < LIMIT; i++) expect((await attempt(b.headers)).body.code).toBe('email_unverified');
    const over = await attempt(b.headers);
    expect(refused(over)).toEqual({ status: 429, success: false, code: 'rate_limited', field: undefined });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // A verified buyer from the same address is refused too: the limit is the address's.
    const verified = await signedIn();
    expect((await attempt(verified.headers)).body.code).toBe('rate_limited');
    expect((await buy(verified.headers)).status).toBe(200);
  });
});
