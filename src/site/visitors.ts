import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { FailureThrottle, throttledError } from '../gateway/failure-throttle.js';
import { rateLimitedError, WindowLimiter } from '../gateway/limits.js';
import { parseClientAddress } from '../http/address.js';

/**
 * Who a limit counts when there is no customer: the client's address as the socket saw it, or the client a
 * proxy of QR_TRUSTED_PROXIES forwarded for (src/http/client-address.ts). An IPv6 client is counted by its /64, the block one subscriber usually holds, so
 * walking through the addresses of one's own network does not reset the count.
 */
export function addressKey(address: string): string {
  const parsed = parseClientAddress(address);
  if (parsed === undefined) return address;
  return parsed.family === 4 ? parsed.dotted : `${parsed.groups.slice(0, 4).join(':')}::/64`;
}

/** The Studio's per-minute window, and the sign-in one (15 minutes). */
const STUDIO_WINDOW_SEC = 60;
const SIGN_IN_WINDOW_SEC = 900;
/** Failed sign-ins of one account from one address that cost no delay; each after waits 1, 2, 4… s. */
const PAIR_FREE_FAILURES = 3;

type SignInClass = 'address' | 'pair' | 'account';

/** Counted under a hash: the e-mail address itself has no business in Redis. */
const accountKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

/**
 * The site's limits on people rather than customers: anonymous Studio calls per client address per
 * minute; sign-up attempts per client address per 15 minutes; and failed sign-ins, throttled so that
 * nobody can guess passwords quickly and nobody can lock an owner out (README, "Limits on people"):
 *
 * - per client address, every failed sign-in counts: the first half of QR_LIMIT_SIGNIN cost nothing,
 *   each one after locks the address for 1, 2, 4… s (at most 15 minutes), and past QR_LIMIT_SIGNIN in
 *   15 minutes the address waits for the window's end;
 * - per (account, address), 3 failures cost nothing, each one after locks that pair for 1, 2, 4… s;
 * - per account, from every address: past half of QR_LIMIT_SIGNIN failures in 15 minutes the account is
 *   slowed down: a pair that fails then is locked from its first failure on.
 *
 * An attempt is refused (429 rate_limited, Retry-After) before the password is read only while its
 * address or its pair is locked. The account's own count never refuses anyone: an address that has not
 * failed is always let try, so the owner's right password from a clean address gets in, whatever
 * strangers do. A successful sign-in forgets its pair's failures. Same memory-or-Redis counters as the
 * gateway's.
 */
export class VisitorLimits {
  private readonly studio: WindowLimiter<'studio'>;
  private readonly signUp: WindowLimiter<'sign-up'>;
  private readonly failures: FailureThrottle<SignInClass>;
  private readonly slowAccountAt: number;
  /** Per client address, the end of the last sign-in queued on this instance (`signIn`). */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(config: Config, redis: Redis | undefined, log: (line: string) => void) {
    const common = { redis, log, keyPrefix: `${config.redisKeyPrefix}limit:` };
    const { studio, signIn } = config.site.visitorLimits;
    const half = Math.max(1, Math.floor(signIn / 2));
    this.slowAccountAt = half;
    this.studio = new WindowLimiter({ ...common, limits: { studio }, windowSec: STUDIO_WINDOW_SEC });
    this.signUp = new WindowLimiter({ ...common, limits: { 'sign-up': signIn }, windowSec: SIGN_IN_WINDOW_SEC });
    const backoff = (free: number) => ({ free, baseSec: 1, maxSec: SIGN_IN_WINDOW_SEC });
    this.failures = new FailureThrottle<SignInClass>({
      ...common,
      keyPrefix: `${common.keyPrefix}sign-in-`,
      policies: {
        address: { limit: signIn, windowSec: SIGN_IN_WINDOW_SEC, backoff: backoff(half) },
        // The pair's count is bounded by its address's; its own limit never comes first.
        pair: { limit: signIn, windowSec: SIGN_IN_WINDOW_SEC, backoff: backoff(PAIR_FREE_FAILURES) },
        // Counted only, never checked: it decides how a pair's failure is treated.
        account: { limit: Number.MAX_SAFE_INTEGER, windowSec: SIGN_IN_WINDOW_SEC },
      },
    });
  }

  /** One anonymous Studio call from `address`; rate_limited past the limit. Returns the headers to send. */
  async studioCall(address: string): Promise<Record<string, string>> {
    const d = await this.studio.consume(addressKey(address), 'studio');
    if (!d.allowed) throw rateLimitedError(d);
    return d.headers;
  }

  /** One sign-up attempt from `address`; rate_limited past QR_LIMIT_SIGNIN in 15 minutes. */
  async signUpAttempt(address: string): Promise<void> {
    const d = await this.signUp.consume(addressKey(address), 'sign-up');
    if (!d.allowed) throw rateLimitedError(d);
  }

  /**
   * One sign-in from `address` for `email`: refused 429 rate_limited (Retry-After) while the address, or
   * the pair of the address and the account, must wait after its failures; otherwise `attempt` checks the
   * password (null: wrong), and its outcome is counted. The sign-ins of one address run one after another
   * on this instance, so a burst of guesses sent at once is counted as it goes instead of all passing the
   * check before the first failure is recorded.
   */
  async signIn<T>(address: string, email: string, attempt: () => Promise<T | null>): Promise<T | null> {
    const from = addressKey(address);
    const before = this.inFlight.get(from) ?? Promise.resolve();
    const run = before.then(() => this.signInNow(from, accountKey(email), attempt));
    const settled = run.then(
      () => {},
      () => {},
    );
    this.inFlight.set(from, settled);
    void settled.then(() => {
      if (this.inFlight.get(from) === settled) this.inFlight.delete(from);
    });
    return run;
  }

  private async signInNow<T>(from: string, account: string, attempt: () => Promise<T | null>): Promise<T | null> {
    const pair = `${account}:${from}`;
    const [byAddress, byPair] = await Promise.all([
      this.failures.check(from, 'address'),
      this.failures.check(pair, 'pair'),
    ]);
    if (byAddress !== undefined) throw throttledError('Too many failed sign-ins from this address', byAddress);
    if (byPair !== undefined)
      throw throttledError('Too many failed sign-ins to this account from this address', byPair);
    const outcome = await attempt();
    if (outcome !== null) {
      // A sign-in that got in: its pair starts afresh (the address's and the account's counts stay).
      await this.failures.clear(pair, 'pair');
      return outcome;
    }
    const [{ failures }] = await Promise.all([
      this.failures.fail(account, 'account'),
      this.failures.fail(from, 'address'),
    ]);
    // The account slowed down: every failing pair waits from its first failure.
    await this.failures.fail(pair, 'pair', failures > this.slowAccountAt ? 0 : undefined);
    return null;
  }
}
