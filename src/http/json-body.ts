import { ApiError, isApiError } from '../errors.js';
import type { RequestContext } from './router.js';

/** Keys that could reach an object's prototype when a parsed body is merged or spread later. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a JSON request body. Prototype-pollution keys and non-finite numbers (JSON has no NaN, but
 * `1e999` parses to Infinity) are refused here, before any schema or pipeline code sees the value.
 */
export function parseJsonBody(body: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new ApiError('INVALID_JSON', { message: 'Request body is not valid UTF-8.' });
  }
  let refused: ApiError | undefined;
  let value: unknown;
  try {
    value = JSON.parse(text, (key, v: unknown) => {
      if (FORBIDDEN_KEYS.has(key))
        refused ??= new ApiError('INVALID_FIELD_VALUE', { message: `Field name "${key}" is not allowed.`, field: key });
      else if (typeof v === 'number' && !Number.isFinite(v))
        refused ??= new ApiError('VALUE_OUT_OF_RANGE', { message: `${key} is not a finite number.`, field: key });
      return v;
    });
  } catch (e) {
    throw new ApiError('INVALID_JSON', { message: `Request body is not valid JSON: ${(e as Error).message}` });
  }
  if (refused) throw refused;
  return value;
}

/**
 * A consumer request's body as sent, once its Content-Type says JSON. Refusals in the consumer channel's
 * lowercase codes: the front end's PAYLOAD_TOO_LARGE and REQUEST_TIMEOUT are renamed.
 */
export async function jsonBytes(ctx: RequestContext): Promise<Uint8Array> {
  const type = (ctx.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/')) throw new ApiError('multipart_not_supported');
  if (!/^application\/json\s*(;|$)/.test(type)) {
    throw new ApiError('invalid_body', {
      message: `The gateway accepts JSON bodies only; Content-Type was ${type === '' ? 'missing' : `"${type}"`}.`,
    });
  }
  try {
    return await ctx.body();
  } catch (e) {
    if (isApiError(e) && e.code === 'PAYLOAD_TOO_LARGE') throw new ApiError('payload_too_large', { cause: e });
    if (isApiError(e) && e.code === 'REQUEST_TIMEOUT')
      throw new ApiError('request_timeout', { message: e.message, cause: e });
    throw e;
  }
}

/**
 * Refuses, with the consumer's invalid_body, a body that is not JSON at all (nor UTF-8). Whether the JSON
 * is a request the engine takes is the engine's to say, in its own codes.
 */
export function requireJson(bytes: Uint8Array): void {
  try {
    JSON.parse(utf8.decode(bytes));
  } catch (e) {
    throw new ApiError('invalid_body', { message: `Body could not be parsed: ${(e as Error).message}` });
  }
}
