import { describe, expect, it } from 'vitest';
import { DEFAULT_AI_SETTINGS } from '../src/ai/settings.js';
import { loadConfig } from '../src/config.js';

describe('Config.ai from the environment', () => {
  it("defaults to the contract's limits and chain, with no keys and no overrides", () => {
    expect(loadConfig({}).ai).toEqual(DEFAULT_AI_SETTINGS);
    expect([DEFAULT_AI_SETTINGS.perAttemptMs, DEFAULT_AI_SETTINGS.totalMs]).toEqual([20_000, 45_000]);
    expect(DEFAULT_AI_SETTINGS.managedChain.map((s) => s.providerId)).toEqual(['groq', 'google', 'openai']);
  });

  it('reads base URLs, managed keys (QR_MANAGED_<ID>_API_KEY), the chain and the limits', () => {
    const ai = loadConfig({
      QR_LLM_LOCAL_BASE_URL: 'http://127.0.0.1:11434/v1',
      QR_MANAGED_GROQ_API_KEY: ' gsk_abc123 ',
      QR_LLM_OPENAI_API_KEY: 'sk-old-name-is-not-read',
      QR_MANAGED_CHAIN: 'google, local=llama3.2:3b,groq=openai/gpt-oss-20b',
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
      perAttemptMs: 5000,
      totalMs: 9000,
    });
  });

  it("refuses nonsense by the variable's name, never echoing a key", () => {
    expect(() => loadConfig({ QR_AI_ATTEMPT_TIMEOUT_MS: 'soon' })).toThrow(/QR_AI_ATTEMPT_TIMEOUT_MS/);
    expect(() => loadConfig({ QR_MANAGED_CHAIN: 'groq,cohere' })).toThrow(/QR_MANAGED_CHAIN: "cohere"/);
    expect(() => loadConfig({ QR_MANAGED_CHAIN: 'local' })).toThrow(/local=<model>/);
    expect(() => loadConfig({ QR_MANAGED_CHAIN: 'groq=bad model' })).toThrow(/not a model id/);
    expect(() => loadConfig({ QR_LLM_OPENAI_BASE_URL: 'api.openai.com' })).toThrow(/QR_LLM_OPENAI_BASE_URL/);
    const key = 'gsk_has a space';
    expect(() => loadConfig({ QR_MANAGED_GROQ_API_KEY: key })).toThrow(/QR_MANAGED_GROQ_API_KEY/);
    expect(() => loadConfig({ QR_MANAGED_GROQ_API_KEY: key })).not.toThrow(/has a space/);
  });
});
