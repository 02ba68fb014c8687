import type { ErrorObject } from 'ajv';
import { ApiError, type ErrorCode } from '../errors.js';
import { validators } from './compiled.js';
import type { SchemaName } from './registry.js';

/** `/centerText/fontSize` → `centerText.fontSize`, the form `field` uses in error bodies. */
const fieldOf = (e: ErrorObject): string => {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') path.push((e.params as { missingProperty: string }).missingProperty);
  if (e.keyword === 'additionalProperties') path.push((e.params as { additionalProperty: string }).additionalProperty);
  return path.join('.');
};

/**
 * Maps the first schema violation to the interface's error codes. An empty string counts as a missing
 * field (docs/contract.md: MISSING_REQUIRED_FIELD when `content` is empty); too much `content` is CONTENT_TOO_LONG.
 */
export function toApiError(e: ErrorObject): ApiError {
  const field = fieldOf(e);
  const limit = (e.params as { limit?: number }).limit;
  let code: ErrorCode = 'INVALID_FIELD_VALUE';
  let message = `${field || 'body'} ${e.message ?? 'is invalid'}`;
  switch (e.keyword) {
    case 'required':
      code = 'MISSING_REQUIRED_FIELD';
      message = `${field} is required.`;
      break;
    case 'minLength':
      if (limit === 1) {
        code = 'MISSING_REQUIRED_FIELD';
        message = `${field} must not be empty.`;
      }
      break;
    case 'maxLength':
      if (field === 'content') code = 'CONTENT_TOO_LONG';
      message = `${field} must be at most ${limit} characters.`;
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      code = 'VALUE_OUT_OF_RANGE';
      message = `${field} ${e.message}.`;
      break;
    case 'pattern':
      if (e.schemaPath.includes('hexColor')) {
        code = 'INVALID_HEX';
        message = `${field} must be a hex colour: #RGB, #RRGGBB or #RRGGBBAA.`;
      }
      break;
    case 'additionalProperties':
      message = `Unknown field ${field}.`;
      break;
    case 'enum':
      message = `${field} must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}.`;
      break;
    case 'type':
      if (!field) return new ApiError('INVALID_JSON', { message: 'Request body must be a JSON object.' });
      message = `${field} must be ${e.params.type === 'integer' ? 'an integer' : `a ${e.params.type}`}.`;
      break;
  }
  return new ApiError(code, { message, field: field || undefined });
}

/** Validates `body` against a precompiled schema; throws the mapped ApiError on the first violation. */
export function validate<T>(name: SchemaName, body: unknown): T {
  const check = validators[name];
  if (!check(body)) throw toApiError(check.errors![0]!);
  return body as T;
}
