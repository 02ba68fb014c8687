import { ApiError } from '../errors.js';

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
