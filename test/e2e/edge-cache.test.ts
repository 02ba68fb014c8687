/**
 * The site's edge cache end to end, over real HTTP: the built engine (two real render workers) and the site
 * started by startRoles with QR_ROLE=all, the account store on PGlite, and sites alone (QR_ROLE=site)
 * relaying to the same engine where a test needs other limits or no cache. What the engine was asked is
 * read from its own request log (QR_LOG_REQUESTS=1: `POST /api/qr/generate … relayed for <customer>`), one
 * line per relay; each test has its own customers and its own designs, so its counts are its own. Every
 * rendered file is decoded.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureConsole } from '../ai/secrets.js';
import type { Answer } from '../helpers/answers.js';
import {
  type Consumer,
  type CallOptions,
  call,
  consumerConfig,
  consumerStore,
  type ConsumerStore,
  type Env,
  headersWithout,
  refusal,
  startConsumer,
  type TestCustomer,
} from '../helpers/consumer.js';
import { decodeOne } from '../helpers/decode.js';
import { png, quadrants } from '../helpers/make-images.js';
import { bytesOf, serve, type TestServer } from '../images/loopback.js';

const RAISED_LIMITS = { QR_LIMIT_GENERAL: '5000', QR_LIMIT_GENERATION: '5000', QR_LIMIT_AI: '5000' };

let consoleCapture: ReturnType<typeof captureConsole>;
let store: ConsumerStore;
let c: Consumer;
let images: TestServer;
const sites: Consumer[] = [];

/** A site alone relaying to the suite's engine, with `env` over the suite's variables. */
async function siteWith(env: Env): Promise<Consumer> {
  const config = await consumerConfig({
    ...store.env,
    ...RAISED_LIMITS,
    QR_ROLE: 'site',
    QR_ENGINE_URL: c.engineUrl!,
    QR_LOG_REQUESTS: '1',
    ...env,
  });
  const site = await startConsumer(config);
  sites.push(site);
  return site;
}

beforeAll(async () => {
  consoleCapture = captureConsole();
  images = await serve({ '/logo.png': bytesOf(png(quadrants(64, 64)), 'image/png') });
  store = await consumerStore('pglite');
  c = await startConsumer(
    await consumerConfig({ ...store.env, ...RAISED_LIMITS, QR_LOG_REQUESTS: '1', QR_FETCH_ALLOW_LOOPBACK: '1' }),
  );
});
afterAll(async () => {
  for (const site of sites) await site.close();
  await c?.close();
  await store?.close();
  await images?.close();
  consoleCapture?.restore();
});

let designs = 0;
/** Content no other test renders, so no other test's requests are in the cache for it. */
const contentOf = (name: string) => `https://edge.example.com/${name}?n=${designs++}&pid=${process.pid}`;

/** Relays the engine logged for `customer` to `enginePath` (e.g. `POST /api/qr/generate`). */
async function relays(customer: TestCustomer, enginePath: string): Promise<number> {
  // The engine logs a request once its handler has finished, after the answer went out.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const line = new RegExp(`^${enginePath.replace(/[/?.]/g, '\\$&')} [\\d.]+ ms relayed for ${customer.id}$`, 'gm');
  return consoleCapture.text().match(line)?.length ?? 0;
}

const v1 = (site: Consumer, who: TestCustomer, target: string, o: CallOptions = {}) =>
  call(site.siteUrl, target, { key: who.key, ...o });

/** `n` identical requests, one after another. */
async function repeat(n: number, send: () => Promise<Answer>): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await send());
  return out;
}

/** The same status, headers (but the date and the request's own limit fields) and bytes. */
function expectSameAnswer(a: Answer, b: Answer): void {
  expect(a.status).toBe(b.status);
  const own = ['date', 'ratelimit', 'ratelimit-policy'];
  expect(headersWithout(a.headers, ...own)).toEqual(headersWithout(b.headers, ...own));
  expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
}

/** Remaining requests of the window, from the answer's RateLimit field. */
const remaining = (a: Answer) => Number(/;r=(\d+);/.exec(a.headers.get('ratelimit') ?? '')?.[1]);

describe('a repeated render is answered by the site', () => {
  it('binary PNG: five identical requests, the same status, headers and bytes; the engine rendered two', async () => {
    const alice = await c.customer();
    const content = contentOf('binary');
    const body = { content, responseType: 'binary', outputWidth: 300 };
    const answers = await repeat(5, () => v1(c, alice, '/api/v1/qr/generate', { body }));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toBe('image/png');
      expectSameAnswer(a, answers[0]!);
    }
    expect((await decodeOne('png', answers[4]!.bytes)).text).toBe(content);
    // Kept on the second sighting, like the engine's renders: the third request on is the site's.
    expect(await relays(alice, 'POST /api/qr/generate')).toBe(2);
    // The engine asked directly gives the same answer.
    const direct = await call(c.engineUrl!, '/api/qr/generate', { body });
    expectSameAnswer(answers[4]!, direct);
    // Each request was counted against the limit, hits included…
    expect(answers.map(remaining)).toEqual([4999, 4998, 4997, 4996, 4995]);
    // …and for the usage chart, as a relayed call is.
    const [today] = await c.accounts.usage(alice.id, 1);
    expect(today).toMatchObject({ generation: 5, general: 0 });
  });

  it('JSON (base64) render of a template, the template list and a content payload: kept and given again', async () => {
    const bob = await c.customer();
    const list = await repeat(3, () => v1(c, bob, '/api/v1/qr/templates?category=business'));
    for (const a of list) expectSameAnswer(a, list[0]!);
    expect(list[2]!.body.count).toBeGreaterThan(0);
    const id = list[0]!.body.templates[0].id as string;

    const content = contentOf('template');
    const body = { content, fileFormat: 'png', outputWidth: 320 };
    const renders = await repeat(3, () => v1(c, bob, `/api/v1/qr/templates/${id}`, { body }));
    for (const a of renders) expectSameAnswer(a, renders[0]!);
    expect(renders[2]!.body).toMatchObject({ success: true, format: 'png', width: 320 });
    const file = Buffer.from(renders[2]!.body.qrBase64, 'base64');
    expect((await decodeOne('png', file)).text).toBe(content);

    const wifi = { ssid: `edge-${designs++}`, password: 'pa;ss-word', encryption: 'WPA' };
    const payloads = await repeat(3, () => v1(c, bob, '/api/v1/qr/content/wifi', { body: wifi }));
    for (const a of payloads) expectSameAnswer(a, payloads[0]!);
    expectSameAnswer(payloads[2]!, await call(c.engineUrl!, '/api/qr/content/wifi', { body: wifi }));
    expect(payloads[2]!.status).toBe(200);
    expect(payloads[2]!.body.content).toMatch(new RegExp(`^WIFI:.*S:${wifi.ssid};`));

    // The engine logs the path without its query.
    expect(await relays(bob, 'GET /api/qr/templates')).toBe(2);
    expect(await relays(bob, `POST /api/qr/templates/${id}`)).toBe(2);
    expect(await relays(bob, 'POST /api/qr/content/wifi')).toBe(2);
  });

  it('the ping is never kept: each one is relayed', async () => {
    const carol = await c.customer();
    const pings = await repeat(4, () => v1(c, carol, '/api/v1/ping'));
    for (const p of pings) expect(p.body).toMatchObject({ success: true, status: 'ok' });
    expect(await relays(carol, 'GET /api/ping')).toBe(4);
  });
});

describe('every check before the relay still runs on a hit', () => {
  it('the rate limit refuses at the boundary though the answer is kept', async () => {
    const site = await siteWith({ QR_LIMIT_GENERATION: '4' });
    const dave = await site.customer();
    const content = contentOf('limit');
    const body = { content, responseType: 'binary', outputWidth: 240 };
    const answers = await repeat(5, () => v1(site, dave, '/api/v1/qr/generate', { body }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429]);
    expect(answers.slice(0, 4).map(remaining)).toEqual([3, 2, 1, 0]);
    expect(refusal(answers[4]!)).toEqual({ status: 429, success: false, code: 'rate_limited' });
    expect(Number(answers[4]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await decodeOne('png', answers[3]!.bytes)).text).toBe(content);
    // The third and fourth were the site's own: the limit held on hits, not only on relays.
    expect(await relays(dave, 'POST /api/qr/generate')).toBe(2);
  });

  it('another customer gets the kept answer under their own key, limit and count; no pack or no key is refused', async () => {
    const erin = await c.customer();
    const frank = await c.customer();
    const gina = await c.customer(0);
    const content = contentOf('shared');
    const body = { content, responseType: 'binary', outputWidth: 260 };
    const [, kept] = await repeat(2, () => v1(c, erin, '/api/v1/qr/generate', { body }));
    const theirs = await v1(c, frank, '/api/v1/qr/generate', { body });
    expectSameAnswer(theirs, kept!);
    expect(remaining(theirs)).toBe(4999);
    expect((await decodeOne('png', theirs.bytes)).text).toBe(content);
    expect(await relays(frank, 'POST /api/qr/generate')).toBe(0);
    expect((await c.accounts.usage(frank.id, 1))[0]).toMatchObject({ generation: 1 });

    const noPack = await v1(c, gina, '/api/v1/qr/generate', { body });
    expect(refusal(noPack)).toEqual({ status: 402, success: false, code: 'studio_required' });
    const noKey = await call(c.siteUrl, '/api/v1/qr/generate', { body });
    expect(refusal(noKey)).toEqual({ status: 401, success: false, code: 'missing_api_key' });
    const mistyped = erin.key.slice(0, -1) + (erin.key.endsWith('a') ? 'b' : 'a');
    const badKey = await call(c.siteUrl, '/api/v1/qr/generate', { body, key: mistyped });
    expect(refusal(badKey)).toEqual({ status: 401, success: false, code: 'invalid_api_key' });
  });

  it('another body, query or Host gets its own answer', async () => {
    const hana = await c.customer();
    const first = contentOf('first');
    const second = contentOf('second');
    const send = (content: string, target = '/api/v1/qr/generate') =>
      v1(c, hana, target, { body: { content, responseType: 'binary' } });
    await repeat(2, () => send(first));
    const other = await send(second);
    expect((await decodeOne('png', other.bytes)).text).toBe(second);
    expect((await decodeOne('png', (await send(first)).bytes)).text).toBe(first);
    // A different query string is another request to the engine (which ignores it here).
    expect((await decodeOne('png', (await send(first, '/api/v1/qr/generate?x=1')).bytes)).text).toBe(first);
    // first twice (kept on the second), second once, first with the query once; the engine logs no query.
    expect(await relays(hana, 'POST /api/qr/generate')).toBe(4);

    // The template list's links name the Host the client called: one kept list per Host.
    const listOn = (host: string) =>
      new Promise<{ status: number; body: { templates: { preview: string }[] } }>((resolve, reject) => {
        const { port } = new URL(c.siteUrl);
        const req = request({
          host: '127.0.0.1',
          port,
          path: '/api/v1/qr/templates',
          headers: { host, 'x-api-key': hana.key },
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const host of ['one.example:8080', 'two.example:9090', 'one.example:8080', 'two.example:9090']) {
      for (let i = 0; i < 2; i++) {
        const list = await listOn(host);
        expect(list.status).toBe(200);
        expect(list.body.templates[0]!.preview).toMatch(new RegExp(`^http://${host}/api/qr/templates/[^/]+/preview$`));
      }
    }
    expect(await relays(hana, 'GET /api/qr/templates')).toBe(4);
  });
});

describe('conditional requests', () => {
  it('If-None-Match with the kept ETag: 304 from the site, as the engine gives; another ETag: the 200', async () => {
    const ivan = await c.customer();
    const body = { content: contentOf('etag'), responseType: 'binary', outputWidth: 280 };
    const [, kept] = await repeat(2, () => v1(c, ivan, '/api/v1/qr/generate', { body }));
    const etag = kept!.headers.get('etag')!;
    expect(etag).toMatch(/^".+b"$/);
    const direct = await call(c.engineUrl!, '/api/qr/generate', { body, headers: { 'if-none-match': etag } });
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const a = await v1(c, ivan, '/api/v1/qr/generate', { body, headers: { 'if-none-match': tag } });
      expect(a.status).toBe(304);
      expect(a.bytes.length).toBe(0);
      expect(headersWithout(a.headers, 'date', 'ratelimit', 'ratelimit-policy')).toEqual(
        headersWithout(direct.headers, 'date'),
      );
    }
    const stale = await v1(c, ivan, '/api/v1/qr/generate', { body, headers: { 'if-none-match': '"other"' } });
    expectSameAnswer(stale, kept!);
    expect(await relays(ivan, 'POST /api/qr/generate')).toBe(2);
  });
});

describe('what is never kept', () => {
  it('errors: an engine refusal is relayed every time', async () => {
    const judy = await c.customer();
    const body = { content: contentOf('refused'), outputWidth: 5 };
    const answers = await repeat(3, () => v1(c, judy, '/api/v1/qr/generate', { body }));
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(a.body).toMatchObject({ success: false, field: 'outputWidth' });
    }
    expect(await relays(judy, 'POST /api/qr/generate')).toBe(3);
  });

  it('an answer over the size bound (64 KB): streamed from the engine every time, the same bytes', async () => {
    const kim = await c.customer();
    const content = contentOf('large');
    const body = { content, responseType: 'binary', fileFormat: 'jpg', outputWidth: 2048 };
    const answers = await repeat(3, () => v1(c, kim, '/api/v1/qr/generate', { body }));
    expect(answers[0]!.bytes.byteLength).toBeGreaterThan(64 * 1024);
    for (const a of answers) expectSameAnswer(a, answers[0]!);
    expect((await decodeOne('jpg', answers[2]!.bytes)).text).toBe(content);
    expect(await relays(kim, 'POST /api/qr/generate')).toBe(3);
  });

  it('a render with a logoUrl: the engine fetches the image every time, so it is relayed every time', async () => {
    const leo = await c.customer();
    const content = contentOf('logo');
    const body = { content, logoUrl: `${images.url}/logo.png`, responseType: 'binary', outputWidth: 300 };
    const fetched = images.hits.length;
    const answers = await repeat(3, () => v1(c, leo, '/api/v1/qr/generate', { body }));
    for (const a of answers) expect(a.status).toBe(200);
    expect((await decodeOne('png', answers[2]!.bytes)).text).toBe(content);
    expect(images.hits.length - fetched).toBe(3);
    expect(await relays(leo, 'POST /api/qr/generate')).toBe(3);
  });

  it('QR_SITE_CACHE_MB=0: nothing is kept', async () => {
    const site = await siteWith({ QR_SITE_CACHE_MB: '0' });
    const mia = await site.customer();
    const content = contentOf('off');
    const body = { content, responseType: 'binary', outputWidth: 220 };
    const answers = await repeat(3, () => v1(site, mia, '/api/v1/qr/generate', { body }));
    for (const a of answers) expectSameAnswer(a, answers[0]!);
    expect((await decodeOne('png', answers[2]!.bytes)).text).toBe(content);
    expect(await relays(mia, 'POST /api/qr/generate')).toBe(3);
  });
});
