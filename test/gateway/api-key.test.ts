import { describe, expect, it } from 'vitest';
import type { KeyOwner } from '../../src/accounts/types.js';
import { isApiError } from '../../src/errors.js';
import { apiKeyGuard, authenticate } from '../../src/gateway/api-key.js';
import { CredentialThrottle } from '../../src/gateway/failure-throttle.js';
import type { RequestContext } from '../../src/http/router.js';

const OWNER = { customerId: 'cus_1' } as KeyOwner;
/** The key store's side, reduced to the one key it knows. */
const accounts = { verifyKey: async (key: string) => (key === 'qrf_good' ? OWNER : null) };
const none = new URLSearchParams();

const refusalOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => (isApiError(e) ? { status: e.status, code: e.code, message: e.message } : e),
  );

describe('authenticate', () => {
  it('reads the key from X-API-Key and gives its owner', async () => {
    expect(await authenticate(accounts, { 'x-api-key': 'qrf_good' }, none)).toBe(OWNER);
  });

  it('refuses an unknown key with invalid_api_key', async () => {
    expect(await refusalOf(authenticate(accounts, { 'x-api-key': 'qrf_bad' }, none))).toMatchObject({
      status: 401,
      code: 'invalid_api_key',
    });
  });

  it('refuses a missing key, saying where a misplaced one belongs, without reading it', async () => {
    const missing = await refusalOf(authenticate(accounts, {}, none));
    expect(missing).toEqual({
      status: 401,
      code: 'missing_api_key',
      message: 'Send your API key in the X-API-Key header.',
    });
    for (const [headers, query] of [
      [{ authorization: 'Bearer qrf_good' }, none],
      [{}, new URLSearchParams({ api_key: 'qrf_good' })],
      [{ 'x-api-key': '' }, new URLSearchParams({ key: 'qrf_good' })],
    ] as const)
      expect(await refusalOf(authenticate(accounts, headers, query))).toMatchObject({
        code: 'missing_api_key',
        message: expect.stringMatching(/not accepted\.$/),
      });
  });
});

describe('apiKeyGuard', () => {
  it('admits the key’s owner under the apiKey scheme', async () => {
    const guard = apiKeyGuard(accounts, new CredentialThrottle(5));
    expect(guard.scheme).toBe('apiKey');
    const ctx = { headers: { 'x-api-key': 'qrf_good' }, query: none } as unknown as RequestContext;
    expect(await guard.admit(ctx)).toBe(OWNER);
  });
});

describe('apiKeyGuard, failed keys per client address', () => {
  it('past the limit the address is refused 429 before any lookup, its valid key too; other addresses are not', async () => {
    let lookups = 0;
    const counting = {
      verifyKey: async (key: string) => {
        lookups++;
        return key === 'qrf_good' ? OWNER : null;
      },
    };
    const guard = apiKeyGuard(counting, new CredentialThrottle(3));
    const from = (remoteAddress: string, key: string) =>
      refusalOf(
        Promise.resolve(
          guard.admit({ headers: { 'x-api-key': key }, query: none, remoteAddress } as unknown as RequestContext),
        ),
      );
    for (let i = 0; i < 3; i++) expect(await from('203.0.113.7', `qrf_wrong${i}`)).toMatchObject({ status: 401 });
    expect(lookups).toBe(3);
    const refused = await from('203.0.113.7', 'qrf_wrong3');
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(await from('203.0.113.7', 'qrf_good')).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(lookups).toBe(3);
    // A good key from elsewhere, and a missing key (no attempt), are as before.
    expect(await from('198.51.100.1', 'qrf_good')).toBeUndefined();
    expect(await from('203.0.113.7', '')).toMatchObject({ status: 401, code: 'missing_api_key' });
  });
});
