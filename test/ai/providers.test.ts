import { afterEach, describe, expect, it } from 'vitest';
import { callerAttempt } from '../../src/ai/attempts.js';
import { baseUrlOf, MODELS_NOTE, PROVIDER_IDS, providerList } from '../../src/ai/providers.js';
import { DEFAULT_AI_SETTINGS } from '../../src/ai/settings.js';
import { ApiError } from '../../src/errors.js';
import { startFakeVendor, type FakeVendor } from './fake-vendor.js';
import { errorText, expectNoSecret } from './secrets.js';

const KEY = 'sk-local-whatever-1234567890';
const SETTINGS = DEFAULT_AI_SETTINGS;
let fake: FakeVendor | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Settings that send `local` to the fake. */
const atFake = (f: FakeVendor) => ({ ...SETTINGS, baseUrls: { local: `${f.origin}/v1` } });

async function code(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expectNoSecret(errorText(err), KEY);
  return `${(err as ApiError).code}${(err as ApiError).field ? `:${(err as ApiError).field}` : ''}`;
}

describe('provider list', () => {
  it('has the ten providers in contract order with their public records', () => {
    expect(PROVIDER_IDS).toEqual([
      'openai',
      'anthropic',
      'google',
      'mistral',
      'deepseek',
      'groq',
      'xai',
      'openrouter',
      'together',
      'local',
    ]);
    const list = providerList();
    expect(list.map((p) => p.id)).toEqual([...PROVIDER_IDS]);
    for (const p of list) {
      expect(Object.keys(p).sort()).toEqual(['acceptsAnyModel', 'availableModels', 'defaultModel', 'id', 'name']);
      expect(p.acceptsAnyModel).toBe(true);
      if (p.id === 'local') expect([p.defaultModel, p.availableModels]).toEqual(['', []]);
      else expect(p.availableModels).toContain(p.defaultModel);
    }
    expect(list.find((p) => p.id === 'groq')?.availableModels).toEqual(['openai/gpt-oss-120b', 'openai/gpt-oss-20b']);
    expect(MODELS_NOTE).toMatch(/any model/i);
  });

  it("base URLs are the vendors' unless overridden", () => {
    expect(baseUrlOf('openai', {})).toBe('https://api.openai.com/v1');
    expect(baseUrlOf('local', {})).toBe('http://127.0.0.1:11434/v1');
    expect(baseUrlOf('openai', { openai: 'http://127.0.0.1:9/v1/' })).toBe('http://127.0.0.1:9/v1');
  });
});

describe('callerAttempt', () => {
  it('validates provider, key and model, and fills in the default model', async () => {
    expect(await callerAttempt({ llmProvider: 'anthropic', llmApiKey: KEY }, SETTINGS)).toEqual({
      providerId: 'anthropic',
      model: 'claude-haiku-4-5',
      apiKey: KEY,
      baseUrl: 'https://api.anthropic.com/v1',
    });
    expect(
      await callerAttempt({ llmProvider: 'openrouter', llmApiKey: KEY, llmModel: 'meta-llama/llama-4:free' }, SETTINGS),
    ).toMatchObject({ model: 'meta-llama/llama-4:free' });
    expect(await code(callerAttempt({ llmProvider: 'cohere', llmApiKey: KEY }, SETTINGS))).toBe(
      'INVALID_LLM_PROVIDER:llmProvider',
    );
    expect(await code(callerAttempt({ llmProvider: 'openai', llmApiKey: '' }, SETTINGS))).toBe(
      'MISSING_REQUIRED_FIELD:llmApiKey',
    );
    expect(await code(callerAttempt({ llmProvider: 'openai', llmApiKey: `${KEY}\r\nx-evil: 1` }, SETTINGS))).toBe(
      'LLM_API_KEY_INVALID:llmApiKey',
    );
    expect(await code(callerAttempt({ llmProvider: 'openai', llmApiKey: KEY, llmModel: 'gpt 4' }, SETTINGS))).toBe(
      'INVALID_LLM_MODEL:llmModel',
    );
    expect(
      await code(callerAttempt({ llmProvider: 'openai', llmApiKey: KEY, llmModel: 'x'.repeat(101) }, SETTINGS)),
    ).toBe('INVALID_LLM_MODEL:llmModel');
  });

  it('local without a model takes the first id its endpoint lists', async () => {
    fake = await startFakeVendor('openai', KEY);
    fake.reply({
      body: {
        object: 'list',
        data: [
          { id: 'llama3.2:3b', object: 'model', owned_by: 'library' },
          { id: 'qwen3:8b', object: 'model' },
        ],
      },
    });
    expect(await callerAttempt({ llmProvider: 'local', llmApiKey: KEY }, atFake(fake))).toEqual({
      providerId: 'local',
      model: 'llama3.2:3b',
      apiKey: KEY,
      baseUrl: `${fake.origin}/v1`,
    });
    expect(fake.problems).toEqual([]);
  });

  it('local discovery: key refused, empty list, endpoint down', async () => {
    fake = await startFakeVendor('openai', KEY);
    fake.reply(
      { status: 401, body: { error: { message: `Invalid key ${KEY}`, type: 'invalid_request_error' } } },
      { body: { object: 'list', data: [] } },
    );
    expect(await code(callerAttempt({ llmProvider: 'local', llmApiKey: KEY }, atFake(fake)))).toBe(
      'LLM_API_KEY_INVALID:llmApiKey',
    );
    expect(await code(callerAttempt({ llmProvider: 'local', llmApiKey: KEY }, atFake(fake)))).toBe(
      'INVALID_LLM_MODEL:llmModel',
    );
    await fake.close();
    expect(await code(callerAttempt({ llmProvider: 'local', llmApiKey: KEY }, atFake(fake)))).toBe(
      'AI_GENERATION_FAILED',
    );
    fake = undefined;
  });
});
