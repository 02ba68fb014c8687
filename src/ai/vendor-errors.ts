import type { IncomingHttpHeaders } from 'node:http';
import { isPlainObject } from './json-schema.js';
import { getProvider, type ProviderId } from './providers.js';
import { redact } from './redact.js';

/**
 * Why one provider attempt failed. The chain decides from this alone whether to try the next provider:
 * - stop at once: `invalid_key`, `model_missing`, `client` (the same request would fail anywhere);
 * - move on: `quota`, `rate_limit`, `overloaded`, `server`, `network`, `timeout`, `bad_output`.
 */
export type FailureKind =
  | 'invalid_key'
  | 'quota'
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'network'
  | 'timeout'
  | 'model_missing'
  | 'client'
  | 'bad_output';

const DESCRIPTION: Record<FailureKind, string> = {
  invalid_key: 'rejected the API key',
  quota: 'refused: credits or spend cap exhausted',
  rate_limit: 'rate-limited the request',
  overloaded: 'is overloaded',
  server: 'failed with a server error',
  network: 'could not be reached',
  timeout: 'did not answer in time',
  model_missing: 'does not offer that model',
  client: 'rejected the request',
  bad_output: 'returned no usable JSON',
};

export class VendorError extends Error {
  override readonly name = 'VendorError';

  /** `detail` must already be redacted: the message is fixed into `stack` at construction. */
  constructor(
    readonly kind: FailureKind,
    readonly providerId: ProviderId,
    detail: string,
    readonly status?: number,
    /** Seconds the vendor asked us to wait, when it said. */
    readonly retryAfterSec?: number,
  ) {
    const where = status !== undefined ? ` (HTTP ${status})` : '';
    super(`${getProvider(providerId).name} ${DESCRIPTION[kind]}${where}${detail ? `: ${detail}` : ''}`);
  }
}

/** The fields of an error body that decide its kind, whatever the vendor's body shape. */
interface Signal {
  status: number;
  message: string;
  /** `error.code`, `error.type`, `error.status` and Google's `details[].reason`, lower-cased and joined. */
  codes: string;
  retryAfterSec: number | undefined;
}

type Rule = (s: Signal) => FailureKind | undefined;

/** What differs from the plain reading of an HTTP status, per vendor (README.md here, *Error signals*). */
const VENDOR_RULES: Partial<Record<ProviderId, Rule>> = {
  openai: (s) =>
    s.status === 429 && /insufficient_quota|credit_balance_exhausted|spend_limit_exceeded/.test(s.codes)
      ? 'quota'
      : undefined,
  anthropic: (s) => {
    if (s.status === 400 && /credit balance is too low/i.test(s.message)) return 'quota';
    // A monthly spend cap is a 429 too; only a real rate limit says when to come back.
    if (s.status === 429 && s.retryAfterSec === undefined) return 'quota';
    return undefined;
  },
  google: (s) => {
    if (s.status === 400 && /api_key_invalid/.test(s.codes)) return 'invalid_key';
    return undefined;
  },
  mistral: (s) => (s.status === 400 && /invalid_model/.test(s.codes) ? 'model_missing' : undefined),
  deepseek: (s) => (s.status === 400 && /model not exist/i.test(s.message) ? 'model_missing' : undefined),
  groq: (s) => (s.status === 400 && /model_decommissioned/.test(s.codes) ? 'model_missing' : undefined),
  xai: (s) => {
    if (s.status === 400 && /incorrect api key/i.test(s.message)) return 'invalid_key';
    if (s.status === 403) return 'quota';
    if (s.status === 429 && /credits|spending limit/i.test(s.message)) return 'quota';
    return undefined;
  },
  openrouter: (s) => (s.status === 400 && /not a valid model/i.test(s.message) ? 'model_missing' : undefined),
  together: (s) => (s.status === 400 && /model_not_available/.test(s.codes) ? 'model_missing' : undefined),
};

function byStatus(status: number): FailureKind {
  switch (status) {
    case 401:
    case 403:
      return 'invalid_key';
    case 402:
      return 'quota';
    case 404:
      return 'model_missing';
    case 408:
      return 'timeout';
    case 429:
      return 'rate_limit';
    case 498:
    case 503:
    case 529:
      return 'overloaded'; // 498: Groq flex tier out of capacity
  }
  return status >= 500 ? 'server' : 'client';
}

/** Classifies a vendor's error answer. `secrets` are redacted from the message along with every server key. */
export function classifyVendorError(
  providerId: ProviderId,
  status: number,
  headers: IncomingHttpHeaders,
  body: unknown,
  secrets: readonly string[],
): VendorError {
  const signal: Signal = {
    status,
    message: vendorMessage(body),
    codes: errorCodes(body),
    retryAfterSec: retryAfter(headers, body),
  };
  const kind = VENDOR_RULES[providerId]?.(signal) ?? byStatus(status);
  const detail = redact(signal.message, secrets).slice(0, 300);
  return new VendorError(kind, providerId, detail, status, kind === 'rate_limit' ? signal.retryAfterSec : undefined);
}

/** `body.error?.message ?? body.error ?? body.message ?? body.detail`, as text. */
export function vendorMessage(body: unknown): string {
  if (typeof body === 'string') return body.trim();
  if (!isPlainObject(body)) return '';
  const error = body.error;
  const candidates = [isPlainObject(error) ? error.message : undefined, error, body.message, body.detail];
  for (const c of candidates) {
    if (typeof c === 'string' && c.trim() !== '') return c.trim();
  }
  const found = candidates.find((c) => c !== undefined && c !== null);
  return found === undefined ? '' : JSON.stringify(found);
}

function errorCodes(body: unknown): string {
  if (!isPlainObject(body)) return '';
  const error = isPlainObject(body.error) ? body.error : body;
  const parts = [error.code, error.type, error.status];
  if (Array.isArray(error.details)) {
    for (const d of error.details) if (isPlainObject(d)) parts.push(d.reason);
  }
  return parts
    .filter((p) => typeof p === 'string' || typeof p === 'number')
    .join(' ')
    .toLowerCase();
}

/** `Retry-After` (seconds or HTTP date), OpenAI's `retry-after-ms`, or Google's `RetryInfo.retryDelay` ("37s"). */
function retryAfter(headers: IncomingHttpHeaders, body: unknown): number | undefined {
  const header = (name: string): string | undefined => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const ms = Number(header('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms / 1000);
  const ra = header('retry-after');
  if (ra !== undefined) {
    const secs = /^\d+(\.\d+)?$/.test(ra.trim()) ? Number(ra) : (Date.parse(ra) - Date.now()) / 1000;
    if (Number.isFinite(secs)) return Math.max(1, Math.ceil(secs));
  }
  const details = isPlainObject(body) && isPlainObject(body.error) ? body.error.details : undefined;
  if (Array.isArray(details)) {
    for (const d of details) {
      const m = isPlainObject(d) && typeof d.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay) : null;
      if (m) return Math.max(1, Math.ceil(Number(m[1])));
    }
  }
  return undefined;
}
