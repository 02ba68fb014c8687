/**
 * The gateway's routes (src/gateway/gateway.ts) over real HTTP, served alone by the built front end with
 * the accounts on PGlite in memory, the limiter and the credential throttle in memory, the edge cache, and
 * an engine stand-in reached through the real EngineClient that checks every relay's signature: each route
 * behind the caller's key, the checks in their order (limit, Studio pack, usage count, the parameters the
 * gateway opens, the body), the engine path and the query relayed, what is signed for whom, credits spent
 * by server AI only, and which answers the edge cache gives again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Accounts } from '../../src/accounts/index.js';
import type { SiteSettings } from '../../src/config.js';
import type { EngineClient } from '../../src/gateway/engine-client.js';
import type { GatewayDeps } from '../../src/gateway/gateway.js';
import type { Answer } from '../helpers/answers.js';
import { type CallOptions, call } from '../helpers/consumer.js';
import { openTestDatabase, TEST_PEPPER, type TestDatabase } from '../helpers/databases.js';
import { type StandInEngine, startStandInEngine } from '../helpers/engine-stand-in.js';
import { type RouteServer, serveRoutes } from '../helpers/route-server.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { createAccounts } = (await import(dist('accounts/index.js'))) as typeof import('../../src/accounts/index.js');
const { gatewayRoutes } = (await import(dist('gateway/gateway.js'))) as typeof import('../../src/gateway/gateway.js');
const { GATEWAY_ROUTES } = (await import(dist('gateway/routes.js'))) as typeof import('../../src/gateway/routes.js');
const { EngineClient: Client } = (await import(
  dist('gateway/engine-client.js')
)) as typeof import('../../src/gateway/engine-client.js');
const { CustomerLimiter } = (await import(dist('gateway/limits.js'))) as typeof import('../../src/gateway/limits.js');
const { CredentialThrottle } = (await import(
  dist('gateway/failure-throttle.js')
)) as typeof import('../../src/gateway/failure-throttle.js');
const { EdgeCache } = (await import(dist('gateway/edge-cache.js'))) as typeof import('../../src/gateway/edge-cache.js');

const SECRET = 'gateway-unit-relay-secret-0123456789abcdef0123456789abcdef';
/** Calls of each class a customer may make a minute here. */
const LIMIT = 10;
const MAX_OUTPUT_BYTES = 4096;
const settings = {
  maxOutputBytes: MAX_OUTPUT_BYTES,
  docsUrl: 'https://docs.example.com',
  pricingUrl: 'https://example.com/pricing',
} as SiteSettings;

let t: TestDatabase;
let accounts: Accounts;
let engine: StandInEngine;
let client: EngineClient;
let server: RouteServer;
let customers = 0;

/** The gateway's routes with `engineClient`, served alone; with an edge cache unless `cached` is false. */
function gatewayServer(engineClient: EngineClient, cached = true): Promise<RouteServer> {
  const deps: GatewayDeps = {
    accounts,
    engine: engineClient,
    settings,
    limiter: new CustomerLimiter({ limits: { general: LIMIT, generation: LIMIT, ai: LIMIT }, log: () => {} }),
    credentialFailures: new CredentialThrottle(100, { log: () => {} }),
    edgeCache: cached ? new EdgeCache(1 << 20) : undefined,
  };
  return serveRoutes(gatewayRoutes(deps));
}

beforeAll(async () => {
  t = await openTestDatabase('pglite');
  accounts = createAccounts(t.db, { pepper: TEST_PEPPER });
  engine = await startStandInEngine(SECRET);
  client = new Client([engine.origin], [SECRET], 10_000);
  server = await gatewayServer(client);
});
afterAll(async () => {
  server?.close();
  await client?.close();
  await engine?.close();
  await accounts?.close();
  await t?.close();
});
beforeEach(() => {
  engine.requests.length = 0;
  engine.answer = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"success":true}' });
});

/** A customer with a key and, unless `credits` is 0, an active Studio pack. */
async function customer(credits = 5) {
  const { id } = await accounts.createCustomer(`gateway-unit-${customers++}@example.com`);
  const { key } = await accounts.issueKey(id);
  if (credits > 0) await accounts.grantPack({ customerId: id, credits });
  return { id, key };
}

const send = (path: string, o: CallOptions = {}) => call(server.origin, path, o);
const refused = (a: Answer) => ({ status: a.status, code: a.body?.code, field: a.body?.field });
const WIFI = { ssid: 'Office', password: 'secret', encryption: 'WPA' };

describe('who may call', () => {
  it('every gateway route and the direct server-AI route need X-API-Key; the engine is never asked', async () => {
    const routes = [
      ...GATEWAY_ROUTES.map((r) => [r.method, r.path] as const),
      ['POST', '/api/qr/ai/generate/server'] as const,
    ];
    const { key } = await customer();
    for (const [method, path] of routes) {
      const target = path.replace(':id', 'event').replace(':type', 'wifi');
      const o = method === 'POST' ? { body: {} } : {};
      expect(refused(await send(target, { method, ...o })), target).toEqual({
        status: 401,
        code: 'missing_api_key',
        field: undefined,
      });
      expect(refused(await send(target, { method, ...o, key: `${key.slice(0, -4)}AAAA` })), target).toEqual({
        status: 401,
        code: 'invalid_api_key',
        field: undefined,
      });
    }
    expect(engine.requests).toEqual([]);
  });

  it('a customer without an active Studio pack: 402 studio_required with where to buy one, nothing relayed', async () => {
    const { key } = await customer(0);
    const a = await send('/api/v1/ping', { key });
    expect(a.status).toBe(402);
    expect(a.body).toMatchObject({
      success: false,
      code: 'studio_required',
      docs: 'https://docs.example.com',
      pricing: 'https://example.com/pricing',
    });
    expect(engine.requests).toEqual([]);
  });

  it(`the customer’s limit per class: ${LIMIT} a minute, then 429 rate_limited before the engine is asked`, async () => {
    const { key } = await customer();
    for (let i = 0; i < LIMIT; i++) {
      const a = await send('/api/v1/ping', { key });
      expect(a.status).toBe(200);
      expect(a.headers.get('ratelimit')).toMatch(new RegExp(`;r=${LIMIT - 1 - i};`));
    }
    expect(refused(await send('/api/v1/ping', { key }))).toEqual({
      status: 429,
      code: 'rate_limited',
      field: undefined,
    });
    expect(engine.requests.length).toBe(LIMIT);
    // Another class has its own count.
    expect((await send('/api/v1/qr/generate', { key, body: { content: 'x' } })).status).toBe(200);
  });
});

describe('what is relayed', () => {
  it('to the engine path, the query kept, parameters encoded again, signed for the key’s owner', async () => {
    const { id, key } = await customer();
    engine.answer = () => ({
      status: 201,
      headers: { 'content-type': 'application/json', 'x-engine': 'yes' },
      body: '{"success":true,"from":"engine"}',
    });
    const a = await send('/api/v1/qr/templates/caf%C3%A9%20menu?responseType=json&x=%2F', {
      key,
      body: { content: 'https://example.com' },
      headers: { cookie: 'qrf_session=secret', authorization: 'Bearer x', accept: 'image/png' },
    });
    expect({ status: a.status, body: a.body, engineHeader: a.headers.get('x-engine') }).toEqual({
      status: 201,
      body: { success: true, from: 'engine' },
      engineHeader: 'yes',
    });
    const [r] = engine.requests;
    expect(r).toMatchObject({
      method: 'POST',
      url: '/api/qr/templates/caf%C3%A9%20menu?responseType=json&x=%2F',
      signedFor: id,
    });
    expect(JSON.parse(r!.body.toString())).toEqual({ content: 'https://example.com' });
    // Only what the engine needs of the caller's headers crosses: never the key, cookies or Authorization.
    expect(r!.headers['x-api-key']).toBeUndefined();
    expect(r!.headers.cookie).toBeUndefined();
    expect(r!.headers.authorization).toBeUndefined();
    expect(r!.headers.accept).toBe('image/png');
  });

  it('a GET route relays no body; the template list carries the Host the client called', async () => {
    const { key } = await customer();
    await send('/api/v1/qr/templates', { key });
    expect(engine.requests.map((r) => [r.method, r.url, r.body.length, r.headers['x-forwarded-host']])).toEqual([
      ['GET', '/api/qr/templates', 0, new URL(server.origin).host],
    ]);
  });

  it('counts each admitted call in its class for the day’s usage', async () => {
    const { id, key } = await customer();
    await send('/api/v1/ping', { key });
    await send('/api/v1/qr/generate', { key, body: { content: 'x' } });
    await send('/api/v1/qr/generate', { key, body: { content: 'y' } });
    const [today] = await accounts.usage(id, 1);
    expect(today).toMatchObject({ general: 1, generation: 2, ai: 0, creditsSpent: 0 });
  });

  it('opens only wifi, vcard and geo of the content types: any other is 404 NOT_FOUND saying which', async () => {
    const { key } = await customer();
    for (const type of ['wifi', 'vcard', 'geo'])
      expect((await send(`/api/v1/qr/content/${type}`, { key, body: {} })).status, type).toBe(200);
    for (const type of ['sms', 'email', 'WIFI', 'wifi%00']) {
      const a = await send(`/api/v1/qr/content/${type}`, { key, body: {} });
      expect(refused(a), type).toEqual({ status: 404, code: 'NOT_FOUND', field: undefined });
      expect(a.body.error).toMatch(/; the gateway opens wifi, vcard, geo\.$/);
    }
    expect(engine.requests.map((r) => r.url)).toEqual([
      '/api/qr/content/wifi',
      '/api/qr/content/vcard',
      '/api/qr/content/geo',
    ]);
  });

  it('takes JSON bodies only: another type is 400 invalid_body, multipart 415, unparsable JSON 400', async () => {
    const { key } = await customer();
    const cases: [Record<string, string>, string, number, string][] = [
      [{ 'content-type': 'text/plain' }, '{}', 400, 'invalid_body'],
      [{ 'content-type': 'application/jsonp' }, '{}', 400, 'invalid_body'],
      [{ 'content-type': 'multipart/form-data; boundary=x' }, '--x--', 415, 'multipart_not_supported'],
      [{ 'content-type': 'application/json' }, '{"content":', 400, 'invalid_body'],
      [{ 'content-type': 'application/json; charset=utf-8' }, 'null x', 400, 'invalid_body'],
    ];
    for (const [headers, body, status, code] of cases)
      for (const path of ['/api/v1/qr/generate', '/api/v1/qr/content/wifi', '/api/v1/qr/ai/generate/server'])
        expect(refused(await send(path, { key, body, headers })), `${path} ${headers['content-type']}`).toEqual({
          status,
          code,
          field: undefined,
        });
    expect(engine.requests).toEqual([]);
  });

  it('an engine answer over the output limit is 413 output_too_large, and not kept', async () => {
    const { key } = await customer();
    engine.answer = () => ({
      status: 200,
      headers: { 'content-type': 'image/png' },
      body: Buffer.alloc(MAX_OUTPUT_BYTES + 1),
    });
    for (let i = 0; i < 2; i++)
      expect(refused(await send('/api/v1/qr/content/geo', { key, body: { lat: 1, lng: 2 } }))).toEqual({
        status: 413,
        code: 'output_too_large',
        field: undefined,
      });
    expect(engine.requests.length).toBe(2);
  });

  it('an engine nobody answers at: 503 engine_unavailable', async () => {
    const down = new Client(['http://127.0.0.1:9'], [SECRET], 10_000);
    const alone = await gatewayServer(down);
    try {
      const { key } = await customer();
      expect(refused(await call(alone.origin, '/api/v1/ping', { key }))).toEqual({
        status: 503,
        code: 'engine_unavailable',
        field: undefined,
      });
    } finally {
      alone.close();
      await down.close();
    }
  });
});

describe('server AI', () => {
  const design = '{"success":true,"design":{"moduleShape":"dots"}}';

  it('under /api/v1 and at the direct path alike: one credit a design, the same key and limit', async () => {
    const { id, key } = await customer(3);
    engine.answer = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: design });
    const v1 = await send('/api/v1/qr/ai/generate/server', { key, body: { prompt: 'dots' } });
    const direct = await send('/api/qr/ai/generate/server', { key, body: { prompt: 'dots' } });
    expect([v1.body.creditsRemaining, direct.body.creditsRemaining]).toEqual([2, 1]);
    expect((await accounts.balance(id)).available).toBe(1);
    expect(engine.requests.map((r) => [r.url, r.signedFor])).toEqual([
      ['/api/qr/ai/generate/server', id],
      ['/api/qr/ai/generate/server', id],
    ]);
    const [today] = await accounts.usage(id, 1);
    expect(today).toMatchObject({ ai: 2, creditsSpent: 2 });
  });

  it('is never answered from the edge cache', async () => {
    const { key } = await customer(3);
    engine.answer = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: design });
    await send('/api/v1/qr/ai/generate/server', { key, body: { prompt: 'same' } });
    await send('/api/v1/qr/ai/generate/server', { key, body: { prompt: 'same' } });
    expect(engine.requests.length).toBe(2);
  });
});

describe('the edge cache', () => {
  // The cache admits an answer the second time its call is seen (src/cache/bounded-cache.ts), so a call is
  // relayed twice before it is answered from the cache.
  it('gives a kept answer again to the same call, after the key, limit and pack are checked', async () => {
    const { id, key } = await customer();
    let n = 0;
    engine.answer = () => ({
      status: 200,
      headers: { 'content-type': 'application/json', etag: '"w1"' },
      body: JSON.stringify({ success: true, n: ++n }),
    });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await send('/api/v1/qr/content/wifi', { key, body: WIFI })).body);
    expect(answers).toEqual([1, 2, 2, 2].map((k) => ({ success: true, n: k })));
    expect(engine.requests.length).toBe(2);
    // Another body, another path: relayed.
    await send('/api/v1/qr/content/wifi', { key, body: { ...WIFI, ssid: 'Lobby' } });
    await send('/api/v1/qr/content/vcard', { key, body: WIFI });
    expect(engine.requests.length).toBe(4);
    // Answered from the cache, still counted and still behind the pack.
    expect((await accounts.usage(id, 1))[0]).toMatchObject({ general: 6 });
    const other = await customer(0);
    expect(refused(await send('/api/v1/qr/content/wifi', { key: other.key, body: WIFI })).code).toBe('studio_required');
    // An If-None-Match of the kept ETag is a 304.
    const revalidated = await send('/api/v1/qr/content/wifi', {
      key,
      body: WIFI,
      headers: { 'if-none-match': '"w1"' },
    });
    expect(revalidated.status).toBe(304);
    expect(engine.requests.length).toBe(4);
  });

  it('never keeps the ping, nor a render whose body names an image to fetch', async () => {
    const { key } = await customer();
    const logo = { content: 'x', logoUrl: 'https://example.com/logo.png' };
    for (let i = 0; i < 3; i++) {
      await send('/api/v1/ping', { key });
      await send('/api/v1/qr/generate', { key, body: logo });
    }
    expect(engine.requests.length).toBe(6);
    for (let i = 0; i < 3; i++) await send('/api/v1/qr/generate', { key, body: { content: 'plain' } });
    expect(engine.requests.length).toBe(8);
  });

  it('without one, every call is relayed', async () => {
    const alone = await gatewayServer(client, false);
    const { key } = await customer();
    try {
      for (let i = 0; i < 3; i++) await call(alone.origin, '/api/v1/qr/content/geo', { key, body: { lat: 1, lng: 2 } });
    } finally {
      alone.close();
    }
    expect(engine.requests.length).toBe(3);
  });
});

describe('GET /api/qr/templates/:id/preview', () => {
  it('is public: relayed unsigned to the engine’s preview, its id encoded again, and kept', async () => {
    engine.answer = () => ({ status: 200, headers: { 'content-type': 'image/png' }, body: Buffer.from('png bytes') });
    const a = await send('/api/qr/templates/caf%C3%A9%2Fmenu/preview', { headers: { 'x-api-key': 'ignored' } });
    expect(a.status).toBe(200);
    expect(Buffer.from(a.bytes).toString()).toBe('png bytes');
    expect(a.headers.get('content-type')).toBe('image/png');
    for (let i = 0; i < 3; i++)
      expect(Buffer.from((await send('/api/qr/templates/caf%C3%A9%2Fmenu/preview')).bytes).toString()).toBe(
        'png bytes',
      );
    const relayed = ['GET', '/api/qr/templates/caf%C3%A9%2Fmenu/preview', null];
    expect(engine.requests.map((r) => [r.method, r.url, r.signedFor])).toEqual([relayed, relayed]);
  });
});
