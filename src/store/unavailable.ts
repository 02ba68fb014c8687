import { ApiError } from '../errors.js';

/**
 * Node socket errors, and the SQLSTATEs of a server that is going away or refusing connections: class 08
 * (connection exception), 57P01–57P03 (shutdown, crash, not yet accepting), 53300 (too many connections).
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** What `pg` and PGlite say, without a code, when the connection is gone or the store was closed. */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|Cannot use a pool after calling end|PGlite is closed/i;

export function isConnectionError(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  const message = (e as { message?: unknown }).message;
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/**
 * A database that cannot be reached becomes `store_unavailable` (503, `Retry-After: 1`: the client may try
 * again shortly); every other error (a constraint, a bug in a statement) stays as it is. The message never
 * carries the driver's text, which may name hosts.
 */
export function storeError(e: unknown): unknown {
  if (e instanceof ApiError || !isConnectionError(e)) return e;
  return new ApiError('store_unavailable', { headers: { 'Retry-After': '1' }, cause: e });
}

/** Runs a driver call, turning a lost connection into `store_unavailable`. */
export async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw storeError(e);
  }
}
