/**
 * Server AI and its credits end to end, over real HTTP: the built engine and site (QR_ROLE=all), the
 * account store on PGlite and on the real PostgreSQL (one describe each, same tests), the server chain
 * pointed at a loopback fake groq. Through the gateway and through the site's direct endpoint: one credit
 * spent per design and none per failure, 402 when none is left, the credit given back when the client
 * goes away, and Idempotency-Key retries. Every rendered file is decoded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerKind } from '../../src/accounts/types.js';
import { signRelay } from '../../src/relay/signature.js';
import { ERRORS, type FakeVendor, startFakeVendor, success } from '../ai/fake-vendor.js';
import type { Answer } from '../helpers/answers.js';
import {
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
  refusal,
  startConsumer,
  type TestCustomer,
} from '../helpers/consumer.js';
import { DRIVERS, type DriverName } from '../helpers/databases.js';
import { decodeOne } from '../helpers/decode.js';

const CONTENT = 'https://tea.example.com/menu?table=7';
const DESIGN = {
  config: { primaryColor: '#1b3a4b', backgroundColor: '#f7f3e8', moduleShape: 'rounded', eccLevel: 'Q' },
  explanation: 'Deep teal on cream.',
};
const OTHER_DESIGN = {
  config: { primaryColor: '#5a1e0f', backgroundColor: '#fffaf0', moduleShape: 'dots', eccLevel: 'H' },
  explanation: 'Roasted brown on ivory.',
};
const BRIEF = { content: CONTENT, prompt: 'calm teal for a tea shop', outputWidth: 256 };
const PATHS = { gateway: '/api/v1/qr/ai/generate/server', direct: '/api/qr/ai/generate/server' } as const;
const ENGINE_PATH = '/api/qr/ai/generate/server';

let groq: FakeVendor;

beforeAll(async () => {
  groq = await startFakeVendor('openai', GROQ_KEY);
});
afterAll(() => groq?.close());
beforeEach(() => {
  groq.clearReplies();
  groq.reply(success.openai(JSON.stringify(DESIGN)));
});

const fileOf = (a: Answer): Uint8Array => new Uint8Array(Buffer.from(a.body.qrBase64, 'base64'));

function creditsSuite(driver: DriverName): void {
  describe(`server AI credits, accounts on ${driver}`, () => {
    let store: ConsumerStore;
    let c: Consumer;

    const ai = (who: TestCustomer, path: string, body: unknown = BRIEF, headers: Record<string, string> = {}) =>
      call(c.siteUrl, path, { key: who.key, body, headers });
    const kinds = async (customerId: string): Promise<LedgerKind[]> =>
      (await c.accounts.ledger(customerId)).map((e) => e.kind).reverse();

    beforeAll(async () => {
      store = await consumerStore(driver);
      c = await startConsumer(
        await consumerConfig({ ...store.env, ...groqEnv(groq), QR_LIMIT_AI: '1000', QR_AI_TOTAL_TIMEOUT_MS: '20000' }),
      );
    });
    afterAll(async () => {
      await c?.close();
      await store?.close();
    });

    describe('a design spends exactly one credit', () => {
      it('through /api/v1: the engine’s answer plus creditsRemaining; reserve then commit in the ledger', async () => {
        const ann = await c.customer(3);
        const a = await ai(ann, PATHS.gateway);
        expect(a.status).toBe(200);
        expect(a.body).toMatchObject({
          success: true,
          creditsRemaining: 2,
          llmProviderUsed: 'groq',
          llmModelUsed: 'openai/gpt-oss-120b',
          aiExplanation: DESIGN.explanation,
          generatedConfig: { ...DESIGN.config, content: CONTENT },
        });
        expect(a.headers.get('x-credits-remaining')).toBe('2');
        expect((await decodeOne('png', fileOf(a))).text).toBe(CONTENT);
        expect(await c.accounts.balance(ann.id)).toEqual({ available: 2, reserved: 0 });
        expect(await kinds(ann.id)).toEqual(['grant', 'reserve', 'commit']);

        // The engine asked directly (signed as the site signs) with the same design gives the same answer.
        const body = JSON.stringify(BRIEF);
        const signed = signRelay({
          secret: INTERNAL_SECRET,
          method: 'POST',
          pathWithQuery: ENGINE_PATH,
          body,
          customerId: 'cus_direct-comparison',
        });
        const engine = await call(c.engineUrl!, ENGINE_PATH, { body, headers: signed });
        expect(engine.status).toBe(200);
        const { creditsRemaining: _, ...design } = a.body;
        expect(design).toEqual(engine.body);
        expect(a.headers.get('etag')).toBeNull();
        expect(
          headersWithout(a.headers, 'date', 'content-length', 'ratelimit', 'ratelimit-policy', 'x-credits-remaining'),
        ).toEqual(headersWithout(engine.headers, 'date', 'content-length', 'etag'));
      });

      it('through the site’s POST /api/qr/ai/generate/server with the same key: the same, binary too', async () => {
        const ben = await c.customer(3);
        const json = await ai(ben, PATHS.direct);
        expect(json.status).toBe(200);
        expect(json.body.creditsRemaining).toBe(2);
        expect((await decodeOne('png', fileOf(json))).text).toBe(CONTENT);
        const binary = await ai(ben, PATHS.direct, { ...BRIEF, responseType: 'binary' });
        expect(binary.status).toBe(200);
        expect(binary.headers.get('content-type')).toBe('image/png');
        expect(binary.headers.get('x-credits-remaining')).toBe('1');
        expect(binary.headers.get('x-ai-provider')).toBe('groq');
        expect((await decodeOne('png', binary.bytes)).text).toBe(CONTENT);
        expect(await c.accounts.balance(ben.id)).toEqual({ available: 1, reserved: 0 });
        expect(await kinds(ben.id)).toEqual(['grant', 'reserve', 'commit', 'reserve', 'commit']);
      });

      it('credits drawn from several packs: the one that expires first, until all are spent', async () => {
        const cleo = await c.customer(1);
        const older = await c.accounts.grantPack({
          customerId: cleo.id,
          credits: 1,
          purchasedAt: new Date(Date.now() - 30 * 86_400_000),
        });
        const first = await ai(cleo, PATHS.gateway);
        expect(first.body.creditsRemaining).toBe(1);
        const spentFrom = (await c.accounts.ledger(cleo.id)).find((e) => e.kind === 'commit')!.packId;
        expect(spentFrom).toBe(older.id);
        expect((await ai(cleo, PATHS.direct)).body.creditsRemaining).toBe(0);
        expect(await c.accounts.balance(cleo.id)).toEqual({ available: 0, reserved: 0 });
      });
    });

    describe('a failure spends nothing', () => {
      it('every provider of the chain erroring: the engine’s AI error, the credit given back', async () => {
        const dan = await c.customer(2);
        groq.clearReplies();
        groq.reply(ERRORS.groq.overloaded);
        const before = groq.received.length;
        for (const path of Object.values(PATHS)) {
          const a = await ai(dan, path);
          expect(a.status).toBeGreaterThanOrEqual(500);
          expect(a.body.success).toBe(false);
          expect(a.body.code).toMatch(/^AI_/);
          expect(a.body).not.toHaveProperty('creditsRemaining');
        }
        // Both groq steps of the chain were tried, each time.
        expect(groq.received.length - before).toBe(4);
        expect(await c.accounts.balance(dan.id)).toEqual({ available: 2, reserved: 0 });
        expect(await kinds(dan.id)).toEqual(['grant', 'reserve', 'release', 'reserve', 'release']);
      });

      it('a body the engine refuses: its 400, no vendor call, no credit', async () => {
        const eve = await c.customer(2);
        const before = groq.received.length;
        const a = await ai(eve, PATHS.gateway, { content: CONTENT });
        expect(refusal(a)).toEqual({ status: 400, success: false, code: 'MISSING_REQUIRED_FIELD' });
        expect(groq.received.length).toBe(before);
        expect(await c.accounts.balance(eve.id)).toEqual({ available: 2, reserved: 0 });
      });

      it('a client that goes away during the design: the call is abandoned and the credit given back', async () => {
        const fay = await c.customer(2);
        groq.clearReplies();
        groq.reply({ ...success.openai(JSON.stringify(DESIGN)), delayMs: 10_000 });
        const gone = new AbortController();
        const request = call(c.siteUrl, PATHS.gateway, { key: fay.key, body: BRIEF, signal: gone.signal });
        request.catch(() => {});
        await groq.nextRequest();
        expect(await c.accounts.balance(fay.id)).toEqual({ available: 1, reserved: 1 });
        const vendorAbort = groq.nextAbort();
        gone.abort();
        await expect(request).rejects.toThrow();
        await vendorAbort;
        await eventually(async () => (await c.accounts.balance(fay.id)).reserved === 0, 5000);
        expect(await c.accounts.balance(fay.id)).toEqual({ available: 2, reserved: 0 });
        expect(await kinds(fay.id)).toEqual(['grant', 'reserve', 'release']);
      });
    });

    describe('402 out_of_api_credits', () => {
      it('the last credit is spent, then 402 with docs and pricing on both paths, the vendor not called', async () => {
        const gus = await c.customer(1);
        expect((await ai(gus, PATHS.gateway)).body.creditsRemaining).toBe(0);
        const before = groq.received.length;
        for (const path of Object.values(PATHS)) {
          const a = await ai(gus, path);
          expect(refusal(a)).toEqual({ status: 402, success: false, code: 'out_of_api_credits' });
          expect(a.body.docs).toBe(c.config.site.docsUrl);
          expect(a.body.pricing).toBe(c.config.site.pricingUrl);
        }
        expect(groq.received.length).toBe(before);
        // The pack is still active: every other route is served.
        const png = await call(c.siteUrl, '/api/v1/qr/generate', {
          key: gus.key,
          body: { content: CONTENT, responseType: 'binary' },
        });
        expect((await decodeOne('png', png.bytes)).text).toBe(CONTENT);
        expect(await kinds(gus.id)).toEqual(['grant', 'reserve', 'commit']);
      });
    });

    describe('Idempotency-Key', () => {
      const keyed = (key: string) => ({ 'idempotency-key': key });

      it('a retry gets the first answer again, marked Idempotent-Replayed, and spends nothing', async () => {
        const hal = await c.customer(5);
        const first = await ai(hal, PATHS.gateway, BRIEF, keyed('order-1001'));
        expect(first.status).toBe(200);
        expect(first.headers.get('idempotent-replayed')).toBeNull();
        expect((await decodeOne('png', fileOf(first))).text).toBe(CONTENT);
        // The vendor would now design something else: a replay must not ask it.
        groq.clearReplies();
        groq.reply(success.openai(JSON.stringify(OTHER_DESIGN)));
        const vendorCalls = groq.received.length;
        for (const path of [PATHS.gateway, PATHS.direct]) {
          const again = await ai(hal, path, BRIEF, keyed('order-1001'));
          expect(again.status).toBe(200);
          expect(again.headers.get('idempotent-replayed')).toBe('true');
          expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
          expect(again.headers.get('x-credits-remaining')).toBe('4');
        }
        expect(groq.received.length).toBe(vendorCalls);
        expect(await c.accounts.balance(hal.id)).toEqual({ available: 4, reserved: 0 });
        // Another key is another request: it runs, with the vendor's new design.
        const other = await ai(hal, PATHS.gateway, BRIEF, keyed('order-1002'));
        expect(other.body.aiExplanation).toBe(OTHER_DESIGN.explanation);
        expect((await decodeOne('png', fileOf(other))).text).toBe(CONTENT);
        expect(await c.accounts.balance(hal.id)).toEqual({ available: 3, reserved: 0 });
      });

      it('the same key with another body: 422 idempotency_key_reused, nothing spent', async () => {
        const ida = await c.customer(5);
        expect((await ai(ida, PATHS.gateway, BRIEF, keyed('k-1'))).status).toBe(200);
        const vendorCalls = groq.received.length;
        const a = await ai(ida, PATHS.gateway, { ...BRIEF, prompt: 'something else' }, keyed('k-1'));
        expect(refusal(a)).toEqual({ status: 422, success: false, code: 'idempotency_key_reused' });
        expect(a.body.field).toBe('Idempotency-Key');
        expect(groq.received.length).toBe(vendorCalls);
        expect(await c.accounts.balance(ida.id)).toEqual({ available: 4, reserved: 0 });
      });

      it('the same key from another customer is that customer’s own request', async () => {
        const [jo, kim] = [await c.customer(2), await c.customer(2)];
        expect((await ai(jo, PATHS.gateway, BRIEF, keyed('shared-key'))).status).toBe(200);
        const theirs = await ai(kim, PATHS.gateway, { ...BRIEF, prompt: 'another brief' }, keyed('shared-key'));
        expect(theirs.status).toBe(200);
        expect(theirs.headers.get('idempotent-replayed')).toBeNull();
        expect(await c.accounts.balance(kim.id)).toEqual({ available: 1, reserved: 0 });
      });

      it('a retry while the first still runs: 409 idempotency_in_progress with Retry-After: 1', async () => {
        const lee = await c.customer(5);
        groq.clearReplies();
        groq.reply({ ...success.openai(JSON.stringify(DESIGN)), delayMs: 1500 });
        const first = ai(lee, PATHS.gateway, BRIEF, keyed('slow-1'));
        await groq.nextRequest();
        const during = await ai(lee, PATHS.gateway, BRIEF, keyed('slow-1'));
        expect(refusal(during)).toEqual({ status: 409, success: false, code: 'idempotency_in_progress' });
        expect(during.headers.get('retry-after')).toBe('1');
        const done = await first;
        expect(done.status).toBe(200);
        expect((await decodeOne('png', fileOf(done))).text).toBe(CONTENT);
        const after = await ai(lee, PATHS.gateway, BRIEF, keyed('slow-1'));
        expect(after.headers.get('idempotent-replayed')).toBe('true');
        expect(Buffer.from(after.bytes).equals(Buffer.from(done.bytes))).toBe(true);
        expect(await c.accounts.balance(lee.id)).toEqual({ available: 4, reserved: 0 });
      });

      it('a failed call is not kept: the retry runs, and the customer pays once', async () => {
        const max = await c.customer(5);
        groq.clearReplies();
        groq.reply(ERRORS.groq.overloaded);
        const failed = await ai(max, PATHS.gateway, BRIEF, keyed('flaky-1'));
        expect(failed.status).toBeGreaterThanOrEqual(500);
        groq.clearReplies();
        groq.reply(success.openai(JSON.stringify(DESIGN)));
        const retry = await ai(max, PATHS.gateway, BRIEF, keyed('flaky-1'));
        expect(retry.status).toBe(200);
        expect(retry.headers.get('idempotent-replayed')).toBeNull();
        expect((await decodeOne('png', fileOf(retry))).text).toBe(CONTENT);
        expect(await c.accounts.balance(max.id)).toEqual({ available: 4, reserved: 0 });
        expect(await kinds(max.id)).toEqual(['grant', 'reserve', 'release', 'reserve', 'commit']);
      });

      it('a malformed key: 400 invalid_body naming Idempotency-Key, nothing reserved', async () => {
        const ned = await c.customer(2);
        const a = await ai(ned, PATHS.gateway, BRIEF, keyed('x'.repeat(256)));
        expect(refusal(a)).toEqual({ status: 400, success: false, code: 'invalid_body' });
        expect(a.body.field).toBe('Idempotency-Key');
        expect(await kinds(ned.id)).toEqual(['grant']);
      });
    });
  });
}

for (const driver of DRIVERS) creditsSuite(driver);
