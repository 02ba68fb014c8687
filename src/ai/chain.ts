import { logWarn } from '../observe/log.js';
import { ApiError } from '../errors.js';
import { getProvider, type ProviderId, type Wire } from './providers.js';
import { redact } from './redact.js';
import { DEFAULT_AI_SETTINGS } from './settings.js';
import { VendorError, type FailureKind } from './vendor-errors.js';
import { anthropicMessages } from './wire/anthropic-messages.js';
import { geminiGenerate } from './wire/gemini-generate.js';
import type { LlmRequest, WireAdapter } from './wire/http.js';
import { openaiChat } from './wire/openai-chat.js';

export interface Attempt {
  providerId: ProviderId;
  model: string;
  apiKey: string;
  /** Where this provider is reached (`baseUrlOf`). */
  baseUrl: string;
}

export interface ChainOptions {
  /** The caller's signal (client disconnected): aborts the request in flight and rejects with its reason. */
  signal?: AbortSignal;
  /** Defaults: the contract's 20000 and 45000 (`DEFAULT_AI_SETTINGS`); routes pass `Config.ai`'s. */
  perAttemptMs?: number;
  totalMs?: number;
  /**
   * The keys are the server's own (managed and consumer-server chains). A rejected key, a missing model or
   * a refused request is then an operations fault, not the caller's: the chain moves on instead of stopping.
   * The final error then carries our own message: the vendors' text (their hosts and ports, what their
   * accounts are short of) is for the log only.
   */
  managed?: boolean;
  /** Where fallbacks are reported; lines are already redacted. Default the log's warning (observe/log.ts). */
  log?: (line: string) => void;
}

export interface ChainResult {
  json: Record<string, unknown>;
  providerId: ProviderId;
  model: string;
}

const WIRES: Readonly<Record<Wire, WireAdapter>> = {
  openai: openaiChat,
  anthropic: anthropicMessages,
  gemini: geminiGenerate,
};

/** A refusal that says nothing about this request itself: the same request may succeed with the next provider. */
const CAPACITY: ReadonlySet<FailureKind> = new Set(['quota', 'rate_limit', 'overloaded']);
/** Failures that every provider would repeat for a caller-chosen provider, key and model. */
const STOP: ReadonlySet<FailureKind> = new Set(['invalid_key', 'model_missing', 'client']);
/** Retry-After when a rate-limiting vendor did not say how long. */
const DEFAULT_RETRY_AFTER_SEC = 30;

/**
 * Tries each attempt in order until one answers with a JSON object. Each attempt gets
 * min(perAttemptMs, time left of totalMs); the caller's signal aborts whatever is in flight.
 *
 * Errors (ApiError, messages redacted of every key):
 * - caller-owned keys: invalid key → LLM_API_KEY_INVALID; unknown model → INVALID_LLM_MODEL; other 4xx →
 *   INVALID_FIELD_VALUE (field llmModel: a model that refuses our parameters); none of these fall back;
 * - the total ran out, or every provider timed out → AI_REQUEST_TIMEOUT (503);
 * - else some provider refused for quota, rate limit or overload → AI_QUOTA_EXCEEDED (503), with
 *   Retry-After (the soonest a vendor named, 30 s if none did) when one of the refusals was a rate limit;
 * - else (malformed output, 5xx, unreachable) → AI_GENERATION_FAILED.
 */
export async function runChain(
  attempts: readonly Attempt[],
  request: LlmRequest,
  options: ChainOptions = {},
): Promise<ChainResult> {
  const perAttemptMs = options.perAttemptMs ?? DEFAULT_AI_SETTINGS.perAttemptMs;
  const totalMs = options.totalMs ?? DEFAULT_AI_SETTINGS.totalMs;
  const secrets = attempts.map((a) => a.apiKey);
  const log = options.log ?? logWarn;
  const caller = options.signal;

  if (attempts.length === 0) throw new ApiError('AI_GENERATION_FAILED', { message: 'No AI provider is configured.' });
  const deadline = Date.now() + totalMs;
  const failures: VendorError[] = [];
  let outOfTime = false;

  for (const [i, attempt] of attempts.entries()) {
    caller?.throwIfAborted();
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      outOfTime = true;
      failures.push(new VendorError('timeout', attempt.providerId, 'not tried: the chain ran out of time'));
      continue;
    }
    const provider = getProvider(attempt.providerId);
    const limitMs = Math.min(perAttemptMs, remaining);
    const timeout = AbortSignal.timeout(limitMs);
    const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
    try {
      const json = await WIRES[provider.wire]({
        provider,
        baseUrl: attempt.baseUrl,
        model: attempt.model,
        apiKey: attempt.apiKey,
        request,
        signal,
      });
      return { json, providerId: attempt.providerId, model: attempt.model };
    } catch (err) {
      if (caller?.aborted) throw caller.reason;
      const failure =
        err instanceof VendorError
          ? err
          : timeout.aborted
            ? new VendorError('timeout', attempt.providerId, `no answer within ${limitMs} ms`)
            : undefined;
      if (!failure) throw err;
      if (failure.kind === 'timeout' && limitMs < perAttemptMs) outOfTime = true;
      if (!options.managed && STOP.has(failure.kind)) throw stopError(failure, attempt, secrets);
      failures.push(failure);
      const next = i + 1 < attempts.length ? 'trying the next provider' : 'no provider left';
      log(redact(`[ai] ${attempt.providerId} ${attempt.model}: ${failure.message}; ${next}`, secrets));
    }
  }
  throw finalError(
    failures,
    outOfTime,
    options.managed ? undefined : redact(failures.map((f) => f.message).join('; '), secrets),
  );
}

function stopError(failure: VendorError, attempt: Attempt, secrets: readonly string[]): ApiError {
  const message = redact(failure.message, secrets);
  switch (failure.kind) {
    case 'invalid_key':
      return new ApiError('LLM_API_KEY_INVALID', { message, field: 'llmApiKey' });
    case 'model_missing':
      return new ApiError('INVALID_LLM_MODEL', {
        message: redact(`Model "${attempt.model}" is not available: ${message}`, secrets),
        field: 'llmModel',
      });
    default:
      return new ApiError('INVALID_FIELD_VALUE', { message, field: 'llmModel' });
  }
}

/**
 * The error once every attempt failed. `detail`, the vendors' own words (redacted), is told to a caller
 * who chose the provider and key; a server chain's caller gets the table's message alone.
 */
function finalError(failures: readonly VendorError[], outOfTime: boolean, detail: string | undefined): ApiError {
  const message = (lead: string) => (detail === undefined ? `${lead}.` : `${lead}: ${detail}`);
  if (outOfTime || failures.every((f) => f.kind === 'timeout')) {
    return new ApiError('AI_REQUEST_TIMEOUT', { message: message('No AI provider answered in time') });
  }
  if (failures.some((f) => CAPACITY.has(f.kind))) {
    const waits = failures
      .filter((f) => f.kind === 'rate_limit')
      .map((f) => f.retryAfterSec ?? DEFAULT_RETRY_AFTER_SEC);
    const headers: Record<string, string> = waits.length > 0 ? { 'Retry-After': String(Math.min(...waits)) } : {};
    return new ApiError('AI_QUOTA_EXCEEDED', { message: message('No AI provider had capacity'), headers });
  }
  return new ApiError('AI_GENERATION_FAILED', { message: message('The AI returned no usable design') });
}
