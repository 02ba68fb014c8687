import type { ErrorObject } from 'ajv';
import { ApiError } from '../errors.js';

/**
 * A form's first schema violation as the consumer channel answers it: invalid_body naming the field at
 * fault, `describe(field)` saying what the field must be.
 */
export function formError(e: ErrorObject, describe: (field: string) => string): ApiError {
  const params = e.params as { additionalProperty?: string; missingProperty?: string };
  if (e.keyword === 'additionalProperties') {
    const field = params.additionalProperty!;
    return new ApiError('invalid_body', { message: `Unknown field "${field}".`, field });
  }
  const field = params.missingProperty ?? e.instancePath.slice(1);
  if (field === '') return new ApiError('invalid_body', { message: 'The body must be a JSON object.' });
  return new ApiError('invalid_body', { message: describe(field), field });
}
