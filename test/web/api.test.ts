/** The pages' request errors (web/src/lib/api.ts): one failure, whatever went wrong, for a page to show. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure, asFailure, postJson, rememberCsrfToken } from '../../web/src/lib/api.js';

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

describe('a POST refused for a busy moment', () => {
  const answer = (status: number, body: object, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  afterEach(() => vi.unstubAllGlobals());

  it('is sent again after Retry-After while the answer is 503 SERVER_BUSY, then gives the answer', async () => {
    const busy = () => answer(503, { success: false, error: 'busy', code: 'SERVER_BUSY' }, { 'retry-after': '0' });
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(busy())
      .mockResolvedValueOnce(busy())
      .mockResolvedValueOnce(answer(200, { success: true, qrBase64: 'AA' }));
    vi.stubGlobal('fetch', fetch);
    rememberCsrfToken('t');
    expect(await postJson('/api/studio/render', { content: 'x' })).toMatchObject({ qrBase64: 'AA' });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('is not sent again for any other 503, nor past the retries', async () => {
    const unavailable = answer(503, { success: false, error: 'off', code: 'checkout_unavailable' });
    const fetch = vi.fn().mockResolvedValue(unavailable);
    vi.stubGlobal('fetch', fetch);
    rememberCsrfToken('t');
    await expect(postJson('/api/checkout', {})).rejects.toMatchObject({ code: 'checkout_unavailable' });
    expect(fetch).toHaveBeenCalledTimes(1);
    const alwaysBusy = vi.fn(async () =>
      answer(503, { success: false, error: 'busy', code: 'SERVER_BUSY' }, { 'retry-after': '0' }),
    );
    vi.stubGlobal('fetch', alwaysBusy);
    await expect(postJson('/api/studio/render', {})).rejects.toMatchObject({ code: 'SERVER_BUSY' });
    expect(alwaysBusy).toHaveBeenCalledTimes(5);
  });
});
