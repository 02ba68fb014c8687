import type { KeyCheck, KeyOwner } from '../accounts/types.js';
import { ApiError } from '../errors.js';
import type { Guard } from '../http/router.js';
import type { CredentialFailures } from './failure-throttle.js';

/** Where people put keys that we refuse to read them from: they end up in logs, proxies and browser history. */
const MISPLACED_KEY_PARAMS = ['api_key', 'apikey', 'key', 'x-api-key'];

/**
 * The caller's key, from X-API-Key only, checked against the stored hashes (malformed keys are refused
 * before any lookup). A key sent anywhere else is not read, and the answer says where it belongs.
 */
export async function authenticate(
  accounts: Pick<KeyCheck, 'verifyKey'>,
  headers: Record<string, string>,
  query: URLSearchParams,
): Promise<KeyOwner> {
  const key = headers['x-api-key'];
  if (key === undefined || key === '') {
    const elsewhere =
      headers.authorization !== undefined || MISPLACED_KEY_PARAMS.some((p) => query.has(p))
        ? ' Keys in the query string or the Authorization header are not accepted.'
        : '';
    throw new ApiError('missing_api_key', { message: `Send your API key in the X-API-Key header.${elsewhere}` });
  }
  const owner = await accounts.verifyKey(key);
  if (owner === null) throw new ApiError('invalid_api_key');
  return owner;
}

/**
 * The guard of the routes that take an X-API-Key: the caller is the key's owner. Keys that fail the check
 * are counted per client address (`failures`); an address past its limit is refused 429 before its key is
 * looked up, whatever the key, until its window ends. A missing key is no attempt and is not counted.
 */
export const apiKeyGuard = (accounts: Pick<KeyCheck, 'verifyKey'>, failures: CredentialFailures): Guard<KeyOwner> => ({
  scheme: 'apiKey',
  admit(ctx) {
    const sent = ctx.headers['x-api-key'];
    if (sent === undefined || sent === '') return authenticate(accounts, ctx.headers, ctx.query);
    return failures.check(
      ctx.remoteAddress,
      () => authenticate(accounts, ctx.headers, ctx.query),
      (e) => e instanceof ApiError && e.code === 'invalid_api_key',
    );
  },
});
