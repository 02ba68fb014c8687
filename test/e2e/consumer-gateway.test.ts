/**
 * The /api/v1 gateway end to end, over real HTTP: the built engine (two real render workers) and the site
 * started by startRoles with QR_ROLE=all, the account store on PGlite and on the real PostgreSQL (one
 * describe each, same tests), server AI designed by a loopback fake groq. Every route of the table with a
 * valid key and an active pack answers what the engine answers directly; every refusal of the gateway's
 * own; engines that are down, hang or render too much; and no key material in the engine's request log,
 * on the wire between site and engine, or in any answer. Every rendered file is decoded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newKey } from '../../src/accounts/key-format.js';
import { encodePng } from '../../src/render/formats/png.js';
import { type FakeVendor, startFakeVendor, success } from '../ai/fake-vendor.js';
import { captureConsole, expectNoSecret } from '../ai/secrets.js';
import { type Answer, transcript } from '../helpers/answers.js';
import {
  type CallOptions,
  type Consumer,
  type ConsumerStore,
  call,
  consumerConfig,
  consumerStore,
  eventually,
  GROQ_KEY,
  groqEnv,
  headersWithout,
  INTERNAL_SECRET,
  KEY_PEPPER,
  refusal,
  startConsumer,
  stoppableClock,
  type TestCustomer,
} from '../helpers/consumer.js';
import { DRIVERS, type DriverName } from '../helpers/databases.js';
import { decodeOne } from '../helpers/decode.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { chunkedFraming, rawExchange, readLate, startLink, startSilentServer, unusedPort } from '../helpers/tcp.js';

const { sampleContent } = (await import(
  new URL('../../dist/src/templates/check.js', import.meta.url).href
)) as typeof import('../../src/templates/check.js');

const CONTENT = 'https://shop.example.com/gateway?ref=e2e&lang=fr';

/** An opaque `n` × `n` PNG of seeded noise. */
function noisePng(n: number): Uint8Array {
  const random = seededRandom(20261126);
  const pixels = new Uint8Array(n * n * 4).map((_, i) => (i % 4 === 3 ? 255 : Math.floor(random() * 256)));
  return encodePng({ kind: 'rgba', width: n, height: n, pixels });
}
const DESIGN = {
  config: { primaryColor: '#1b3a4b', backgroundColor: '#f7f3e8', moduleShape: 'rounded', eccLevel: 'Q' },
  explanation: 'Deep teal on cream.',
};
const BRIEF = { content: CONTENT, prompt: 'calm teal for a tea shop', outputWidth: 256 };
/** Limits high enough that no test here meets them; the limits themselves are consumer-instances' subject. */
const RAISED_LIMITS = { QR_LIMIT_GENERAL: '5000', QR_LIMIT_GENERATION: '5000', QR_LIMIT_AI: '5000' };
const MiB = 1024 * 1024;
/** Where the 402 answers send people (QR_DOCS_URL, QR_PRICING_URL). */
const DOCS_URL = 'https://qrfarm.example/docs/studio';
const PRICING_URL = 'https://qrfarm.example/pricing#studio';

let groq: FakeVendor;
let consoleCapture: ReturnType<typeof captureConsole>;
/** Every key a suite issued, for the checks that none leaks. */
const issuedKeys: string[] = [];

beforeAll(async () => {
  consoleCapture = captureConsole();
  groq = await startFakeVendor('openai', GROQ_KEY);
});
afterAll(async () => {
  consoleCapture?.restore();
  await groq?.close();
});
beforeEach(() => {
  groq.clearReplies();
  groq.reply(success.openai(JSON.stringify(DESIGN)));
});

const file = (a: Answer): Uint8Array => new Uint8Array(Buffer.from(a.body.qrBase64, 'base64'));

/** The gateway's rate-limit fields for `limitClass` at the suite's raised limits. */
function expectLimitFields(a: Answer, limitClass: 'general' | 'generation' | 'ai'): void {
  expect(a.headers.get('ratelimit-policy')).toBe(`"${limitClass}";q=5000;w=60`);
  expect(a.headers.get('ratelimit')).toMatch(new RegExp(`^"${limitClass}";r=\\d+;t=\\d+$`));
}

/** The gateway's answer is the engine's: status, headers (but the date and its own limit fields) and bytes. */
function expectEngineAnswer(gateway: Answer, direct: Answer): void {
  expect(gateway.status).toBe(direct.status);
  expect(headersWithout(gateway.headers, 'date', 'ratelimit', 'ratelimit-policy')).toEqual(
    headersWithout(direct.headers, 'date'),
  );
  expect(Buffer.from(gateway.bytes).equals(Buffer.from(direct.bytes))).toBe(true);
}

function expectStudioRequired(a: Answer): void {
  expect(refusal(a)).toEqual({ status: 402, success: false, code: 'studio_required' });
  expect(a.body).toMatchObject({ docs: DOCS_URL, pricing: PRICING_URL });
}

function gatewaySuite(driver: DriverName): void {
  describe(`the /api/v1 gateway, accounts on ${driver}`, () => {
    const clock = stoppableClock();
    let store: ConsumerStore;
    let c: Consumer;
    let alice: TestCustomer;

    const customer = async (credits?: number) => {
      const made = await c.customer(credits);
      issuedKeys.push(made.key);
      return made;
    };
    const v1 = (target: string, o: CallOptions = {}) => call(c.siteUrl, target, { key: alice.key, ...o });
    const direct = (target: string, o: CallOptions = {}) => call(c.engineUrl!, target, o);
    /** A site alone (QR_ROLE=site) on this suite's store kind, relaying to `engineUrl`. */
    async function siteFor(engineUrl: string, env: Record<string, string> = {}, maxOutputBytes?: number) {
      const config = await consumerConfig(
        { ...store.env, ...RAISED_LIMITS, QR_ROLE: 'site', QR_ENGINE_URL: engineUrl, ...env },
        (cfg) => (maxOutputBytes === undefined ? cfg : { ...cfg, site: { ...cfg.site, maxOutputBytes } }),
      );
      return startConsumer(config);
    }

    beforeAll(async () => {
      store = await consumerStore(driver);
      const config = await consumerConfig({
        ...store.env,
        ...groqEnv(groq),
        ...RAISED_LIMITS,
        QR_LOG_REQUESTS: '1',
        QR_DOCS_URL: DOCS_URL,
        QR_PRICING_URL: PRICING_URL,
      });
      c = await startConsumer(config, clock.now);
      alice = await customer();
    });
    afterAll(async () => {
      await c?.close();
      await store?.close();
    });

    describe('every route of the table, with a valid key and an active pack', () => {
      it('POST /api/v1/qr/generate, binary: the engine’s PNG byte for byte, and it decodes', async () => {
        const body = { content: CONTENT, responseType: 'binary', outputWidth: 300 };
        const gateway = await v1('/api/v1/qr/generate', { body });
        expect(gateway.status).toBe(200);
        expect(gateway.headers.get('content-type')).toBe('image/png');
        expectEngineAnswer(gateway, await direct('/api/qr/generate', { body }));
        expectLimitFields(gateway, 'generation');
        expect((await decodeOne('png', gateway.bytes)).text).toBe(CONTENT);
      });

      it('a large answer (over the 64 KiB read whole) is streamed: the engine’s bytes, and it decodes', async () => {
        const body = { content: CONTENT, responseType: 'binary', fileFormat: 'jpg', outputWidth: 2048 };
        const gateway = await v1('/api/v1/qr/generate', { body });
        expect(gateway.status).toBe(200);
        expect(gateway.bytes.byteLength).toBeGreaterThan(64 * 1024);
        expectEngineAnswer(gateway, await direct('/api/qr/generate', { body }));
        expect((await decodeOne('jpg', gateway.bytes)).text).toBe(CONTENT);
      });

      it('a large answer to a client that reads late and slowly arrives whole, and it decodes', async () => {
        // A background of noise, which deflate cannot shrink: a PNG of several MB, under the site's 10 MB.
        const body = Buffer.from(
          JSON.stringify({
            content: CONTENT,
            responseType: 'binary',
            fileFormat: 'png',
            outputWidth: 2400,
            backgroundImageBase64: Buffer.from(noisePng(256)).toString('base64'),
          }),
        );
        const head = [
          'POST /api/v1/qr/generate HTTP/1.1',
          'Host: localhost',
          `X-API-Key: ${alice.key}`,
          'Content-Type: application/json',
          `Content-Length: ${body.byteLength}`,
          'Connection: close',
        ].join('\r\n');
        const answer = await readLate(Number(new URL(c.siteUrl).port), head, body, { slowly: true });
        expect(answer.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(answer.head)?.[1]);
        // Several MB, relayed in many chunks while the client lags.
        expect(length).toBeGreaterThan(6 * 1024 * 1024);
        expect(answer.body.byteLength).toBe(length);
        expect((await decodeOne('png', answer.body)).text).toBe(CONTENT);
      });

      it('POST /api/v1/qr/generate, base64 JSON: the engine’s answer, and the file decodes', async () => {
        const body = { content: CONTENT, fileFormat: 'png', eccLevel: 'H' };
        const gateway = await v1('/api/v1/qr/generate', { body });
        expect(gateway.status).toBe(200);
        expect(gateway.body).toMatchObject({ success: true, format: 'png', eccLevel: 'H' });
        expectEngineAnswer(gateway, await direct('/api/qr/generate', { body }));
        expect((await decodeOne('png', file(gateway))).text).toBe(CONTENT);
      });

      it('If-None-Match is relayed: the engine’s 304 comes back with its ETag', async () => {
        const body = { content: CONTENT, responseType: 'binary', outputWidth: 300 };
        const first = await v1('/api/v1/qr/generate', { body });
        const etag = first.headers.get('etag')!;
        expect(etag).toMatch(/^".+b"$/);
        const again = await v1('/api/v1/qr/generate', { body, headers: { 'if-none-match': etag } });
        expect(again.status).toBe(304);
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.bytes.length).toBe(0);
      });

      it('an engine refusal comes back unchanged (status, code, field)', async () => {
        const body = { content: CONTENT, outputWidth: 5 };
        const gateway = await v1('/api/v1/qr/generate', { body });
        expect(gateway.status).toBe(400);
        expect(gateway.body.field).toBe('outputWidth');
        expectEngineAnswer(gateway, await direct('/api/qr/generate', { body }));
      });

      it('GET /api/v1/qr/templates: the engine’s catalogue, its preview links on the site, which serves them', async () => {
        const gateway = await v1('/api/v1/qr/templates');
        expect(gateway.status).toBe(200);
        expect(gateway.body.count).toBeGreaterThan(10);
        expectLimitFields(gateway, 'general');
        const first = gateway.body.templates[0];
        expect(first.preview).toBe(`${c.siteUrl}/api/qr/templates/${first.id}/preview`);
        // The engine, asked directly, links to itself; otherwise the two answers are the same.
        const engine = await direct('/api/qr/templates');
        const asOnSite = Buffer.from(engine.bytes).toString('utf8').replaceAll(c.engineUrl!, c.siteUrl);
        expect(Buffer.from(gateway.bytes).toString('utf8')).toBe(asOnSite);
        expect(headersWithout(gateway.headers, 'date', 'ratelimit', 'ratelimit-policy', 'content-length')).toEqual(
          headersWithout(engine.headers, 'date', 'content-length'),
        );

        // The link works without a key (an <img> tag has none) and gives the engine's PNG.
        const preview = await call(c.siteUrl, new URL(first.preview).pathname);
        expect(preview.status).toBe(200);
        expectEngineAnswer(preview, await direct(`/api/qr/templates/${first.id}/preview`));
        expect((await decodeOne('png', preview.bytes)).text).toBe(sampleContent(first.id));
      });

      it('GET /api/v1/qr/templates?category=…: the query string is relayed', async () => {
        const gateway = await v1('/api/v1/qr/templates?category=business');
        expect(gateway.status).toBe(200);
        expect(gateway.body.count).toBeGreaterThan(0);
        for (const t of gateway.body.templates) expect(t.category).toBe('business');
        const all = await v1('/api/v1/qr/templates');
        expect(gateway.body.count).toBeLessThan(all.body.count);
      });

      it('POST /api/v1/qr/templates/:id renders the template as the engine does, and it decodes', async () => {
        const { templates } = (await v1('/api/v1/qr/templates')).body;
        for (const t of [templates[0], templates.at(-1)]) {
          const body = { content: CONTENT, outputWidth: 400, responseType: 'binary' };
          const gateway = await v1(`/api/v1/qr/templates/${t.id}`, { body });
          expect(gateway.status).toBe(200);
          expectLimitFields(gateway, 'generation');
          expectEngineAnswer(gateway, await direct(`/api/qr/templates/${t.id}`, { body }));
          expect((await decodeOne('png', gateway.bytes)).text).toBe(CONTENT);
        }
        const unknown = await v1('/api/v1/qr/templates/no-such-template', { body: { content: CONTENT } });
        expect(refusal(unknown)).toEqual({ status: 404, success: false, code: 'TEMPLATE_NOT_FOUND' });
      });

      it('POST /api/v1/qr/content/wifi, vcard and geo: the engine’s payloads, which render and decode', async () => {
        const helpers = {
          wifi: { ssid: 'Café; "Net"', password: 'pä;ss,w:o"rd', encryption: 'WPA' },
          vcard: { firstName: 'Zoë', lastName: "O'Brien", organization: 'Acme, Inc.', email: 'zoe@example.com' },
          geo: { latitude: 48.8584, longitude: 2.2945, query: 'Tour Eiffel, Paris' },
        };
        for (const [type, body] of Object.entries(helpers)) {
          const gateway = await v1(`/api/v1/qr/content/${type}`, { body });
          expect(gateway.status).toBe(200);
          expectLimitFields(gateway, 'general');
          expectEngineAnswer(gateway, await direct(`/api/qr/content/${type}`, { body }));
          const { content } = gateway.body;
          expect(content.length).toBeGreaterThan(10);
          const png = await v1('/api/v1/qr/generate', { body: { content, responseType: 'binary' } });
          expect((await decodeOne('png', png.bytes)).text).toBe(content);
        }
      });

      it('POST /api/v1/qr/content/<another type>: 404, though the engine has the helper', async () => {
        const body = { to: 'a@example.com', subject: 'Hi' };
        expect((await direct('/api/qr/content/email', { body })).status).toBe(200);
        const gateway = await v1('/api/v1/qr/content/email', { body });
        expect(refusal(gateway)).toEqual({ status: 404, success: false, code: 'NOT_FOUND' });
        expect(gateway.body.error).toMatch(/wifi, vcard, geo/);
      });

      it('GET /api/v1/qr/ai/providers: the engine’s list byte for byte', async () => {
        const gateway = await v1('/api/v1/qr/ai/providers');
        expect(gateway.status).toBe(200);
        expect(gateway.body.count).toBe(gateway.body.providers.length);
        expectEngineAnswer(gateway, await direct('/api/qr/ai/providers'));
      });

      it('GET /api/v1/ping: the engine’s ping (its counters move between two calls)', async () => {
        const gateway = await v1('/api/v1/ping');
        const engine = await direct('/api/ping');
        expect(gateway.status).toBe(200);
        expectLimitFields(gateway, 'general');
        expect(Object.keys(gateway.body).sort()).toEqual(Object.keys(engine.body).sort());
        expect(gateway.body).toMatchObject({ success: true, status: 'ok', version: engine.body.version });
        expect(headersWithout(gateway.headers, 'date', 'ratelimit', 'ratelimit-policy', 'content-length')).toEqual(
          headersWithout(engine.headers, 'date', 'content-length'),
        );
      });

      it('POST /api/v1/qr/ai/generate/server: designed by the server chain, rendered, one credit spent', async () => {
        const before = await c.accounts.balance(alice.id);
        const gateway = await v1('/api/v1/qr/ai/generate/server', { body: BRIEF });
        expect(gateway.status).toBe(200);
        expectLimitFields(gateway, 'ai');
        expect(gateway.body).toMatchObject({
          success: true,
          llmProviderUsed: 'groq',
          llmModelUsed: 'openai/gpt-oss-120b',
          aiExplanation: DESIGN.explanation,
          creditsRemaining: before.available - 1,
        });
        expect((await decodeOne('png', file(gateway))).text).toBe(CONTENT);
        expect(await c.accounts.balance(alice.id)).toEqual({ available: before.available - 1, reserved: 0 });
      });
    });

    describe('the key: X-API-Key only, well-formed, known and not revoked', () => {
      it('no key: 401 missing_api_key', async () => {
        for (const headers of [{}, { 'x-api-key': '' }] as Record<string, string>[]) {
          const a = await call(c.siteUrl, '/api/v1/qr/generate', { body: { content: CONTENT }, headers });
          expect(refusal(a)).toEqual({ status: 401, success: false, code: 'missing_api_key' });
          expect(a.body.error).toMatch(/X-API-Key/);
        }
      });

      it('a key in the query string or in Authorization is not read: 401 missing_api_key, saying so', async () => {
        const targets = [
          ['/api/v1/ping?api_key=', {}],
          ['/api/v1/ping?key=', {}],
          ['/api/v1/ping', { authorization: `Bearer ${alice.key}` }],
          ['/api/v1/ping', { authorization: alice.key }],
        ] as const;
        for (const [target, headers] of targets) {
          const a = await call(c.siteUrl, target.endsWith('=') ? target + alice.key : target, { headers });
          expect(refusal(a)).toEqual({ status: 401, success: false, code: 'missing_api_key' });
          expect(a.body.error).toMatch(/query string or the Authorization header are not accepted/);
        }
      });

      it('malformed, mistyped (checksum) or unknown key: 401 invalid_api_key', async () => {
        const mistyped = alice.key.slice(0, 10) + (alice.key[10] === 'a' ? 'b' : 'a') + alice.key.slice(11);
        for (const key of ['qrf_short', `sk_${alice.key.slice(3)}`, mistyped, newKey()]) {
          const a = await call(c.siteUrl, '/api/v1/ping', { key });
          expect(refusal(a)).toEqual({ status: 401, success: false, code: 'invalid_api_key' });
        }
      });

      it('a revoked key: 401 invalid_api_key at once, on every route; the customer’s other key still works', async () => {
        const bob = await customer();
        const second = await c.accounts.issueKey(bob.id);
        issuedKeys.push(second.key);
        expect((await call(c.siteUrl, '/api/v1/ping', { key: bob.key })).status).toBe(200);
        await c.accounts.revokeKey(bob.keyId);
        for (const [target, body] of [
          ['/api/v1/ping', undefined],
          ['/api/v1/qr/generate', { content: CONTENT }],
          ['/api/v1/qr/ai/generate/server', BRIEF],
          ['/api/qr/ai/generate/server', BRIEF],
        ] as const) {
          const a = await call(c.siteUrl, target, { key: bob.key, body });
          expect(refusal(a)).toEqual({ status: 401, success: false, code: 'invalid_api_key' });
        }
        expect((await call(c.siteUrl, '/api/v1/ping', { key: second.key })).status).toBe(200);
        expect(await c.accounts.balance(bob.id)).toEqual({ available: 10, reserved: 0 });
      });
    });

    describe('an active Studio pack, for every request', () => {
      it('no pack: 402 studio_required with docs and pricing, on every route, AI or not', async () => {
        const carol = await customer(0);
        const calls = [
          ['/api/v1/ping', undefined],
          ['/api/v1/qr/templates', undefined],
          ['/api/v1/qr/generate', { content: CONTENT }],
          ['/api/v1/qr/content/wifi', { ssid: 'x' }],
          ['/api/v1/qr/ai/generate/server', BRIEF],
          ['/api/qr/ai/generate/server', BRIEF],
        ] as const;
        const vendorCalls = groq.received.length;
        for (const [target, body] of calls) {
          expectStudioRequired(await call(c.siteUrl, target, { key: carol.key, body }));
        }
        expect(groq.received.length).toBe(vendorCalls);
      });

      it('a pack bought 12 months and one second ago: 402 studio_required; one second younger: served', async () => {
        const dave = await customer(5);
        const { purchasedAt, expiresAt } = dave.pack!;
        const twelveMonthsLater = new Date(purchasedAt);
        twelveMonthsLater.setUTCMonth(twelveMonthsLater.getUTCMonth() + 12);
        expect(expiresAt.getTime()).toBe(twelveMonthsLater.getTime());
        const body = { content: CONTENT, responseType: 'binary' };
        try {
          clock.stopAt(new Date(expiresAt.getTime() - 1000));
          const young = await call(c.siteUrl, '/api/v1/qr/generate', { key: dave.key, body });
          expect(young.status).toBe(200);
          expect((await decodeOne('png', young.bytes)).text).toBe(CONTENT);
          clock.stopAt(new Date(expiresAt.getTime() + 1000));
          for (const [target, b] of [
            ['/api/v1/qr/generate', body],
            ['/api/v1/ping', undefined],
            ['/api/v1/qr/ai/generate/server', BRIEF],
          ] as const) {
            expectStudioRequired(await call(c.siteUrl, target, { key: dave.key, body: b }));
          }
        } finally {
          clock.resume();
        }
      });

      it('a refunded pack: 402 studio_required from then on', async () => {
        const erin = await customer(5);
        expect((await call(c.siteUrl, '/api/v1/ping', { key: erin.key })).status).toBe(200);
        await c.accounts.refundPack(erin.pack!.id);
        expectStudioRequired(await call(c.siteUrl, '/api/v1/ping', { key: erin.key }));
        expectStudioRequired(
          await call(c.siteUrl, '/api/v1/qr/generate', { key: erin.key, body: { content: CONTENT } }),
        );
      });
    });

    describe('bodies: JSON only, at most 1 MiB', () => {
      it('multipart: 415 multipart_not_supported', async () => {
        const form = new FormData();
        form.append('config', JSON.stringify({ content: CONTENT }));
        const res = await fetch(`${c.siteUrl}/api/v1/qr/generate`, {
          method: 'POST',
          headers: { 'x-api-key': alice.key },
          body: form,
        });
        const a = { status: res.status, body: await res.json() };
        expect(a.status).toBe(415);
        expect(a.body).toMatchObject({ success: false, code: 'multipart_not_supported' });
      });

      it('text/plain or no Content-Type: 400 invalid_body', async () => {
        const body = JSON.stringify({ content: CONTENT });
        const plain = await v1('/api/v1/qr/generate', { body, headers: { 'content-type': 'text/plain' } });
        expect(refusal(plain)).toEqual({ status: 400, success: false, code: 'invalid_body' });
        expect(plain.body.error).toMatch(/text\/plain/);
        const none = await v1('/api/v1/qr/templates/wifi-card', { body, headers: { 'content-type': '' } });
        expect(refusal(none)).toEqual({ status: 400, success: false, code: 'invalid_body' });
      });

      it('a body that is not JSON at all: the gateway’s 400 invalid_body, on every POST route, nothing relayed', async () => {
        for (const [target, body] of [
          ['/api/v1/qr/generate', '{"content":'],
          ['/api/v1/qr/templates/wifi-card', '{"content":'],
          ['/api/v1/qr/content/wifi', 'not json'],
          ['/api/v1/qr/ai/generate/server', '{"prompt": "a blue code",'],
        ]) {
          const a = await v1(target, { body });
          expect(refusal(a), target).toEqual({ status: 400, success: false, code: 'invalid_body' });
          expect(a.body.error, target).toMatch(/^Body could not be parsed/);
        }
        // JSON that is not a request the engine takes is the engine's to refuse, in its own codes.
        expect(refusal(await v1('/api/v1/qr/generate', { body: '[1,2]' }))).toMatchObject({
          status: 400,
          code: 'INVALID_JSON',
        });
      });

      it('a body of exactly 1 MiB is relayed and rendered', async () => {
        const json = JSON.stringify({ content: CONTENT, responseType: 'binary' });
        const a = await v1('/api/v1/qr/generate', { body: json.padEnd(MiB, ' ') });
        expect(a.status).toBe(200);
        expect((await decodeOne('png', a.bytes)).text).toBe(CONTENT);
      });

      /** A JSON POST of alice's to the gateway, sent by hand with `framing` (a length, or chunked). */
      const rawGenerate = (framing: string, body?: Buffer) =>
        rawExchange(
          Number(new URL(c.siteUrl).port),
          [
            'POST /api/v1/qr/generate HTTP/1.1',
            'Host: 127.0.0.1',
            `X-API-Key: ${alice.key}`,
            'Content-Type: application/json',
            framing,
          ].join('\r\n'),
          body,
        );

      it('a Content-Length over 1 MiB: 413 payload_too_large before a byte of the body is sent', async () => {
        const a = await rawGenerate(`Content-Length: ${MiB + 1}`);
        transcript.push(a.body.toString('latin1'));
        expect(a.bodyBytesSent).toBe(0);
        expect(a.status).toBe(413);
        expect(JSON.parse(a.body.toString())).toMatchObject({ success: false, code: 'payload_too_large' });
      });

      it('a chunked body that grows past 1 MiB: 413 payload_too_large, and the sending stops', async () => {
        const body = chunkedFraming(Buffer.alloc(8 * MiB, 0x20), 64 * 1024);
        const a = await rawGenerate('Transfer-Encoding: chunked', body);
        transcript.push(a.body.toString('latin1'));
        expect(a.status).toBe(413);
        expect(JSON.parse(a.body.toString())).toMatchObject({ success: false, code: 'payload_too_large' });
        expect(a.bodyBytesSent).toBeGreaterThan(MiB);
        expect(a.bodyBytesSent).toBeLessThan(body.length);
      });

      it('a body still arriving at QR_BODY_TIMEOUT_MS: 408 request_timeout in the envelope', async () => {
        const site = await siteFor(c.engineUrl!, { QR_BODY_TIMEOUT_MS: '1000' });
        try {
          const hana = await site.customer();
          issuedKeys.push(hana.key);
          const head = [
            'POST /api/v1/qr/generate HTTP/1.1',
            'Host: 127.0.0.1',
            `X-API-Key: ${hana.key}`,
            'Content-Type: application/json',
            'Content-Length: 4096',
          ].join('\r\n');
          const a = await rawExchange(Number(new URL(site.siteUrl).port), head, Buffer.alloc(4096, 0x20), {
            pace: { bytes: 256, everyMs: 200 },
          });
          transcript.push(a.body.toString('latin1'));
          expect(a.status).toBe(408);
          expect(JSON.parse(a.body.toString())).toEqual({
            success: false,
            code: 'request_timeout',
            error: 'The request body did not arrive whole within 1 s.',
          });
        } finally {
          await site.close();
        }
      });
    });

    describe('engines that fail, and renders too large to relay', () => {
      it('rendered file over the site’s output limit: 413 output_too_large with the remedy, binary or JSON', async () => {
        const big = { content: CONTENT, outputWidth: 1200, responseType: 'binary' };
        const size = (await direct('/api/qr/generate', { body: big })).bytes.length;
        const site = await siteFor(c.engineUrl!, {}, size - 1);
        try {
          const frank = await site.customer();
          issuedKeys.push(frank.key);
          const send = (body: unknown) => call(site.siteUrl, '/api/v1/qr/generate', { key: frank.key, body });
          for (const body of [big, { ...big, responseType: 'base64' }]) {
            const a = await send(body);
            expect(refusal(a)).toEqual({ status: 413, success: false, code: 'output_too_large' });
            expect(a.body.error).toMatch(/request PNG or a smaller outputWidth/);
          }
          const small = await send({ content: CONTENT, outputWidth: 200, responseType: 'binary' });
          expect(small.status).toBe(200);
          expect(small.bytes.length).toBeLessThan(size);
          expect((await decodeOne('png', small.bytes)).text).toBe(CONTENT);
        } finally {
          await site.close();
        }
      });

      it('engine down: 503 engine_unavailable; server AI gives its reserved credit back', async () => {
        const site = await siteFor(`http://127.0.0.1:${await unusedPort()}`);
        try {
          const gina = await site.customer(3);
          issuedKeys.push(gina.key);
          const render = await call(site.siteUrl, '/api/v1/qr/generate', { key: gina.key, body: { content: CONTENT } });
          expect(refusal(render)).toEqual({ status: 503, success: false, code: 'engine_unavailable' });
          for (const target of ['/api/v1/qr/ai/generate/server', '/api/qr/ai/generate/server']) {
            const ai = await call(site.siteUrl, target, { key: gina.key, body: BRIEF });
            expect(refusal(ai)).toEqual({ status: 503, success: false, code: 'engine_unavailable' });
          }
          expect(await site.accounts.balance(gina.id)).toEqual({ available: 3, reserved: 0 });
          const kinds = (await site.accounts.ledger(gina.id)).map((e) => e.kind);
          expect(kinds.sort()).toEqual(['grant', 'release', 'release', 'reserve', 'reserve']);
        } finally {
          await site.close();
        }
      });

      it('engine that never answers: 504 engine_timeout after QR_ENGINE_TIMEOUT_MS; the credit is given back', async () => {
        const silent = await startSilentServer();
        const site = await siteFor(silent.url, { QR_ENGINE_TIMEOUT_MS: '400' });
        try {
          const hank = await site.customer(3);
          issuedKeys.push(hank.key);
          const ping = await call(site.siteUrl, '/api/v1/ping', { key: hank.key });
          expect(refusal(ping)).toEqual({ status: 504, success: false, code: 'engine_timeout' });
          const ai = await call(site.siteUrl, '/api/v1/qr/ai/generate/server', { key: hank.key, body: BRIEF });
          expect(refusal(ai)).toEqual({ status: 504, success: false, code: 'engine_timeout' });
          expect(silent.accepted()).toBeGreaterThan(0);
          expect(await site.accounts.balance(hank.id)).toEqual({ available: 3, reserved: 0 });
        } finally {
          await site.close();
          await silent.close();
        }
      });

      it('the wire between site and engine carries the signature and the customer id, never the key', async () => {
        const link = await startLink(Number(new URL(c.engineUrl!).port));
        const site = await siteFor(link.url);
        try {
          const ivan = await site.customer(3);
          issuedKeys.push(ivan.key);
          const as = { key: ivan.key };
          expect((await call(site.siteUrl, '/api/v1/ping', as)).status).toBe(200);
          const png = await call(site.siteUrl, '/api/v1/qr/generate', {
            ...as,
            body: { content: CONTENT, responseType: 'binary' },
          });
          expect((await decodeOne('png', png.bytes)).text).toBe(CONTENT);
          const ai = await call(site.siteUrl, '/api/v1/qr/ai/generate/server', { ...as, body: BRIEF });
          expect((await decodeOne('png', file(ai))).text).toBe(CONTENT);
          const sent = link.sent().toString('latin1');
          expect(sent.match(new RegExp(`x-qr-relay-customer: ${ivan.id}\r\n`, 'gi'))).toHaveLength(3);
          expect(sent).toMatch(/x-qr-relay-signature: v1=[0-9a-f]{64}/i);
          expect(sent.toLowerCase()).not.toContain('x-api-key');
          expectNoSecret(sent, ivan.key);
          expectNoSecret(link.received().toString('latin1'), ivan.key);
        } finally {
          await site.close();
          await link.close();
        }
      });
    });

    describe('a client that goes away', () => {
      it('before the engine answers: the answer is dropped and the site keeps serving', async () => {
        const link = await startLink(Number(new URL(c.engineUrl!).port));
        const site = await siteFor(link.url);
        try {
          const judy = await site.customer(3);
          issuedKeys.push(judy.key);
          link.hold();
          const gone = new AbortController();
          const body = { content: CONTENT, outputWidth: 640, responseType: 'binary' };
          const request = call(site.siteUrl, '/api/v1/qr/generate', { key: judy.key, body, signal: gone.signal });
          request.catch(() => {});
          // The engine has rendered and answered; the site has not seen the answer yet.
          await eventually(async () => link.received().includes('\r\n\r\n'), 10_000);
          gone.abort();
          await expect(request).rejects.toThrow();
          await new Promise((resolve) => setTimeout(resolve, 200));
          link.release();
          await new Promise((resolve) => setTimeout(resolve, 200));
          const after = await call(site.siteUrl, '/api/v1/qr/generate', { key: judy.key, body });
          expect(after.status).toBe(200);
          expect((await decodeOne('png', after.bytes)).text).toBe(CONTENT);
        } finally {
          await site.close();
          await link.close();
        }
      });
    });

    describe('no key material anywhere', () => {
      it('the engine’s request log names the relayed customers and holds no key; neither does any answer', async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const log = consoleCapture.text();
        expect(log).toMatch(new RegExp(`POST /api/qr/generate [\\d.]+ ms relayed for ${alice.id}`));
        expect(log).toMatch(new RegExp(`POST /api/qr/ai/generate/server [\\d.]+ ms relayed for ${alice.id}`));
        const answers = transcript.join('\n');
        expect(issuedKeys.length).toBeGreaterThan(8);
        for (const key of issuedKeys) {
          expectNoSecret(log, key);
          expectNoSecret(answers, key);
        }
        for (const secret of [INTERNAL_SECRET, KEY_PEPPER, GROQ_KEY]) {
          expectNoSecret(log, secret);
          expectNoSecret(answers, secret);
        }
      });
    });
  });
}

for (const driver of DRIVERS) gatewaySuite(driver);
