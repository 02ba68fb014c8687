import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consumerServerAttempts, managedAttempts } from '../../src/ai/attempts.js';
import type { Attempt } from '../../src/ai/chain.js';
import { designQr } from '../../src/ai/designer.js';
import type { ProviderId } from '../../src/ai/providers.js';
import { DEFAULT_AI_SETTINGS, type AiSettings } from '../../src/ai/settings.js';
import { ApiError } from '../../src/errors.js';
import { baseUrlOf, ERRORS, startFakeVendor, success, type FakeVendor, type WireKind } from './fake-vendor.js';
import { captureConsole, errorText, expectNoSecret } from './secrets.js';
import { sampleSchema } from './sample-schema.js';

const KEYS = {
  groq: 'gsk_TestGroq7hJ2kL9mN4pQ6rS8tV1wX3yZ5',
  google: 'AIzaSyTestGoogle0a1b2c3d4e5f6g7h8i9j',
  openai: 'sk-proj-TestOpenAI9z8y7x6w5v4u3t2s1r0q',
} as const;
const DESIGN = {
  config: { primaryColor: '#14213d', backgroundColor: '#ffffff', moduleShape: 'square' },
  explanation: 'Navy on white.',
};
const BRIEF = { prompt: 'corporate blue for a law firm', stylePreset: 'corporate' as const, creativity: 0.3 };
const WIRE: Record<keyof typeof KEYS, WireKind> = { groq: 'openai', google: 'gemini', openai: 'openai' };

const fakes: Partial<Record<keyof typeof KEYS, FakeVendor>> = {};
let consoleCapture: ReturnType<typeof captureConsole>;
/** The server's keys and the fakes' addresses, as `Config.ai` would hold them. */
let settings: AiSettings;

beforeEach(async () => {
  consoleCapture = captureConsole();
  settings = { ...DEFAULT_AI_SETTINGS, baseUrls: {}, managedKeys: {} };
  for (const id of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
    const fake = await startFakeVendor(WIRE[id], KEYS[id]);
    fakes[id] = fake;
    settings.baseUrls[id] = baseUrlOf(fake, WIRE[id]);
    settings.managedKeys[id] = KEYS[id];
  }
});

afterEach(async () => {
  consoleCapture.restore();
  for (const id of Object.keys(KEYS) as (keyof typeof KEYS)[]) await fakes[id]?.close();
});

const fake = (id: keyof typeof KEYS): FakeVendor => fakes[id] as FakeVendor;

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  for (const key of Object.values(KEYS)) expectNoSecret(errorText(err), key);
  return err as ApiError;
}

function expectCleanLogs(): void {
  for (const key of Object.values(KEYS)) expectNoSecret(consoleCapture.text(), key);
  for (const f of Object.values(fakes)) expect(f?.problems).toEqual([]);
}

describe('managed chain groq → google → openai', () => {
  it('falls through a rate limit and an overload to the provider that answers', async () => {
    fake('groq').reply(ERRORS.groq.rateLimit);
    fake('google').reply(ERRORS.google.overloaded);
    fake('openai').reply(success.openai(JSON.stringify(DESIGN)));

    const attempts = managedAttempts(settings);
    expect(attempts.map((a) => [a.providerId, a.model])).toEqual([
      ['groq', 'openai/gpt-oss-120b'],
      ['google', 'gemini-2.5-flash'],
      ['openai', 'gpt-4.1-mini'],
    ]);
    const result = await designQr(BRIEF, attempts, sampleSchema, { managed: true });
    expect([result.providerId, result.model]).toEqual(['openai', 'gpt-4.1-mini']);
    expect(result.config).toEqual(DESIGN.config);
    expect(fake('groq').received.map((r) => r.key)).toEqual([KEYS.groq]);
    expect(fake('google').received.map((r) => r.key)).toEqual([KEYS.google]);
    expect(consoleCapture.text()).toMatch(/groq[\s\S]*rate-limited[\s\S]*google[\s\S]*overloaded/);
    expectCleanLogs();
  });

  it('moves past a rejected server key instead of blaming the caller', async () => {
    fake('groq').reply(ERRORS.groq.invalidKey(KEYS.groq));
    fake('google').reply(success.gemini(JSON.stringify(DESIGN)));
    const result = await designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true });
    expect(result.providerId).toBe('google');
    expectCleanLogs();
  });

  it('all quota → AI_QUOTA_EXCEEDED without Retry-After', async () => {
    fake('groq').reply({ status: 402, body: { error: { message: 'Payment required', type: 'billing' } } });
    fake('google').reply(ERRORS.google.quota!);
    fake('openai').reply(ERRORS.openai.quota!);
    const err = await failure(designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true }));
    expect([err.code, err.status]).toEqual(['AI_QUOTA_EXCEEDED', 503]);
    expect(err.headers).toEqual({});
    expectCleanLogs();
  });

  it("the final error is our own message: the vendors' words, hosts and ports only in the log, redacted", async () => {
    const upstream = (id: keyof typeof KEYS) => new URL(fake(id).origin).host;
    const echo = (id: keyof typeof KEYS) =>
      `upstream ${upstream(id)} overloaded for key ${KEYS[id].slice(0, 7)}...${KEYS[id].slice(-7)}`;
    fake('groq').reply({ status: 503, body: { error: { message: echo('groq'), type: 'server_error' } } });
    fake('google').reply({
      status: 503,
      body: { error: { code: 503, message: echo('google'), status: 'UNAVAILABLE' } },
    });
    fake('openai').reply({ status: 503, body: { error: { message: echo('openai'), type: 'server_error' } } });
    const err = await failure(designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true }));
    expect([err.code, err.message]).toEqual(['AI_QUOTA_EXCEEDED', 'No AI provider had capacity.']);
    const logged = consoleCapture.text();
    for (const id of ['groq', 'google', 'openai'] as const) {
      expect(logged).toContain(`upstream ${upstream(id)} overloaded for key [redacted]`);
      for (const piece of [KEYS[id].slice(0, 7), KEYS[id].slice(-7)]) expect(logged).not.toContain(piece);
    }
    expectCleanLogs();
  });

  it('rate limits among the refusals → Retry-After is the soonest', async () => {
    fake('groq').reply(ERRORS.groq.rateLimit);
    fake('google').reply(ERRORS.google.rateLimit);
    fake('openai').reply(ERRORS.openai.quota!);
    const err = await failure(designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true }));
    expect(err.code).toBe('AI_QUOTA_EXCEEDED');
    expect(err.headers).toEqual({ 'Retry-After': '2' });
  });

  it('no usable JSON from anyone → AI_GENERATION_FAILED', async () => {
    fake('groq').reply(success.openai('Sorry, I can only chat.'));
    fake('google').reply(success.gemini('{"config": '));
    fake('openai').reply({
      status: 500,
      body: { error: { message: 'The server had an error', type: 'server_error' } },
    });
    const err = await failure(designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true }));
    expect([err.code, err.status]).toEqual(['AI_GENERATION_FAILED', 502]);
  });

  it('skips providers without a server key, and fails plainly with none', async () => {
    delete settings.managedKeys.groq;
    expect(managedAttempts(settings).map((a) => a.providerId)).toEqual(['google', 'openai']);
    settings.managedKeys = {};
    const err = await failure(designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true }));
    expect(err.code).toBe('AI_GENERATION_FAILED');
  });

  it('follows the configured order, with a model per step where given', () => {
    settings.managedChain = [{ providerId: 'openai' }, { providerId: 'groq', model: 'openai/gpt-oss-20b' }];
    expect(managedAttempts(settings)).toEqual([
      { providerId: 'openai', model: 'gpt-4.1-mini', apiKey: KEYS.openai, baseUrl: settings.baseUrls.openai },
      { providerId: 'groq', model: 'openai/gpt-oss-20b', apiKey: KEYS.groq, baseUrl: settings.baseUrls.groq },
    ]);
  });
});

describe('consumer server chain', () => {
  it("tries groq's larger model, then its smaller one, then openai, then google", async () => {
    fake('groq').reply(ERRORS.groq.overloaded, ERRORS.groq.rateLimit);
    fake('openai').reply(ERRORS.openai.rateLimit);
    fake('google').reply(success.gemini(JSON.stringify(DESIGN)));
    const result = await designQr(BRIEF, consumerServerAttempts(settings), sampleSchema, { managed: true });
    expect(result.providerId).toBe('google');
    expect(fake('groq').received.map((r) => r.model)).toEqual(['openai/gpt-oss-120b', 'openai/gpt-oss-20b']);
    expect(fake('openai').received).toHaveLength(1);
    expectCleanLogs();
  });

  it('follows QR_SERVER_CHAIN (AiSettings.serverChain) when configured', () => {
    settings.serverChain = [{ providerId: 'google' }, { providerId: 'groq', model: 'openai/gpt-oss-20b' }];
    expect(consumerServerAttempts(settings).map((a) => [a.providerId, a.model])).toEqual([
      ['google', 'gemini-2.5-flash'],
      ['groq', 'openai/gpt-oss-20b'],
    ]);
  });
});

describe('caller-key chain', () => {
  const callerKey = 'sk-caller-AbCdEfGh12345678IjKlMnOp';
  const attempts = (): Attempt[] => [
    { providerId: 'openai', model: 'gpt-4.1-mini', apiKey: callerKey, baseUrl: baseUrlOf(fake('openai'), 'openai') },
    {
      providerId: 'google',
      model: 'gemini-2.5-flash',
      apiKey: callerKey,
      baseUrl: baseUrlOf(fake('google'), 'gemini'),
    },
  ];

  it('a rejected key stops the chain: no other provider sees the request', async () => {
    await fake('openai').close();
    fakes.openai = await startFakeVendor('openai', callerKey);
    fake('openai').reply(ERRORS.openai.invalidKey(callerKey));
    const err = await failure(designQr(BRIEF, attempts(), sampleSchema));
    expect(err.code).toBe('LLM_API_KEY_INVALID');
    expectNoSecret(errorText(err), callerKey);
    expectNoSecret(consoleCapture.text(), callerKey);
    expect(fake('google').received).toHaveLength(0);
  });
});

describe('time limits', () => {
  const slow = { delayMs: 5_000, ...success.openai(JSON.stringify(DESIGN)) };

  it('a slow vendor loses its turn after the per-attempt limit; the next one answers', async () => {
    const limits = { perAttemptMs: 200, totalMs: 450 };
    fake('groq').reply(slow);
    fake('google').reply(success.gemini(JSON.stringify(DESIGN)));
    const aborted = fake('groq').nextAbort();
    const started = Date.now();
    const result = await designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true, ...limits });
    const elapsed = Date.now() - started;
    expect(result.providerId).toBe('google');
    expect(elapsed).toBeGreaterThanOrEqual(190);
    await aborted; // the slow vendor saw its socket close
    expect(consoleCapture.text()).toContain('no answer within 200 ms');
  });

  it('all slow → AI_REQUEST_TIMEOUT once the total is spent (200 + 200 + 50 ms)', async () => {
    const limits = { perAttemptMs: 200, totalMs: 450 };
    fake('groq').reply(slow);
    fake('google').reply({ ...success.gemini(JSON.stringify(DESIGN)), delayMs: 5_000 });
    fake('openai').reply(slow);
    const started = Date.now();
    const err = await failure(designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true, ...limits }));
    const elapsed = Date.now() - started;
    expect([err.code, err.status, err.message]).toEqual([
      'AI_REQUEST_TIMEOUT',
      503,
      'No AI provider answered in time.',
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(440);
    expect(consoleCapture.text()).toMatch(/within 200 ms[\s\S]*within 200 ms[\s\S]*within \d{1,2} ms/);
  });

  it('the total running out after a refusal is still a timeout', async () => {
    const limits = { perAttemptMs: 300, totalMs: 450 };
    fake('groq').reply(ERRORS.groq.rateLimit);
    fake('google').reply({ ...success.gemini(JSON.stringify(DESIGN)), delayMs: 5_000 });
    fake('openai').reply(slow);
    const err = await failure(designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true, ...limits }));
    expect(err.code).toBe('AI_REQUEST_TIMEOUT');
    expect(consoleCapture.text()).toMatch(/rate-limited[\s\S]*within 300 ms[\s\S]*within \d{1,3} ms/);
  });

  it('a refusal next to a per-attempt timeout, with time to spare, is a capacity problem', async () => {
    const limits = { perAttemptMs: 100, totalMs: 2000 };
    fake('groq').reply(slow);
    fake('google').reply(ERRORS.google.rateLimit);
    fake('openai').reply(slow);
    const err = await failure(designQr(BRIEF, managedAttempts(settings), sampleSchema, { managed: true, ...limits }));
    expect(err.code).toBe('AI_QUOTA_EXCEEDED');
    expect(err.headers).toEqual({ 'Retry-After': '37' });
  });
});

describe('caller abort', () => {
  it('cancels the request in flight (the vendor sees the socket close) and tries nobody else', async () => {
    fake('groq').reply({ delayMs: 10_000, ...success.openai(JSON.stringify(DESIGN)) });
    const controller = new AbortController();
    const pending = designQr(BRIEF, managedAttempts(settings), sampleSchema, {
      managed: true,
      signal: controller.signal,
    });
    const settled = pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    await fake('groq').nextRequest();
    const aborted = fake('groq').nextAbort();
    controller.abort();
    const err = await settled;
    expect((err as Error).name).toBe('AbortError');
    await aborted;
    expect(fake('groq').aborted).toBe(1);
    expect(fake('google').received).toHaveLength(0);
    expect(fake('openai').received).toHaveLength(0);
  });

  it('an already aborted signal sends nothing', async () => {
    const err = await designQr(BRIEF, managedAttempts(settings), sampleSchema, {
      managed: true,
      signal: AbortSignal.abort(),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as Error).name).toBe('AbortError');
    for (const id of ['groq', 'google', 'openai'] as ProviderId[])
      expect(fakes[id as keyof typeof KEYS]?.received).toHaveLength(0);
  });
});
