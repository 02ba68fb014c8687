/** The pages' request errors (web/src/lib/api.ts): one failure, whatever went wrong, for a page to show. */
import { describe, expect, it } from 'vitest';
import { ApiFailure, asFailure } from '../../web/src/lib/api.js';

describe('asFailure', () => {
  it('keeps the site’s refusal as it is: status, code, field and message', () => {
    const refusal = new ApiFailure(400, {
      success: false,
      error: 'The colour is not a colour.',
      code: 'invalid_body',
      field: 'primaryColor',
    });
    expect(asFailure(refusal)).toBe(refusal);
  });

  it.each([
    ['a fetch that failed', new TypeError('Failed to fetch')],
    ['a body that is not JSON', new SyntaxError('Unexpected token <')],
    ['anything thrown', 'offline'],
  ])('says the site could not be reached for %s', (_, thrown) => {
    const failure = asFailure(thrown);
    expect(failure).toBeInstanceOf(ApiFailure);
    expect({ status: failure.status, code: failure.code, field: failure.field, message: failure.message }).toEqual({
      status: 0,
      code: 'offline',
      field: undefined,
      message: 'The site could not be reached.',
    });
  });
});
