import { afterEach, describe, expect, it } from 'vitest';
import type { Attempt } from '../../src/ai/chain.js';
import { designQr } from '../../src/ai/designer.js';
import { getProvider, type ProviderId } from '../../src/ai/providers.js';
import { vendorMessage } from '../../src/ai/vendor-errors.js';
import { ApiError } from '../../src/errors.js';
import {
  baseUrlOf,
  ERRORS,
  startFakeVendor,
  success,
  type FakeVendor,
  type Reply,
  type WireKind,
} from './fake-vendor.js';
import { captureConsole, errorText, expectNoSecret } from './secrets.js';
import { sampleSchema } from './sample-schema.js';

const KEY = 'sk-test-Q1w2E3r4T5y6U7i8O9p0AsDfGh';
const BRIEF = { prompt: 'calm green for a plant nursery', stylePreset: 'nature' as const };

let fake: FakeVendor | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const wireOf = (id: ProviderId): WireKind => {
  const w = getProvider(id).wire;
  return w === 'anthropic' ? 'anthropic' : w === 'gemini' ? 'gemini' : 'openai';
};

/** Runs one caller-key attempt against a fake answering `reply`; returns the error, checked for leaks. */
async function outcome(id: ProviderId, ...replies: Reply[]): Promise<ApiError> {
  fake = await startFakeVendor(wireOf(id), KEY);
  fake.reply(...replies);
  const attempts: Attempt[] = [
    { providerId: id, model: 'some-model', apiKey: KEY, baseUrl: baseUrlOf(fake, wireOf(id)) },
  ];
  const console = captureConsole();
  let err: unknown;
  try {
    err = await designQr(BRIEF, attempts, sampleSchema).then(
      () => undefined,
      (e: unknown) => e,
    );
  } finally {
    console.restore();
  }
  expect(fake.problems).toEqual([]);
  expect(err).toBeInstanceOf(ApiError);
  expectNoSecret(errorText(err), KEY);
  expectNoSecret(console.text(), KEY);
  return err as ApiError;
}

const RETRY_AFTER: Record<keyof typeof ERRORS, string> = {
  openai: '7',
  anthropic: '12',
  google: '37',
  mistral: '30',
  deepseek: '30',
  groq: '2',
  xai: '30',
  openrouter: '5',
  together: '30',
};

describe.each(Object.keys(ERRORS) as (keyof typeof ERRORS)[])('%s error answers', (id) => {
  const set = ERRORS[id];

  it('invalid key → LLM_API_KEY_INVALID (401), the echoed key redacted', async () => {
    const err = await outcome(id, set.invalidKey(KEY));
    expect([err.code, err.status, err.field]).toEqual(['LLM_API_KEY_INVALID', 401, 'llmApiKey']);
  });

  const quota = set.quota; // Groq documents no quota error
  if (quota) {
    it('credits or spend cap exhausted → AI_QUOTA_EXCEEDED without Retry-After', async () => {
      const err = await outcome(id, quota);
      expect([err.code, err.status]).toEqual(['AI_QUOTA_EXCEEDED', 503]);
      expect(err.headers).toEqual({});
    });
  }

  it('rate limit → AI_QUOTA_EXCEEDED with Retry-After', async () => {
    const err = await outcome(id, set.rateLimit);
    expect([err.code, err.status]).toEqual(['AI_QUOTA_EXCEEDED', 503]);
    expect(err.headers).toEqual({ 'Retry-After': RETRY_AFTER[id] });
  });

  it('overloaded → AI_QUOTA_EXCEEDED without Retry-After', async () => {
    const err = await outcome(id, set.overloaded);
    expect(err.code).toBe('AI_QUOTA_EXCEEDED');
    expect(err.headers).toEqual({});
  });

  it('model missing → INVALID_LLM_MODEL (400) on llmModel', async () => {
    const err = await outcome(id, set.modelMissing);
    expect([err.code, err.status, err.field]).toEqual(['INVALID_LLM_MODEL', 400, 'llmModel']);
  });

  it('malformed JSON → AI_GENERATION_FAILED', async () => {
    const truncated = '{"config": {"primaryColor": "#000000", "moduleShape": ';
    const reply =
      wireOf(id) === 'anthropic'
        ? success.anthropicText(truncated)
        : wireOf(id) === 'gemini'
          ? success.gemini(truncated)
          : success.openai(truncated);
    const err = await outcome(id, reply);
    expect([err.code, err.status]).toEqual(['AI_GENERATION_FAILED', 502]);
  });
});

describe('signals that differ from the plain status', () => {
  it('anthropic: a 429 without retry-after is the monthly spend cap (quota)', async () => {
    const err = await outcome('anthropic', {
      status: 429,
      body: {
        type: 'error',
        error: { type: 'rate_limit_error', message: 'You have reached your specified API usage limits.' },
      },
    });
    expect(err.code).toBe('AI_QUOTA_EXCEEDED');
    expect(err.headers).toEqual({});
  });

  it('anthropic: 402 billing_error is quota', async () => {
    const err = await outcome('anthropic', {
      status: 402,
      body: { type: 'error', error: { type: 'billing_error', message: 'Billing issue.' } },
    });
    expect(err.code).toBe('AI_QUOTA_EXCEEDED');
  });

  it('google: 403 PERMISSION_DENIED is a rejected key', async () => {
    const err = await outcome('google', {
      status: 403,
      body: {
        error: { code: 403, message: "Method doesn't allow unregistered callers.", status: 'PERMISSION_DENIED' },
      },
    });
    expect(err.code).toBe('LLM_API_KEY_INVALID');
  });

  it('xai: 403 is an account without credits', async () => {
    const err = await outcome('xai', {
      status: 403,
      body: { code: 'The caller does not have permission', error: 'Your team does not have any credits.' },
    });
    expect(err.code).toBe('AI_QUOTA_EXCEEDED');
  });

  it('groq: 400 model_decommissioned is a missing model', async () => {
    const err = await outcome('groq', {
      status: 400,
      body: {
        error: {
          message: 'The model `mixtral-8x7b-32768` has been decommissioned.',
          type: 'invalid_request_error',
          code: 'model_decommissioned',
        },
      },
    });
    expect(err.code).toBe('INVALID_LLM_MODEL');
  });

  it('together: 400 model_not_available (dedicated-only) is a missing model', async () => {
    const err = await outcome('together', {
      status: 400,
      body: {
        error: {
          message: 'Unable to access non-serverless model x.',
          type: 'invalid_request_error',
          code: 'model_not_available',
        },
      },
    });
    expect(err.code).toBe('INVALID_LLM_MODEL');
  });

  it('openai: deactivated-credit code under 429 is quota, not a rate limit', async () => {
    const err = await outcome('openai', {
      status: 429,
      body: {
        error: {
          message: 'Your monthly spend limit has been reached.',
          type: 'requests',
          code: 'monthly_spend_limit_exceeded',
        },
      },
    });
    expect(err.code).toBe('AI_QUOTA_EXCEEDED');
    expect(err.headers).toEqual({});
  });

  it('openrouter: HTTP 200 with an upstream error in the body is a failure, not a design', async () => {
    const err = await outcome('openrouter', {
      status: 200,
      body: { error: { code: 502, message: 'Upstream provider returned an error' } },
    });
    expect(err.code).toBe('AI_GENERATION_FAILED');
    expect(err.message).toContain('HTTP 502');
  });

  it('openrouter: HTTP 200 with a 429 in the body is a rate limit', async () => {
    const err = await outcome('openrouter', {
      status: 200,
      body: { error: { code: 429, message: 'Provider rate limited' } },
    });
    expect(err.code).toBe('AI_QUOTA_EXCEEDED');
    expect(err.headers).toEqual({ 'Retry-After': '30' });
  });

  it("a proxy's HTML error page is a server failure", async () => {
    const err = await outcome('mistral', { status: 502, raw: '<html><body>502 Bad Gateway</body></html>' });
    expect(err.code).toBe('AI_GENERATION_FAILED');
  });

  it("another 4xx (a model refusing a parameter) is the caller's to fix: INVALID_FIELD_VALUE on llmModel", async () => {
    const err = await outcome('openai', {
      status: 400,
      body: {
        error: {
          message: "Unsupported value: 'temperature' does not support 0.65 with this model.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'unsupported_value',
        },
      },
    });
    expect([err.code, err.status, err.field]).toEqual(['INVALID_FIELD_VALUE', 400, 'llmModel']);
    expect(err.message).toContain('Unsupported value');
  });

  it("a key-looking token in any vendor message is redacted, whoever's it is", async () => {
    const err = await outcome('openai', {
      status: 401,
      body: {
        error: {
          message: 'Key sk-proj-abc123XYZ789def is revoked; AIzaSyA1b2C3d4E5f6G7 too',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    expect(err.message).not.toMatch(/sk-proj-abc|AIzaSy/);
    expect(err.message).toContain('[redacted]');
  });
});

describe('vendorMessage', () => {
  it.each([
    [{ error: { message: 'OpenAI style', type: 't' } }, 'OpenAI style'],
    [{ code: 'Some resource', error: 'xAI style' }, 'xAI style'],
    [{ message: 'Unauthorized' }, 'Unauthorized'],
    [{ detail: 'Unauthorized' }, 'Unauthorized'],
    [{ detail: [{ loc: ['body'], msg: 'bad' }] }, '[{"loc":["body"],"msg":"bad"}]'],
    ['<html>502</html>', '<html>502</html>'],
    [{}, ''],
  ])('%j → %s', (body, expected) => expect(vendorMessage(body)).toBe(expected));
});
