/**
 * Relayed requests over real HTTP: the built engine, in process, accepting the consumer site's signed
 * relays beside the marketplace's proxy secret; the server AI chain pointed at a loopback fake vendor;
 * two engines sharing the real Redis for their replay memory. Every rendered file is decoded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AiSettings, DEFAULT_AI_SETTINGS } from '../../src/ai/settings.js';
import { signRelay } from '../../src/relay/signature.js';
import { baseUrlOf, ERRORS, type FakeVendor, startFakeVendor, success } from '../ai/fake-vendor.js';
import { captureConsole, expectNoSecret } from '../ai/secrets.js';
import { type Answer, answerOf as answer, transcript } from '../helpers/answers.js';
import { decodeOne } from '../helpers/decode.js';
import { deleteKeys, requireRedis, runPrefix, TEST_REDIS_URL } from '../helpers/redis.js';
import { startTestService, type TestService } from '../helpers/service.js';

const SECRET = 'relay-e2e-current-secret-0123456789abcdef01234567';
const PREVIOUS = 'relay-e2e-previous-secret-76543210fedcba9876543210';
const PROXY = 'mkt-Pr0xy-9c1f7e2b4d6a8053';
const PROXY_HEADER = 'x-rapidapi-proxy-secret';
const GROQ_KEY = 'gsk_ServerGroqKey7a6b5c4d3e2f1g0h';
/** What a consumer key looks like; the engine must never repeat one it is sent by mistake. */
const CONSUMER_KEY = 'qrf_4bX9kP2mQ7rT1vW8yZ3cF6hJ0nL5sD9gA2eB7u1Kx';
const CUSTOMER = 'cus_7d1e4c2a-93b5-4f60-8a17-e2c9b0d4f5a3';
const CONTENT = 'https://shop.example.com/relayed?ref=gateway';
const DESIGN = {
  config: { primaryColor: '#1b3a4b', backgroundColor: '#f7f3e8', moduleShape: 'rounded', eccLevel: 'Q' },
  explanation: 'Deep teal on cream.',
};

let engine: TestService;
let closedEngine: TestService;
let groq: FakeVendor;
let consoleCapture: ReturnType<typeof captureConsole>;

interface RelayOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  secret?: string | string[];
  customerId?: string;
  now?: number;
  /** Sent instead of the body that was signed. */
  sentBody?: string;
  /** Sent to this target instead of the signed one. */
  sentTarget?: string;
  headers?: Record<string, string>;
}

/** Sends `target` to `service` as the consumer site would: signed, with the customer id, no key. */
async function relay(service: TestService, target: string, o: RelayOptions = {}): Promise<Answer> {
  const method = o.method ?? (o.body === undefined ? 'GET' : 'POST');
  const body = o.body === undefined ? '' : JSON.stringify(o.body);
  const signed = signRelay({
    secret: o.secret ?? SECRET,
    method,
    pathWithQuery: target,
    body,
    customerId: o.customerId ?? CUSTOMER,
    now: o.now,
  });
  return answer(
    await fetch(service.url + (o.sentTarget ?? target), {
      method,
      headers: { ...(method === 'POST' && { 'content-type': 'application/json' }), ...signed, ...o.headers },
      body: method === 'POST' ? (o.sentBody ?? body) : undefined,
    }),
  );
}

function expectError(a: Answer, status: number, code: string, message?: RegExp): void {
  expect({ status: a.status, success: a.body?.success, code: a.body?.code }).toEqual({ status, success: false, code });
  if (message) expect(a.body.error).toMatch(message);
}

/** The default server chain (groq 120b → groq 20b → openai → google), keys and fakes as given. */
const ai = (over: Partial<AiSettings> = {}): AiSettings => ({
  ...DEFAULT_AI_SETTINGS,
  perAttemptMs: 5000,
  totalMs: 10_000,
  ...over,
});

beforeAll(async () => {
  consoleCapture = captureConsole();
  groq = await startFakeVendor('openai', GROQ_KEY);
  engine = await startTestService({
    proxySecret: PROXY,
    proxySecretHeader: PROXY_HEADER,
    internalSecrets: [SECRET, PREVIOUS],
    logRequests: true,
    ai: ai({ baseUrls: { groq: baseUrlOf(groq, 'openai') }, managedKeys: { groq: GROQ_KEY } }),
  });
  closedEngine = await startTestService({ proxySecret: PROXY, proxySecretHeader: PROXY_HEADER });
});

afterAll(async () => {
  consoleCapture?.restore();
  await engine?.close();
  await closedEngine?.close();
  await groq?.close();
});

beforeEach(() => groq.clearReplies());

describe('a signed relay instead of the proxy secret', () => {
  it('POST /api/qr/generate: renders, and the file decodes to the content', async () => {
    const a = await relay(engine, '/api/qr/generate', { body: { content: CONTENT, responseType: 'binary' } });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('image/png');
    expect((await decodeOne('png', a.bytes)).text).toBe(CONTENT);
  });

  it('GET with a query: the signature covers it, and another query is refused', async () => {
    const listed = await relay(engine, '/api/qr/templates?category=business');
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBeGreaterThan(0);
    for (const t of listed.body.templates) expect(t.category).toBe('business');
    const moved = await relay(engine, '/api/qr/templates?category=business', {
      sentTarget: '/api/qr/templates?category=food',
    });
    expectError(moved, 401, 'INVALID_INTERNAL_SIGNATURE', /does not match/);
  });

  it('signed with the previous secret during a rotation: accepted; with an unknown one: refused', async () => {
    const a = await relay(engine, '/api/qr/generate', { body: { content: CONTENT }, secret: PREVIOUS });
    expect(a.status).toBe(200);
    expect((await decodeOne('png', new Uint8Array(Buffer.from(a.body.qrBase64, 'base64')))).text).toBe(CONTENT);
    const b = await relay(engine, '/api/qr/generate', {
      body: { content: CONTENT },
      secret: 'an-unknown-secret-of-enough-length-000000000',
    });
    expectError(b, 401, 'INVALID_INTERNAL_SIGNATURE');
  });

  it('a tampered body is refused, before any render', async () => {
    const a = await relay(engine, '/api/qr/generate', {
      body: { content: CONTENT },
      sentBody: JSON.stringify({ content: 'https://evil.example' }),
    });
    expectError(a, 401, 'INVALID_INTERNAL_SIGNATURE', /does not match/);
  });

  it('a percent-encoded path is signed as sent: the signature holds and the route answers', async () => {
    const a = await relay(engine, '/api/qr/templates/caf%C3%A9%20menu', { body: { content: CONTENT } });
    expectError(a, 404, 'TEMPLATE_NOT_FOUND');
  });

  it('a request signed for one path and sent to another is refused', async () => {
    const a = await relay(engine, '/api/qr/generate', {
      body: { content: CONTENT },
      sentTarget: '/api/qr/templates/wifi-card',
    });
    expectError(a, 401, 'INVALID_INTERNAL_SIGNATURE');
  });

  it('the same relayed request twice: the second is refused as a replay', async () => {
    const body = JSON.stringify({ content: CONTENT });
    const headers = {
      'content-type': 'application/json',
      ...signRelay({ secret: SECRET, method: 'POST', pathWithQuery: '/api/qr/generate', body, customerId: CUSTOMER }),
    };
    const send = async () => answer(await fetch(`${engine.url}/api/qr/generate`, { method: 'POST', headers, body }));
    expect((await send()).status).toBe(200);
    expectError(await send(), 401, 'INVALID_INTERNAL_SIGNATURE', /replayed/);
  });

  it('a timestamp 61 s off either way is INTERNAL_TS_EXPIRED', async () => {
    for (const offset of [61_000, -61_000]) {
      const a = await relay(engine, '/api/ping', { now: Date.now() + offset });
      expectError(a, 401, 'INTERNAL_TS_EXPIRED');
    }
  });

  it('relay headers are judged by the signature alone: a correct proxy secret does not rescue a bad one', async () => {
    const a = await relay(engine, '/api/ping', {
      secret: 'an-unknown-secret-of-enough-length-000000000',
      headers: { [PROXY_HEADER]: PROXY },
    });
    expectError(a, 401, 'INVALID_INTERNAL_SIGNATURE');
  });

  it('the marketplace is unchanged: the proxy secret without relay headers, or 401 UNAUTHORIZED', async () => {
    const ok = await answer(await engine.post('/api/qr/generate', { content: CONTENT }, { [PROXY_HEADER]: PROXY }));
    expect(ok.status).toBe(200);
    expect((await decodeOne('png', new Uint8Array(Buffer.from(ok.body.qrBase64, 'base64')))).text).toBe(CONTENT);
    expectError(await answer(await engine.post('/api/qr/generate', { content: CONTENT })), 401, 'UNAUTHORIZED');
  });

  it('the OpenAPI document marks the server AI route as relay-only', async () => {
    const doc = await answer(await fetch(`${engine.url}/api/openapi.json`, { headers: { [PROXY_HEADER]: PROXY } }));
    expect(doc.body.paths['/api/qr/ai/generate/server'].post.security).toEqual([{ relaySignature: [] }]);
    expect(doc.body.components.securitySchemes.relaySignature).toMatchObject({
      in: 'header',
      name: 'x-qr-relay-signature',
    });
  });
});

describe('POST /api/qr/ai/generate/server (relay only)', () => {
  const brief = { content: CONTENT, prompt: 'calm teal for a tea shop', stylePreset: 'minimal', creativity: 0.2 };

  it("designs with the server chain (groq's larger model, then its smaller one), renders, and decodes", async () => {
    groq.reply(ERRORS.groq.overloaded, success.openai(JSON.stringify(DESIGN)));
    const a = await relay(engine, '/api/qr/ai/generate/server', { body: brief });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      success: true,
      format: 'png',
      aiExplanation: DESIGN.explanation,
      llmProviderUsed: 'groq',
      llmModelUsed: 'openai/gpt-oss-20b',
      verification: { decoded: true },
    });
    expect(a.body).not.toHaveProperty('managed');
    expect(a.body.generatedConfig).toMatchObject({ ...DESIGN.config, content: CONTENT });
    expect((await decodeOne('png', new Uint8Array(Buffer.from(a.body.qrBase64, 'base64')))).text).toBe(CONTENT);
    expect(groq.received.slice(-2).map((r) => [r.model, r.key])).toEqual([
      ['openai/gpt-oss-120b', GROQ_KEY],
      ['openai/gpt-oss-20b', GROQ_KEY],
    ]);
    expect(groq.problems).toEqual([]);
  });

  it('unsigned: 401 INVALID_INTERNAL_SIGNATURE, even with the proxy secret; no vendor is called', async () => {
    const before = groq.received.length;
    const headerSets: Record<string, string>[] = [{}, { [PROXY_HEADER]: PROXY }];
    for (const headers of headerSets) {
      const a = await answer(await engine.post('/api/qr/ai/generate/server', brief, headers));
      expectError(a, 401, 'INVALID_INTERNAL_SIGNATURE', /only requests relayed/);
    }
    expect(groq.received.length).toBe(before);
  });

  it('a tampered body: 401, no vendor is called', async () => {
    const before = groq.received.length;
    const a = await relay(engine, '/api/qr/ai/generate/server', {
      body: brief,
      sentBody: JSON.stringify({ ...brief, prompt: 'something else entirely' }),
    });
    expectError(a, 401, 'INVALID_INTERNAL_SIGNATURE');
    expect(groq.received.length).toBe(before);
  });

  it('the body is validated as the managed one: provider fields are refused', async () => {
    const a = await relay(engine, '/api/qr/ai/generate/server', { body: { ...brief, llmProvider: 'openai' } });
    expectError(a, 400, 'INVALID_FIELD_VALUE');
  });
});

describe('an engine without QR_INTERNAL_SECRET accepts no relay', () => {
  it('relay-only route: 401 signed or not; other routes: 401 when signed, the proxy secret as before', async () => {
    expectError(
      await answer(await closedEngine.post('/api/qr/ai/generate/server', { content: CONTENT, prompt: 'x' })),
      401,
      'INVALID_INTERNAL_SIGNATURE',
    );
    expectError(
      await relay(closedEngine, '/api/qr/ai/generate/server', { body: { content: CONTENT, prompt: 'x' } }),
      401,
      'INVALID_INTERNAL_SIGNATURE',
      /accepts no relayed/,
    );
    expectError(await relay(closedEngine, '/api/ping'), 401, 'INVALID_INTERNAL_SIGNATURE', /accepts no relayed/);
    const ok = await answer(await fetch(`${closedEngine.url}/api/ping`, { headers: { [PROXY_HEADER]: PROXY } }));
    expect(ok.status).toBe(200);
  });
});

describe('no key material in the request log or the answers', () => {
  it('an X-API-Key sent to the engine is never logged or echoed; the log names the relayed customer', async () => {
    const withKey = { 'X-API-Key': CONSUMER_KEY };
    expect((await relay(engine, '/api/ping', { headers: withKey })).status).toBe(200);
    expect((await relay(engine, '/api/qr/generate', { body: { content: CONTENT }, headers: withKey })).status).toBe(
      200,
    );
    // Refusals and errors too: a bad signature, an unknown path, a body the schema refuses.
    await relay(engine, '/api/qr/generate', { body: { content: CONTENT }, headers: withKey, sentBody: '{}' });
    await relay(engine, '/api/qr/nothing-here', { headers: withKey });
    await relay(engine, '/api/qr/generate', {
      body: { content: '' },
      headers: withKey,
    });
    await answer(await engine.post('/api/qr/generate', { content: CONTENT }, { ...withKey, [PROXY_HEADER]: PROXY }));
    await new Promise((resolve) => setImmediate(resolve));

    const log = consoleCapture.text();
    expect(log).toMatch(new RegExp(`GET /api/ping [\\d.]+ ms relayed for ${CUSTOMER}`));
    expect(log).toMatch(/POST \/api\/qr\/generate [\d.]+ ms relayed for/);
    for (const secret of [CONSUMER_KEY, SECRET, PREVIOUS, PROXY, GROQ_KEY]) expectNoSecret(log, secret);
    expect(log).not.toMatch(/v1=[0-9a-f]{16}/);
  });

  it('nothing the engines answered carries a key or a secret', () => {
    const all = transcript.join('\n');
    expect(transcript.length).toBeGreaterThan(10);
    for (const secret of [CONSUMER_KEY, SECRET, PREVIOUS, PROXY, GROQ_KEY]) expectNoSecret(all, secret);
  });
});

describe('two engines sharing the real Redis for their replay memory', () => {
  const prefix = runPrefix('engine');
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    await requireRedis();
    const config = {
      internalSecrets: [SECRET],
      redisUrl: TEST_REDIS_URL,
      redisKeyPrefix: prefix,
      ai: ai(),
    };
    a = await startTestService(config);
    b = await startTestService(config);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    const { connectRedis } = await import('../../src/redis.js');
    const redis = await connectRedis(TEST_REDIS_URL);
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('a relay accepted by one engine is refused as a replay by the other', async () => {
    const body = JSON.stringify({ content: CONTENT, responseType: 'binary' });
    const headers = {
      'content-type': 'application/json',
      ...signRelay({ secret: SECRET, method: 'POST', pathWithQuery: '/api/qr/generate', body, customerId: CUSTOMER }),
    };
    const first = await answer(await fetch(`${a.url}/api/qr/generate`, { method: 'POST', headers, body }));
    expect(first.status).toBe(200);
    expect((await decodeOne('png', first.bytes)).text).toBe(CONTENT);
    const again = await answer(await fetch(`${b.url}/api/qr/generate`, { method: 'POST', headers, body }));
    expectError(again, 401, 'INVALID_INTERNAL_SIGNATURE', /replayed/);
  });

  it('server AI with no server key configured: AI_GENERATION_FAILED naming QR_SERVER_CHAIN', async () => {
    const res = await relay(a, '/api/qr/ai/generate/server', { body: { content: CONTENT, prompt: 'anything' } });
    expectError(res, 502, 'AI_GENERATION_FAILED', /QR_SERVER_CHAIN/);
  });
});
