import { ApiError } from '../errors.js';
import type { Attempt } from './chain.js';
import { aiTimeouts, serverKey } from './env.js';
import { isPlainObject } from './json-schema.js';
import { getProvider, isProviderId, type ProviderId } from './providers.js';
import { redact } from './redact.js';
import { VendorError } from './vendor-errors.js';
import { exchange, replyError } from './wire/http.js';

/** The contract's model id: letters, digits and `. _ : / -`, at most 100 characters. */
export const MODEL_ID = /^[A-Za-z0-9._:/-]{1,100}$/;
/** A key goes into an HTTP header: printable ASCII without spaces, or undici refuses it (and may quote it). */
const API_KEY = /^[\x21-\x7e]{1,512}$/;
/** Listing a local server's models is a quick call; it should not eat the generation's time. */
const DISCOVERY_MS = 5_000;

export interface CallerChoice {
  llmProvider: unknown;
  llmApiKey: unknown;
  llmModel?: unknown;
}

/**
 * The single attempt of the marketplace endpoint, from the caller's body fields. The model defaults to the
 * provider's; for `local` with no model, the first id the endpoint lists at `GET {base}/models`.
 * Errors: INVALID_LLM_PROVIDER, MISSING_REQUIRED_FIELD / LLM_API_KEY_INVALID (llmApiKey), INVALID_LLM_MODEL.
 */
export async function callerAttempt(choice: CallerChoice, signal?: AbortSignal): Promise<Attempt> {
  const { llmProvider, llmApiKey, llmModel } = choice;
  if (!isProviderId(llmProvider)) throw new ApiError('INVALID_LLM_PROVIDER', undefined, 'llmProvider');
  if (typeof llmApiKey !== 'string' || llmApiKey.trim() === '') {
    throw new ApiError('MISSING_REQUIRED_FIELD', 'llmApiKey is required.', 'llmApiKey');
  }
  if (!API_KEY.test(llmApiKey)) {
    throw new ApiError('LLM_API_KEY_INVALID', 'llmApiKey must be printable ASCII without spaces.', 'llmApiKey');
  }
  if (llmModel !== undefined && llmModel !== null && llmModel !== '') {
    if (typeof llmModel !== 'string' || !MODEL_ID.test(llmModel)) throw new ApiError('INVALID_LLM_MODEL', undefined, 'llmModel');
    return { providerId: llmProvider, model: llmModel, apiKey: llmApiKey };
  }
  const provider = getProvider(llmProvider);
  const model = provider.defaultModel !== '' ? provider.defaultModel : await discoverModel(llmProvider, llmApiKey, signal);
  return { providerId: llmProvider, model, apiKey: llmApiKey };
}

async function discoverModel(providerId: ProviderId, apiKey: string, callerSignal?: AbortSignal): Promise<string> {
  const provider = getProvider(providerId);
  const limitMs = Math.min(DISCOVERY_MS, aiTimeouts().perAttemptMs);
  const timeout = AbortSignal.timeout(limitMs);
  const call = { provider, apiKey, signal: callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout };
  let reply;
  try {
    reply = await exchange(call, 'GET', `${provider.baseUrl}/models`, { authorization: `Bearer ${apiKey}` });
  } catch (err) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (err instanceof VendorError) throw discoveryError(err, apiKey);
    if (timeout.aborted) {
      throw new ApiError('AI_REQUEST_TIMEOUT', `The ${provider.name} endpoint did not list its models within ${limitMs} ms; pass llmModel.`);
    }
    throw err;
  }
  const error = replyError(call, reply);
  if (error) throw discoveryError(error, apiKey);
  const data = isPlainObject(reply.body) && Array.isArray(reply.body.data) ? reply.body.data : [];
  const id = data.map((m) => (isPlainObject(m) ? m.id : undefined)).find((m): m is string => typeof m === 'string' && MODEL_ID.test(m));
  if (id === undefined) throw new ApiError('INVALID_LLM_MODEL', `The ${provider.name} endpoint lists no model; pass llmModel.`, 'llmModel');
  return id;
}

function discoveryError(failure: VendorError, apiKey: string): ApiError {
  const message = redact(failure.message, [apiKey]);
  return failure.kind === 'invalid_key'
    ? new ApiError('LLM_API_KEY_INVALID', message, 'llmApiKey')
    : new ApiError('AI_GENERATION_FAILED', `Could not list the endpoint's models (${message}); pass llmModel.`);
}

type ChainStep = readonly [ProviderId, string?];

/** The contract's server-side chains; an omitted model is the provider's default. */
const MANAGED_CHAIN: readonly ChainStep[] = [['groq'], ['google'], ['openai']];
const CONSUMER_SERVER_CHAIN: readonly ChainStep[] = [['groq', 'openai/gpt-oss-120b'], ['groq', 'openai/gpt-oss-20b'], ['openai'], ['google']];

/** Steps whose provider has no server key (QR_LLM_<ID>_API_KEY) are left out. */
const withServerKeys = (steps: readonly ChainStep[]): Attempt[] =>
  steps.flatMap(([providerId, model]) => {
    const apiKey = serverKey(providerId);
    return apiKey === undefined ? [] : [{ providerId, model: model ?? getProvider(providerId).defaultModel, apiKey }];
  });

/** `POST /api/qr/ai/generate-managed`: Groq, then Google, then OpenAI. Run with `{managed: true}`. */
export const managedAttempts = (): Attempt[] => withServerKeys(MANAGED_CHAIN);

/** `POST /api/qr/ai/generate/server`: Groq's larger then smaller model, then OpenAI, then Google. Run with `{managed: true}`. */
export const consumerServerAttempts = (): Attempt[] => withServerKeys(CONSUMER_SERVER_CHAIN);
