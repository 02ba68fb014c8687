import { describe, expect, it } from 'vitest';
import { DEFAULT_AI_SETTINGS } from '../src/ai/settings.js';
import { loadConfig } from '../src/config.js';

describe('Config.ai from the environment', () => {
  it("defaults to the contract's limits and chain, with no keys and no overrides", () => {
    expect(loadConfig({}).ai).toEqual(DEFAULT_AI_SETTINGS);
    expect([DEFAULT_AI_SETTINGS.perAttemptMs, DEFAULT_AI_SETTINGS.totalMs]).toEqual([20_000, 45_000]);
    expect(DEFAULT_AI_SETTINGS.managedChain.map((s) => s.providerId)).toEqual(['groq', 'google', 'openai']);
    expect(DEFAULT_AI_SETTINGS.serverChain).toEqual([
      { providerId: 'groq', model: 'openai/gpt-oss-120b' },
      { providerId: 'groq', model: 'openai/gpt-oss-20b' },
      { providerId: 'openai' },
      { providerId: 'google' },
    ]);
  });

  it('reads base URLs, managed keys (QR_MANAGED_<ID>_API_KEY), the chains and the limits', () => {
    const ai = loadConfig({
      QR_LLM_LOCAL_BASE_URL: 'http://127.0.0.1:11434/v1',
      QR_MANAGED_GROQ_API_KEY: ' gsk_abc123 ',
      QR_LLM_OPENAI_API_KEY: 'sk-old-name-is-not-read',
      QR_MANAGED_CHAIN: 'google, local=llama3.2:3b,groq=openai/gpt-oss-20b',
      QR_SERVER_CHAIN: 'openai=gpt-4.1,groq',
      QR_AI_ATTEMPT_TIMEOUT_MS: '5000',
      QR_AI_TOTAL_TIMEOUT_MS: '9000',
    }).ai;
    expect(ai).toEqual({
      baseUrls: { local: 'http://127.0.0.1:11434/v1' },
      managedKeys: { groq: 'gsk_abc123' },
      managedChain: [
        { providerId: 'google' },
        { providerId: 'local', model: 'llama3.2:3b' },
        { providerId: 'groq', model: 'openai/gpt-oss-20b' },
      ],
      serverChain: [{ providerId: 'openai', model: 'gpt-4.1' }, { providerId: 'groq' }],
      perAttemptMs: 5000,
      totalMs: 9000,
    });
  });

  it("refuses nonsense by the variable's name, never echoing a key", () => {
    expect(() => loadConfig({ QR_AI_ATTEMPT_TIMEOUT_MS: 'soon' })).toThrow(/QR_AI_ATTEMPT_TIMEOUT_MS/);
    expect(() => loadConfig({ QR_MANAGED_CHAIN: 'groq,cohere' })).toThrow(/QR_MANAGED_CHAIN: "cohere"/);
    expect(() => loadConfig({ QR_MANAGED_CHAIN: 'local' })).toThrow(/local=<model>/);
    expect(() => loadConfig({ QR_MANAGED_CHAIN: 'groq=bad model' })).toThrow(/not a model id/);
    expect(() => loadConfig({ QR_SERVER_CHAIN: 'groq,cohere' })).toThrow(/QR_SERVER_CHAIN: "cohere"/);
    expect(() => loadConfig({ QR_LLM_OPENAI_BASE_URL: 'api.openai.com' })).toThrow(/QR_LLM_OPENAI_BASE_URL/);
    const key = 'gsk_has a space';
    expect(() => loadConfig({ QR_MANAGED_GROQ_API_KEY: key })).toThrow(/QR_MANAGED_GROQ_API_KEY/);
    expect(() => loadConfig({ QR_MANAGED_GROQ_API_KEY: key })).not.toThrow(/has a space/);
  });
});

const LONG = 'a'.repeat(32);
const OLD = 'b'.repeat(40);

describe('relay secrets', () => {
  it('unset: no secret, so no relay is accepted', () => {
    expect(loadConfig({}).internalSecrets).toEqual([]);
  });

  it('current first, then the previous one during a rotation', () => {
    expect(loadConfig({ QR_INTERNAL_SECRET: LONG }).internalSecrets).toEqual([LONG]);
    expect(loadConfig({ QR_INTERNAL_SECRET: ` ${LONG} `, QR_INTERNAL_SECRET_PREVIOUS: OLD }).internalSecrets).toEqual([
      LONG,
      OLD,
    ]);
  });

  it('refuses a short secret, or a previous one alone, by name and never echoing the value', () => {
    const short = 'tooShort-s3cr3t';
    expect(() => loadConfig({ QR_INTERNAL_SECRET: short })).toThrow(/QR_INTERNAL_SECRET must be at least 32/);
    expect(() => loadConfig({ QR_INTERNAL_SECRET: short })).not.toThrow(/tooShort/);
    expect(() => loadConfig({ QR_INTERNAL_SECRET: LONG, QR_INTERNAL_SECRET_PREVIOUS: short })).toThrow(
      /QR_INTERNAL_SECRET_PREVIOUS must be at least 32/,
    );
    expect(() => loadConfig({ QR_INTERNAL_SECRET_PREVIOUS: OLD })).toThrow(/without QR_INTERNAL_SECRET/);
  });
});

describe('where the site finds its engines', () => {
  it('QR_ENGINE_URL: http(s) origins and unix: socket paths, in the order given', () => {
    expect(loadConfig({}).site.engineUrls).toEqual([]);
    const c = loadConfig({ QR_ENGINE_URL: 'http://10.0.0.5:3000/, unix:/run/qrfarm/engine.sock,https://e.example' });
    expect(c.site.engineUrls).toEqual(['http://10.0.0.5:3000', 'unix:/run/qrfarm/engine.sock', 'https://e.example']);
  });

  it('refuses a path after an origin, a relative socket path and one longer than a socket address holds', () => {
    expect(() => loadConfig({ QR_ENGINE_URL: 'http://10.0.0.5:3000/api' })).toThrow(/QR_ENGINE_URL must be/);
    expect(() => loadConfig({ QR_ENGINE_URL: 'unix:engine.sock' })).toThrow(/QR_ENGINE_URL: .*absolute/);
    const at = (bytes: number) => `/${'s'.repeat(bytes - 1)}`;
    expect(loadConfig({ QR_ENGINE_URL: `unix:${at(107)}` }).site.engineUrls).toEqual([`unix:${at(107)}`]);
    expect(() => loadConfig({ QR_ENGINE_URL: `unix:${at(108)}` })).toThrow(/at most 107 bytes/);
  });

  it('QR_ENGINE_SOCKET: unset by default; an absolute path that fits a socket address', () => {
    expect(loadConfig({}).engineSocket).toBeUndefined();
    expect(loadConfig({ QR_ENGINE_SOCKET: '/run/qrfarm/engine.sock' }).engineSocket).toBe('/run/qrfarm/engine.sock');
    expect(() => loadConfig({ QR_ENGINE_SOCKET: 'data/engine.sock' })).toThrow(/QR_ENGINE_SOCKET: .*absolute/);
    // Counted in bytes, as the kernel counts them: 55 characters here, 109 bytes.
    expect(() => loadConfig({ QR_ENGINE_SOCKET: `/${'é'.repeat(54)}` })).toThrow(/at most 107 bytes/);
  });
});

describe('Redis and limits', () => {
  it('REDIS_URL and the key prefix; a malformed URL is named, not echoed', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({}).redisKeyPrefix).toBe('qrfarm:');
    const c = loadConfig({ REDIS_URL: 'redis://:pw@10.0.0.5:6380/2', QR_REDIS_PREFIX: 'eu1:' });
    expect([c.redisUrl, c.redisKeyPrefix]).toEqual(['redis://:pw@10.0.0.5:6380/2', 'eu1:']);
    expect(() => loadConfig({ REDIS_URL: 'http://user:hunter2@x' })).toThrow(/REDIS_URL must be/);
    expect(() => loadConfig({ REDIS_URL: 'http://user:hunter2@x' })).not.toThrow(/hunter2/);
  });

  it("per-customer limits default to the contract's and can be raised", () => {
    expect(loadConfig({}).rateLimits).toEqual({ general: 120, generation: 60, ai: 30 });
    expect(
      loadConfig({ QR_LIMIT_GENERAL: '5000', QR_LIMIT_GENERATION: '2000', QR_LIMIT_AI: '1000' }).rateLimits,
    ).toEqual({ general: 5000, generation: 2000, ai: 1000 });
    expect(() => loadConfig({ QR_LIMIT_AI: '0' })).toThrow(/QR_LIMIT_AI/);
  });
});

describe('the render pool and request bodies', () => {
  it('high-resolution renders leave one worker to ordinary ones by default, but have at least one', () => {
    expect([1, 2, 3, 8].map((n) => loadConfig({ QR_WORKERS: String(n) }).heavyConcurrency)).toEqual([1, 1, 2, 7]);
    expect(loadConfig({ QR_WORKERS: '4', QR_HEAVY_CONCURRENCY: '4' }).heavyConcurrency).toBe(4);
  });

  it('the queue wait and the body deadline are bounded and can be set', () => {
    expect(loadConfig({})).toMatchObject({ queueWaitMs: 5000, bodyTimeoutMs: 30_000 });
    expect(loadConfig({ QR_QUEUE_WAIT_MS: '250', QR_BODY_TIMEOUT_MS: '4000' })).toMatchObject({
      queueWaitMs: 250,
      bodyTimeoutMs: 4000,
    });
    expect(() => loadConfig({ QR_QUEUE_WAIT_MS: '0' })).toThrow(/QR_QUEUE_WAIT_MS/);
    expect(() => loadConfig({ QR_BODY_TIMEOUT_MS: 'soon' })).toThrow(/QR_BODY_TIMEOUT_MS/);
  });
});

describe('metrics', () => {
  it('QR_METRICS is on unless off, and nothing else', () => {
    expect(loadConfig({}).metrics).toBe(true);
    expect(loadConfig({ QR_METRICS: 'on' }).metrics).toBe(true);
    expect(loadConfig({ QR_METRICS: 'off' }).metrics).toBe(false);
    expect(() => loadConfig({ QR_METRICS: 'false' })).toThrow(/QR_METRICS must be on or off/);
  });
});
