import { ApiError } from '../errors.js';
import type { Attempt } from './chain.js';
import { isPlainObject } from './json-schema.js';
import { baseUrlOf, getProvider, isProviderId } from './providers.js';
import { redact } from './redact.js';
import type { AiSettings, ChainStep } from './settings.js';
import { VendorError } from './vendor-errors.js';
import { exchange, replyError, type VendorReply } from './wire/http.js';

/** The contract's model id (docs/contract.md): letters, digits and `. _ : / -`, at most 100 characters. */
export const MODEL_ID = /^[A-Za-z0-9._:/-]{1,100}$/;
export const MAX_API_KEY_CHARS = 512;
/** A key goes into an HTTP header: printable ASCII without spaces, or undici refuses it (and may quote it). */
const API_KEY = new RegExp(`^[\\x21-\\x7e]{1,${MAX_API_KEY_CHARS}}$`);
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
export async function callerAttempt(
  choice: CallerChoice,
  settings: Pick<AiSettings, 'baseUrls' | 'perAttemptMs'>,
  signal?: AbortSignal,
): Promise<Attempt> {
  const { llmProvider, llmApiKey, llmModel } = choice;
  if (!isProviderId(llmProvider)) throw new ApiError('INVALID_LLM_PROVIDER', { field: 'llmProvider' });
  if (typeof llmApiKey !== 'string' || llmApiKey.trim() === '') {
    throw new ApiError('MISSING_REQUIRED_FIELD', { message: 'llmApiKey is required.', field: 'llmApiKey' });
  }
  if (!API_KEY.test(llmApiKey)) {
    throw new ApiError('LLM_API_KEY_INVALID', {
      message: 'llmApiKey must be printable ASCII without spaces.',
      field: 'llmApiKey',
    });
  }
  const attempt = { providerId: llmProvider, apiKey: llmApiKey, baseUrl: baseUrlOf(llmProvider, settings.baseUrls) };
  if (llmModel !== undefined && llmModel !== null && llmModel !== '') {
    if (typeof llmModel !== 'string' || !MODEL_ID.test(llmModel))
      throw new ApiError('INVALID_LLM_MODEL', { field: 'llmModel' });
    return { ...attempt, model: llmModel };
  }
  const { defaultModel } = getProvider(llmProvider);
  if (defaultModel !== '') return { ...attempt, model: defaultModel };
  return { ...attempt, model: await discoverModel(attempt, Math.min(DISCOVERY_MS, settings.perAttemptMs), signal) };
}

async function discoverModel(
  attempt: Omit<Attempt, 'model'>,
  limitMs: number,
  callerSignal?: AbortSignal,
): Promise<string> {
  const { apiKey } = attempt;
  const provider = getProvider(attempt.providerId);
  const timeout = AbortSignal.timeout(limitMs);
  const call = { provider, apiKey, signal: callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout };
  let reply: VendorReply;
  try {
    reply = await exchange(call, 'GET', `${attempt.baseUrl}/models`, { authorization: `Bearer ${apiKey}` });
  } catch (err) {
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (err instanceof VendorError) throw discoveryError(err, apiKey);
    if (timeout.aborted) {
      throw new ApiError('AI_REQUEST_TIMEOUT', {
        message: `The ${provider.name} endpoint did not list its models within ${limitMs} ms; pass llmModel.`,
      });
    }
    throw err;
  }
  const error = replyError(call, reply);
  if (error) throw discoveryError(error, apiKey);
  const data = isPlainObject(reply.body) && Array.isArray(reply.body.data) ? reply.body.data : [];
  const id = data
    .map((m) => (isPlainObject(m) ? m.id : undefined))
    .find((m): m is string => typeof m === 'string' && MODEL_ID.test(m));
  if (id === undefined)
    throw new ApiError('INVALID_LLM_MODEL', {
      message: `The ${provider.name} endpoint lists no model; pass llmModel.`,
      field: 'llmModel',
    });
  return id;
}

function discoveryError(failure: VendorError, apiKey: string): ApiError {
  const message = redact(failure.message, [apiKey]);
  return failure.kind === 'invalid_key'
    ? new ApiError('LLM_API_KEY_INVALID', { message, field: 'llmApiKey' })
    : new ApiError('AI_GENERATION_FAILED', {
        message: `Could not list the endpoint's models (${message}); pass llmModel.`,
      });
}

/** Steps whose provider has no server key (`AiSettings.managedKeys`) are left out. */
const withServerKeys = (
  steps: readonly ChainStep[],
  settings: Pick<AiSettings, 'managedKeys' | 'baseUrls'>,
): Attempt[] =>
  steps.flatMap(({ providerId, model }) => {
    const apiKey = settings.managedKeys[providerId];
    if (apiKey === undefined) return [];
    return [
      {
        providerId,
        model: model ?? getProvider(providerId).defaultModel,
        apiKey,
        baseUrl: baseUrlOf(providerId, settings.baseUrls),
      },
    ];
  });

/** `POST /api/qr/ai/generate-managed`: `AiSettings.managedChain` (groq → google → openai by default). Run with `{managed: true}`. */
export const managedAttempts = (settings: Pick<AiSettings, 'managedChain' | 'managedKeys' | 'baseUrls'>): Attempt[] =>
  withServerKeys(settings.managedChain, settings);

/** `POST /api/qr/ai/generate/server`: `AiSettings.serverChain` (groq 120b → groq 20b → openai → google by default). Run with `{managed: true}`. */
export const consumerServerAttempts = (
  settings: Pick<AiSettings, 'serverChain' | 'managedKeys' | 'baseUrls'>,
): Attempt[] => withServerKeys(settings.serverChain, settings);
